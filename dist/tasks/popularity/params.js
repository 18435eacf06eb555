import { z } from "zod";
import { REDDIT_DEFAULT_CALL_USD, REDDIT_DEFAULT_RATE_LIMIT, REDDIT_DEFAULT_RATE_WINDOW_MS } from "../reddit-tools.js";
const PopularityParams = z.object({
  /** USD per accepted Reddit data call */
  reddit_call_usd: z.number().nonnegative().default(REDDIT_DEFAULT_CALL_USD),
  /** shared Reddit limit: calls per sliding window */
  reddit_rate_limit: z.number().int().positive().default(REDDIT_DEFAULT_RATE_LIMIT),
  reddit_rate_window_ms: z.number().int().positive().default(REDDIT_DEFAULT_RATE_WINDOW_MS),
  /** a tail post has a cascade (comments within `horizon_hours` of posting) of at least this many comments */
  tail_threshold: z.number().int().positive().default(50),
  /** the cascade horizon and the reveal delay: a post's cascade is settled (and public) this long after posting */
  horizon_hours: z.number().positive().default(24),
  /** at most this many accepted recommendations per rolling `cap_window_hours` */
  cap: z.number().int().positive().default(10),
  cap_window_hours: z.number().positive().default(24),
  /** credit of a tail post = max(0, 1 − delay_hours / credit_zero_hours) */
  credit_zero_hours: z.number().positive().default(6),
  /** days of fully revealed history before the run start the instruction announces (the synthetic world has 7) */
  history_days: z.number().int().nonnegative().default(7),
  /** post ages (hours) at which feedback reports comment counts */
  feedback_ages_hours: z.array(z.number().positive()).min(1).max(8).default([1, 6, 24])
}).strict().superRefine((p, ctx) => {
  p.feedback_ages_hours.forEach((h, i) => {
    if (h > p.horizon_hours)
      ctx.addIssue({
        code: "custom",
        path: ["feedback_ages_hours", i],
        message: `feedback age ${h} h is beyond horizon_hours (${p.horizon_hours} h): feedback is released at the post's reveal (${p.horizon_hours} h after posting), when comments after that age are not visible yet`
      });
  });
});
export {
  PopularityParams
};
//# sourceMappingURL=params.js.map
