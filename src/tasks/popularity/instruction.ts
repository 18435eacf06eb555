import { formatDuration, isoDay } from "../../common/time.js";
import type { PopularityParams } from "./params.js";

export interface InstructionInput {
  params: PopularityParams;
  sim_start: number;
  sim_end: number;
  budget_usd: number;
}

/** The agent's task text, rendered with the run's real budget, prices, limits, window and rules. */
export function renderInstruction(o: InstructionInput): string {
  const p = o.params;
  const H = p.horizon_hours;
  return [
    "# Popularity prediction on Reddit",
    "",
    `You run from ${isoDay(o.sim_start)} to ${isoDay(o.sim_end - 1)} (UTC, inclusive) over a replay of several subreddits. ` +
      `New root posts appear all the time; a few of them become popular. Your job is to spot, as early as possible, the ` +
      `posts that will receive at least ${p.tail_threshold} comments within ${H} hours of posting (the "tail" posts), and ` +
      "recommend them with `recommend(root_id)`.",
    "",
    "## Rules",
    `- \`recommend\` is free. It accepts only posts created at or after the run start (${isoDay(o.sim_start)} 00:00 UTC) ` +
      `that are younger than ${H} hours, each post once, and at most ${p.cap} accepted recommendations in any rolling ` +
      `${p.cap_window_hours} hours. A rejected call is free, says why, and uses no slot. \`recommendations()\` (free) ` +
      "lists your accepted recommendations and the state of the cap.",
    `- A post's ${H} h comment count becomes public ${H} hours after it was posted (\`get_post\` then shows it as ` +
      "`descendants_24h`). Before that you only see the comments published so far; vote scores are never shown.",
    `- The ${p.history_days} days before the run start are fully revealed history you can study (list them with ` +
      "`list_posts` and a `since`/`until` range).",
    `- Reddit data tools \`list_posts\`, \`get_post\` and \`get_cascade\` cost $${p.reddit_call_usd} per call and share a ` +
      `limit of ${p.reddit_rate_limit} calls per sliding ${formatDuration(p.reddit_rate_window_ms)}; \`quota()\` (free) ` +
      "shows what is left.",
    `- Your total budget is $${o.budget_usd.toFixed(2)} for everything (model calls included).`,
    "",
    "## Scoring",
    `- Each recommended post is judged ${H} hours after it was posted: a tail post is a hit, any other post a false alarm.`,
    `- A hit earns credit max(0, 1 − delay / ${p.credit_zero_hours} h), where delay is the time from the post's creation ` +
      "to your recommendation.",
    "- Precision = hits / judged recommendations. Recall = sum of credits / the number of tail posts an ideal " +
      `recommender could have caught: the sum over UTC days of min(${p.cap}, tail posts created that day).`,
    `- Your score is the F1 of precision and recall. Posts judged after the run ends are not scored.`,
  ].join("\n");
}
