import { utcDay } from "../../common/time.js";
import { REDDIT_LIMITER, redditDataTools, redditLimiters } from "../reddit-tools.js";
import { defineTask, type Episode } from "../task.js";
import { digestState, digestTools } from "./digest-tools.js";
import { dailyDigestExampleWatcher } from "./example-watcher.js";
import { renderInstruction } from "./instruction.js";
import { DailyDigestParams } from "./params.js";
import { dailyDigestPolicies } from "./reference-policies.js";
import { digestDeadlines } from "./schedule.js";
import { DAILY_DIGEST_SCORER_VERSION, DailyDigestScorer } from "./scorer.js";

const day = utcDay;

export const DAILY_DIGEST_EPISODES: Episode[] = [
  {
    name: "synth-28d",
    sim_start: day("2026-03-01"),
    sim_end: day("2026-03-29"),
    world: { kind: "synth" },
    description:
      "Synthetic Reddit world, 2026-03-01 → 2026-03-28 (27 scored days; the last day settles after the window).",
  },
  {
    name: "synth-7d",
    sim_start: day("2026-03-01"),
    sim_end: day("2026-03-08"),
    world: { kind: "synth" },
    description: "Short synthetic run, 2026-03-01 → 2026-03-07 (6 scored days), for quick checks.",
  },
];

export const dailyDigestTask = defineTask<DailyDigestParams>({
  id: "daily-digest",
  version: "1",
  scorer_version: DAILY_DIGEST_SCORER_VERSION,
  title: "Daily digest",
  axes: { time_sensitivity: "high (deadline)", reasoning: "low", recurrence: "daily" },
  params: DailyDigestParams,
  episodes: DAILY_DIGEST_EPISODES,
  defaultEpisode: "synth-28d",
  budget_usd: 20,
  baseSchedule: "5 12 * * *",
  exampleWatcher: dailyDigestExampleWatcher,
  streams: ["reddit_post", "reddit_comment", "reddit_reveal"],
  open(ctx) {
    const p = ctx.params;
    const limiters = redditLimiters({ limit: p.reddit_rate_limit, windowMs: p.reddit_rate_window_ms });
    // the run's accepted digests (window opening → delivery time): the digest tool's one-per-window right
    const delivered = new Map<number, number>();
    return {
      instruction: () =>
        renderInstruction({ params: p, sim_start: ctx.sim_start, sim_end: ctx.sim_end, budget_usd: ctx.budget_usd }),
      tools: () => [
        ...redditDataTools({
          view: ctx.view,
          callUsd: p.reddit_call_usd,
          limiter: limiters[REDDIT_LIMITER]!,
          rate: { limit: p.reddit_rate_limit, windowMs: p.reddit_rate_window_ms },
        }),
        ...digestTools(p, delivered),
      ],
      limiters: () => limiters,
      // the delivery windows follow a fixed daily schedule: known at any time
      deadlines: (view, until) => digestDeadlines(view.now(), until, p),
      state: () => digestState(ctx.view.now(), p, delivered),
    };
  },
  createScorer: (ctx) => new DailyDigestScorer(ctx),
  referencePolicies: dailyDigestPolicies,
  metrics: {
    primary: "digest_acc",
    direction: "higher",
    secondary: [
      "digest_acc_raw",
      "window_survived",
      "days_scored",
      "days_counted",
      "days_delivered",
      "days_missed",
      "mean_hits",
      "digests_rejected",
      "commitments_ignored",
    ],
  },
});
