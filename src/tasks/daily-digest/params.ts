import { z } from "zod";
import { REDDIT_DEFAULT_CALL_USD, REDDIT_DEFAULT_RATE_LIMIT, REDDIT_DEFAULT_RATE_WINDOW_MS } from "../reddit-tools.js";

/** a hit is judged on the comments within this many hours of posting (the spec's fixed cascade) */
export const CASCADE_HORIZON_HOURS = 24;

/**
 * daily-digest parameters (run config `task_params`). Defaults are the spec's (tasks.md §4): the
 * delivery window opens at 12:00 UTC and lasts 1 h, candidates are the posts of the 24 h before
 * it, a day settles 24 h after the window opens, 10 ids are scored and a hit needs ≥ 50 comments
 * within 24 h of posting.
 */
export const DailyDigestParams = z
  .object({
    /** USD per accepted Reddit data call */
    reddit_call_usd: z.number().nonnegative().default(REDDIT_DEFAULT_CALL_USD),
    /** shared Reddit limit: calls per sliding window */
    reddit_rate_limit: z.number().int().positive().default(REDDIT_DEFAULT_RATE_LIMIT),
    reddit_rate_window_ms: z.number().int().positive().default(REDDIT_DEFAULT_RATE_WINDOW_MS),
    /** minutes after 00:00 UTC at which each day's delivery window opens (a) */
    window_open_minute_utc: z
      .number()
      .int()
      .min(0)
      .max(1439)
      .default(12 * 60),
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
    max_ids: z.number().int().positive().default(50),
  })
  .strict()
  .refine((p) => p.max_ids >= p.digest_size, { message: "max_ids must be ≥ digest_size" })
  .refine((p) => p.settle_hours * 60 >= p.window_minutes, {
    message: "settlement must not precede the window's close",
  })
  // DESIGN.md invariant 5: a day's outcome (hit or not per post) is fed back at a + settle_hours
  .refine((p) => p.settle_hours >= CASCADE_HORIZON_HOURS, {
    path: ["settle_hours"],
    message:
      `settle_hours must be at least the cascade horizon (${CASCADE_HORIZON_HOURS} h): a hit is a post with ` +
      `≥ hit_threshold comments within ${CASCADE_HORIZON_HOURS} h of posting, and a candidate posted just before ` +
      "the window opens completes its cascade only that long after, so an earlier settlement would mark posts as hits " +
      "before their cascades are complete",
  });

export type DailyDigestParams = z.output<typeof DailyDigestParams>;

export const defaultDailyDigestParams = (): DailyDigestParams => DailyDigestParams.parse({});
