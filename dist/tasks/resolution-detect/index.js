import { newsTools } from "../news-tools.js";
import { renderInstruction } from "./instruction.js";
import { markBookOf } from "./mark-book.js";
import { ResolutionDetectParams } from "./params.js";
import { resolutionDetectPolicies } from "./policies.js";
import { RESOLUTION_DETECT_SCORER_VERSION, ResolutionDetectScorer } from "./scorer.js";
import { resolutionTools } from "./tools.js";
const day = (iso) => Date.parse(`${iso}T00:00:00Z`);
const RESOLUTION_DETECT_EPISODES = [
  {
    name: "synth-28d",
    sim_start: day("2026-03-01"),
    sim_end: day("2026-03-29"),
    world: { kind: "synth" },
    description: "Synthetic world, 20 long-dated questions (ld-01..20; 9 decided in the window, 4 added mid-window), 2026-03-01 \u2192 03-28."
  },
  {
    name: "synth-7d",
    sim_start: day("2026-03-01"),
    sim_end: day("2026-03-08"),
    world: { kind: "synth" },
    description: "Short synthetic run, 2026-03-01 \u2192 03-07, for quick checks."
  }
];
const resolutionDetectTask = {
  id: "resolution-detect",
  version: "1",
  scorer_version: RESOLUTION_DETECT_SCORER_VERSION,
  title: "Resolution detection",
  axes: { time_sensitivity: "medium", reasoning: "high", recurrence: "one-off per question" },
  params: ResolutionDetectParams,
  episodes: RESOLUTION_DETECT_EPISODES,
  defaultEpisode: "synth-28d",
  budget_usd: 70,
  baseSchedule: "0 0 * * *",
  streams: ["market", "news"],
  instruction: (ctx) => renderInstruction({
    params: ctx.params,
    sim_start: ctx.sim_start,
    sim_end: ctx.sim_end,
    budget_usd: ctx.budget_usd
  }),
  tools: (ctx) => [
    ...resolutionTools(ctx.view, ctx.params, markBookOf(ctx)),
    ...newsTools(ctx.view, { search_usd: ctx.params.search_usd, article_usd: ctx.params.article_usd })
  ],
  createScorer: (ctx) => new ResolutionDetectScorer(ctx),
  feedback: {
    // own claims with status and credit; misses are not claims (they settle at sim_end anyway)
    oracle: (o) => o.status === "miss" ? null : { key: o.key, status: o.status, credit: o.credit, ...o.detail }
  },
  referencePolicies: resolutionDetectPolicies,
  metrics: {
    primary: "tc_f1",
    direction: "higher",
    secondary: [
      "precision",
      "recall",
      "cov_f1",
      "cov_precision",
      "cov_recall",
      "delay_h_p50",
      "delay_h_p90",
      "questions",
      "winnable",
      "claims",
      "correct",
      "early",
      "wrong",
      "no_determination",
      "miss",
      "claims_unsettled",
      "marks_rejected",
      "commitments_ignored"
    ]
  }
};
export {
  RESOLUTION_DETECT_EPISODES,
  resolutionDetectTask
};
//# sourceMappingURL=index.js.map
