import { isoInstant, utcDay } from "../../common/time.js";
import { REDDIT_LIMITER, redditDataTools, redditLimiters } from "../reddit-tools.js";
import { defineTask, type Episode, type Outcome } from "../task.js";
import { popularityExampleWatcher } from "./example-watcher.js";
import { renderInstruction } from "./instruction.js";
import { PopularityParams } from "./params.js";
import { recommendTools } from "./recommend-tools.js";
import { RecommendationBook } from "./recommendation-book.js";
import { popularityPolicies } from "./reference-policies.js";
import { postObservations, recommendationState } from "./run-view.js";
import { POPULARITY_SCORER_VERSION, PopularityScorer } from "./scorer.js";
import { selfLabels } from "./self-feedback.js";

const day = utcDay;

export const POPULARITY_EPISODES: Episode[] = [
  {
    name: "synth-28d",
    sim_start: day("2026-03-01"),
    sim_end: day("2026-03-29"),
    world: { kind: "synth" },
    description:
      "Synthetic Reddit world, 2026-03-01 → 2026-03-28 with 7 revealed days of history; posts of the last day reveal after the window.",
  },
  {
    name: "synth-7d",
    sim_start: day("2026-03-01"),
    sim_end: day("2026-03-08"),
    world: { kind: "synth" },
    description: "Short synthetic run, 2026-03-01 → 2026-03-07, for quick checks.",
  },
];

/** the `self` feedback's description (tasks.md §3) */
const SELF_DESCRIPTION =
  "for each of your recommendations whose post has been revealed, the comment counts visible at reveal " +
  "(at the feedback ages and in total) and whether it reached the threshold.";

/** the oracle payload of a settled post: the outcome's detail with its instants as ISO strings */
function oraclePayload(o: Outcome): Record<string, unknown> {
  const { created_utc, revealed_at, recommended_at, ...rest } = o.detail as Record<string, unknown>;
  const iso = (v: unknown) => (typeof v === "number" ? isoInstant(v) : v);
  return {
    key: o.key,
    status: o.status,
    credit: o.credit,
    ...rest,
    created: iso(created_utc),
    revealed_at: iso(revealed_at),
    recommended_at: iso(recommended_at),
  };
}

export const popularityTask = defineTask<PopularityParams>({
  id: "popularity",
  // 2: `recommendations()` lists the pending recommendations (not every accepted one) and the totals (README)
  version: "2",
  scorer_version: POPULARITY_SCORER_VERSION,
  title: "Popularity prediction",
  axes: { time_sensitivity: "high", reasoning: "medium", recurrence: "recurring" },
  params: PopularityParams,
  episodes: POPULARITY_EPISODES,
  defaultEpisode: "synth-28d",
  budget_usd: 20,
  baseSchedule: "0 * * * *",
  exampleWatcher: popularityExampleWatcher,
  streams: ["reddit_post", "reddit_comment", "reddit_reveal"],
  selfFeedback: { description: SELF_DESCRIPTION },
  open(ctx) {
    const p = ctx.params;
    // per run: the runtime's limiter instances (read by `quota`) and the book of accepted recommendations
    const limiters = redditLimiters({ limit: p.reddit_rate_limit, windowMs: p.reddit_rate_window_ms });
    const book = new RecommendationBook();
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
        ...recommendTools({ view: ctx.view, params: p, sim_start: ctx.sim_start, book }),
      ],
      limiters: () => limiters,
      state: () => recommendationState(book, ctx.view.now(), p),
      observations: (since, now) => postObservations(ctx.view, since, now),
      feedback: {
        oracle: oraclePayload,
        self: (since) => selfLabels(ctx.view, book.accepted, p, since),
      },
    };
  },
  createScorer: (ctx) => new PopularityScorer(ctx),
  referencePolicies: popularityPolicies,
  metrics: {
    primary: "tw_f1",
    direction: "higher",
    secondary: [
      "precision",
      "recall",
      "cov_recall",
      "cov_f1",
      "hits",
      "false_alarms",
      "misses",
      "recommendations_settled",
      "tail_posts",
      "recall_denominator",
      "credit_sum",
      "mean_delay_hours",
      "median_delay_hours",
      "recommendations_rejected",
      "commitments_ignored",
    ],
  },
});
