import { isoInstant, utcDay } from "../../common/time.js";
import { newsTools } from "../news-tools.js";
import { inTimeOrder, marketObservations, newsObservations } from "../observations.js";
import { defineTask, type Episode, type StateSection } from "../task.js";
import { resolutionDetectExampleWatcher } from "./example-watcher.js";
import { renderInstruction } from "./instruction.js";
import { MarkBook } from "./mark-book.js";
import { isQuestion, ResolutionDetectParams } from "./params.js";
import { resolutionDetectPolicies } from "./policies.js";
import { RESOLUTION_DETECT_SCORER_VERSION, ResolutionDetectScorer } from "./scorer.js";
import { resolutionTools } from "./tools.js";

const day = utcDay;

export const RESOLUTION_DETECT_EPISODES: Episode[] = [
  {
    name: "synth-28d",
    sim_start: day("2026-03-01"),
    sim_end: day("2026-03-29"),
    world: { kind: "synth" },
    description:
      "Synthetic world, 20 long-dated questions (opaque ids `ld-<hex>`; 9 decided in the window, 4 added mid-window), 2026-03-01 → 03-28.",
  },
  {
    name: "synth-7d",
    sim_start: day("2026-03-01"),
    sim_end: day("2026-03-08"),
    world: { kind: "synth" },
    description: "Short synthetic run, 2026-03-01 → 03-07, for quick checks.",
  },
];

export const resolutionDetectTask = defineTask<ResolutionDetectParams>({
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
  exampleWatcher: resolutionDetectExampleWatcher,
  streams: ["market", "news"],
  open(ctx) {
    const p = ctx.params;
    // the run's accepted marks: one per question, ever, shared by every actor
    const marks = new MarkBook();
    return {
      instruction: () =>
        renderInstruction({ params: p, sim_start: ctx.sim_start, sim_end: ctx.sim_end, budget_usd: ctx.budget_usd }),
      tools: () => [
        ...resolutionTools(ctx.view, p, marks),
        ...newsTools(ctx.view, { search_usd: p.search_usd, article_usd: p.article_usd }),
      ],
      feedback: {
        // own claims with status and credit; misses are not claims (they settle at sim_end anyway)
        oracle: (o) => (o.status === "miss" ? null : { key: o.key, status: o.status, credit: o.credit, ...o.detail }),
      },
      state: () => marksState(marks),
      observations: (since, now) =>
        inTimeOrder(
          newsObservations(ctx.view, since, now),
          marketObservations(ctx.view, since, now, (id) => isQuestion(id, p)),
        ),
    };
  },
  createScorer: (ctx) => new ResolutionDetectScorer(ctx),
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
      "commitments_ignored",
    ],
  },
});

/** The decision-critical state: the marks already made (one per question, ever: those rights are used). */
export function marksState(marks: MarkBook): StateSection[] {
  return [
    {
      title: "marks made (final: one per question)",
      open: 0,
      lines: marks
        .all()
        .map(
          (m) =>
            `${m.question}: ${m.outcome}${m.news_id !== null ? `, citing ${m.news_id}` : ""}, marked ${isoInstant(m.t)}`,
        ),
    },
  ];
}
