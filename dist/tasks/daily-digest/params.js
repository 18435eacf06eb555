import { z } from "zod";
import { REDDIT_DEFAULT_CALL_USD, REDDIT_DEFAULT_RATE_LIMIT, REDDIT_DEFAULT_RATE_WINDOW_MS } from "../reddit-tools.js";
const CASCADE_HORIZON_HOURS = 24;
const DailyDigestParams = z.object({
  /** USD per accepted Reddit data call */
  reddit_call_usd: z.number().nonnegative().default(REDDIT_DEFAULT_CALL_USD),
  /** shared Reddit limit: calls per sliding window */
  reddit_rate_limit: z.number().int().positive().default(REDDIT_DEFAULT_RATE_LIMIT),
  reddit_rate_window_ms: z.number().int().positive().default(REDDIT_DEFAULT_RATE_WINDOW_MS),
  /** minutes after 00:00 UTC at which each day's delivery window opens (a) */
  window_open_minute_utc: z.number().int().min(0).max(1439).default(12 * 60),
  /** delivery window length: [a, a + window_minutes) */
  window_minutes: z.number().int().positive().max(1440).default(60),
  /** candidates: posts created in [a − candidate_hours, a) */
  candidate_hours: z.number().int().positive().default(24),
  /** settlement at a + settle_hours (must leave every candidate's 24 h cascade complete) */
  settle_hours: z.number().int().positive().default(24),
  /** ids scored per day: the first `digest_size` distinct ids; credit = hits / digest_size */
  digest_size: z.number().int().positive().default(10),
  /** a hit needs a 24 h cascade of at least this many comments */
  hit_threshold: z.number().int().positive().default(50),
  /** most ids one digest call may carry (payload cap) */
  max_ids: z.number().int().positive().default(50)
}).strict().refine((p) => p.max_ids >= p.digest_size, { message: "max_ids must be \u2265 digest_size" }).refine((p) => p.settle_hours * 60 >= p.window_minutes, {
  message: "settlement must not precede the window's close"
}).refine((p) => p.settle_hours >= CASCADE_HORIZON_HOURS, {
  path: ["settle_hours"],
  message: `settle_hours must be at least the cascade horizon (${CASCADE_HORIZON_HOURS} h): a hit is a post with \u2265 hit_threshold comments within ${CASCADE_HORIZON_HOURS} h of posting, and a candidate posted just before the window opens completes its cascade only that long after, so an earlier settlement would mark posts as hits before their cascades are complete`
});
const defaultDailyDigestParams = () => DailyDigestParams.parse({});
export {
  CASCADE_HORIZON_HOURS,
  DailyDigestParams,
  defaultDailyDigestParams
};
//# sourceMappingURL=params.js.map
