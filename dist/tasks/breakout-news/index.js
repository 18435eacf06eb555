import { newsTools } from "../news-tools.js";
import { renderInstruction } from "./instruction.js";
import { BreakoutNewsParams } from "./params.js";
import { breakoutNewsPolicies } from "./policies.js";
import { breakoutActors } from "./program.js";
import { claimBookOf } from "./run-state.js";
import { BREAKOUT_NEWS_SCORER_VERSION, BreakoutNewsScorer } from "./scorer.js";
import { selfLabels } from "./self-labels.js";
import { breakoutTools } from "./tools.js";
const day = (iso) => Date.parse(`${iso}T00:00:00Z`);
const BREAKOUT_NEWS_EPISODES = [
  {
    name: "synth-28d",
    sim_start: day("2026-03-01"),
    sim_end: day("2026-03-29"),
    world: { kind: "synth" },
    description: "Synthetic world, 8 breakout markets (brk-01..08) with planted breakpoints and catalysts, 2026-03-01 \u2192 03-28."
  },
  {
    name: "synth-7d",
    sim_start: day("2026-03-01"),
    sim_end: day("2026-03-08"),
    world: { kind: "synth" },
    description: "Short synthetic run, 2026-03-01 \u2192 03-07, for quick checks."
  }
];
const breakoutNewsTask = {
  id: "breakout-news",
  version: "1",
  scorer_version: BREAKOUT_NEWS_SCORER_VERSION,
  title: "Breakout news detection",
  axes: { time_sensitivity: "high", reasoning: "high", recurrence: "recurring" },
  params: BreakoutNewsParams,
  episodes: BREAKOUT_NEWS_EPISODES,
  defaultEpisode: "synth-28d",
  budget_usd: 70,
  baseSchedule: "5 */6 * * *",
  streams: ["market", "market_price", "news"],
  instruction: (ctx) => renderInstruction({
    params: ctx.params,
    sim_start: ctx.sim_start,
    sim_end: ctx.sim_end,
    budget_usd: ctx.budget_usd
  }),
  tools: (ctx) => [
    ...breakoutTools({ view: ctx.view, params: ctx.params, claims: claimBookOf(ctx) }),
    ...newsTools(ctx.view, { search_usd: ctx.params.search_usd, article_usd: ctx.params.article_usd })
  ],
  createScorer: (ctx) => new BreakoutNewsScorer(ctx),
  program: (ctx) => breakoutActors(ctx),
  feedback: {
    self: {
      description: "each of your claims checked against prices visible now: `confirmed` once a durable move in the claimed direction started within the claim's window (the first outcome's price at least self_move_threshold away from its level at the claim and staying there for self_hold_minutes), `not_confirmed` once the window and hold have passed without one; each with the instant it became decidable (`decided_at`).",
      labels: (ctx, since) => selfLabels(ctx.view, claimBookOf(ctx).all(), ctx.params, since)
    }
  },
  referencePolicies: breakoutNewsPolicies,
  metrics: {
    primary: "cov_f1",
    direction: "higher",
    secondary: [
      "tc_f1",
      "precision",
      "cov_recall",
      "tc_recall",
      "direction_acc",
      "lead_h_p50",
      "lead_h_p90",
      "news_delay_h_p50",
      "news_delay_h_p90",
      "breakpoints",
      "winnable",
      "covered_news",
      "covered_timing",
      "miss",
      "claims",
      "stale",
      "wrong_direction",
      "wrong_direction_excused",
      "false_alarm",
      "claims_unsettled",
      "notify_rejected",
      "commitments_ignored",
      "<market>.cov_f1",
      "<market>.tc_f1",
      "<market>.precision",
      "<market>.cov_recall"
    ]
  }
};
export {
  BREAKOUT_NEWS_EPISODES,
  breakoutNewsTask
};
//# sourceMappingURL=index.js.map
