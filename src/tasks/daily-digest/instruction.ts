import { formatDuration, isoDay, MINUTE_MS } from "../../common/time.js";
import type { DailyDigestParams } from "./params.js";

export interface InstructionInput {
  params: DailyDigestParams;
  sim_start: number;
  sim_end: number;
  budget_usd: number;
}

const hhmm = (minuteOfDay: number) =>
  `${String(Math.floor(minuteOfDay / 60)).padStart(2, "0")}:${String(minuteOfDay % 60).padStart(2, "0")}`;

/** The agent's task text, rendered with the run's real budget, prices, limits and calendar. */
export function renderInstruction(o: InstructionInput): string {
  const p = o.params;
  const open = hhmm(p.window_open_minute_utc);
  const close = hhmm((p.window_open_minute_utc + p.window_minutes) % 1440);
  const lastDay = isoDay(o.sim_end - 1);
  return [
    "# Daily digest of Reddit posts",
    "",
    `You run from ${isoDay(o.sim_start)} to ${lastDay} (UTC, inclusive) over a replay of several subreddits.`,
    `Every day a delivery window opens at ${open} UTC and stays open for ${formatDuration(p.window_minutes * MINUTE_MS)} ` +
      `(until ${close} UTC, exclusive). Inside it, call \`digest(root_ids)\` once with the ids of the root posts created ` +
      `in the ${p.candidate_hours} hours before the window opened that you expect to reach ` +
      `${p.hit_threshold} comments within 24 hours of posting.`,
    "",
    "## Scoring",
    `- Each day scores hits / ${p.digest_size} over the first ${p.digest_size} distinct ids of that day's digest. A hit is ` +
      `a post created in the candidate window whose comments within its first 24 hours number at least ${p.hit_threshold}.`,
    `- A day is settled ${p.settle_hours} hours after its window opens. A day without an accepted ` +
      "digest scores 0. Days that settle after the run ends are not scored.",
    "- Your score is the mean over the scored days. Days whose window opens after your model budget is exhausted are not " +
      "counted in it.",
    "",
    "## Rules",
    `- \`digest\` is free and is accepted only while a window is open, once per window, with 1 to ${p.max_ids} string ids. ` +
      "Outside a window, a second digest in the same window, or a malformed payload is rejected (free; a rejected call " +
      "does not use the window's digest). Ids are not checked when you deliver: a wrong id just scores no hit.",
    "- `digest_status()` (free) tells you whether a window is open, whether today's digest is delivered, and when the " +
      "next window opens.",
    `- Reddit data tools \`list_posts\`, \`get_post\` and \`get_cascade\` cost $${p.reddit_call_usd} per call and share a ` +
      `limit of ${p.reddit_rate_limit} calls per sliding ${formatDuration(p.reddit_rate_window_ms)}; \`quota()\` (free) ` +
      "shows what is left. You only ever see posts and comments published up to the current simulated time; comment " +
      "counts are of the comments visible now.",
    `- Your total budget is $${o.budget_usd.toFixed(2)} for everything (model calls included).`,
  ].join("\n");
}
