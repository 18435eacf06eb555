import { isoInstant } from "../../kernel/day.js";
import { REDDIT_LIMITER, redditDataTools, redditLimiters } from "../reddit-tools.js";
import { renderInstruction } from "./instruction.js";
import { PopularityParams } from "./params.js";
import { RecommendationBook, recommendTools } from "./recommend-tools.js";
import { popularityPolicies } from "./reference-policies.js";
import { POPULARITY_SCORER_VERSION, PopularityScorer } from "./scorer.js";
import { selfLabels } from "./self-feedback.js";
const day = (iso) => Date.parse(`${iso}T00:00:00Z`);
const POPULARITY_EPISODES = [
  {
    name: "synth-28d",
    sim_start: day("2026-03-01"),
    sim_end: day("2026-03-29"),
    world: { kind: "synth" },
    description: "Synthetic Reddit world, 2026-03-01 \u2192 2026-03-28 with 7 revealed days of history; posts of the last day reveal after the window."
  },
  {
    name: "synth-7d",
    sim_start: day("2026-03-01"),
    sim_end: day("2026-03-08"),
    world: { kind: "synth" },
    description: "Short synthetic run, 2026-03-01 \u2192 2026-03-07, for quick checks."
  }
];
const stateByRun = /* @__PURE__ */ new WeakMap();
function runState(ctx) {
  let s = stateByRun.get(ctx);
  if (!s) {
    s = {
      limiters: redditLimiters({ limit: ctx.params.reddit_rate_limit, windowMs: ctx.params.reddit_rate_window_ms }),
      book: new RecommendationBook()
    };
    stateByRun.set(ctx, s);
  }
  return s;
}
const popularityTask = {
  id: "popularity",
  version: "1",
  scorer_version: POPULARITY_SCORER_VERSION,
  title: "Popularity prediction",
  axes: { time_sensitivity: "high", reasoning: "medium", recurrence: "recurring" },
  params: PopularityParams,
  episodes: POPULARITY_EPISODES,
  defaultEpisode: "synth-28d",
  budget_usd: 20,
  baseSchedule: "0 * * * *",
  streams: ["reddit_post", "reddit_comment", "reddit_reveal"],
  instruction: (ctx) => renderInstruction({
    params: ctx.params,
    sim_start: ctx.sim_start,
    sim_end: ctx.sim_end,
    budget_usd: ctx.budget_usd
  }),
  tools: (ctx) => {
    const s = runState(ctx);
    return [
      ...redditDataTools({
        view: ctx.view,
        callUsd: ctx.params.reddit_call_usd,
        limiter: s.limiters[REDDIT_LIMITER],
        rate: { limit: ctx.params.reddit_rate_limit, windowMs: ctx.params.reddit_rate_window_ms }
      }),
      ...recommendTools({ view: ctx.view, params: ctx.params, sim_start: ctx.sim_start, book: s.book })
    ];
  },
  limiters: (ctx) => runState(ctx).limiters,
  createScorer: (ctx) => new PopularityScorer(ctx),
  feedback: {
    oracle: (o) => {
      const { created_utc, revealed_at, recommended_at, ...rest } = o.detail;
      const iso = (v) => typeof v === "number" ? isoInstant(v) : v;
      return {
        key: o.key,
        status: o.status,
        credit: o.credit,
        ...rest,
        created: iso(created_utc),
        revealed_at: iso(revealed_at),
        recommended_at: iso(recommended_at)
      };
    },
    self: {
      description: "for each of your recommendations whose post has been revealed, the comment counts visible at reveal (at the feedback ages and in total) and whether it reached the threshold.",
      labels: (ctx, since) => selfLabels(ctx.view, runState(ctx).book.accepted, ctx.params, since)
    }
  },
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
      "commitments_ignored"
    ]
  }
};
export {
  POPULARITY_EPISODES,
  popularityTask
};
//# sourceMappingURL=index.js.map
