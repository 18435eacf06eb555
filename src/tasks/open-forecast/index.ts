import { DAY_MS, isoInstant, nextUtcMidnight, utcDay } from "../../common/time.js";
import type { ToolDef } from "../../tools/tool.js";
import type { AsOfView } from "../../world/as-of-view.js";
import { inTimeOrder, newsObservations } from "../observations.js";
import {
  defineTask,
  type Episode,
  type Observation,
  type StateSection,
  type TaskRunContext,
  tunedParams,
} from "../task.js";
import { ablationView, anchorEntries, frozenNewsCut } from "./ablation-view.js";
import { loadAnchorForecasts } from "./anchor.js";
import { nextDayTool } from "./day-tools.js";
import { openForecastExampleWatcher } from "./example-watcher.js";
import { forecastTools } from "./forecast-tools.js";
import { renderInstruction } from "./instruction.js";
import { newsTools } from "./news-tools.js";
import { questionNewsTool } from "./one-shot-news.js";
import { OpenForecastParams } from "./params.js";
import { openForecastPolicies } from "./policies.js";
import { publicAnswer, QuestionsNow } from "./question-state.js";
import { questionTools } from "./question-tools.js";
import { recapNote } from "./recap.js";
import { newRunState, type OpenForecastRunState } from "./run-state.js";
import { OPEN_FORECAST_SCORER_VERSION, OpenForecastScorer } from "./scorer.js";

const day = utcDay;

/**
 * The synthetic episodes. Real ones (the ForecastBench sets, open at their forecast due date and
 * running through the day after their last resolved row's resolution date) are world recipes
 * (recipes/forecastbench-*.yaml).
 */
export const OPEN_FORECAST_EPISODES: Episode[] = [
  {
    name: "synth-28d",
    sim_start: day("2026-03-01"),
    sim_end: day("2026-03-29"),
    world: { kind: "synth" },
    description: "Synthetic world, 2026-03-01 → 03-28: binary questions from planted events, news unlocked day by day.",
  },
  {
    name: "synth-7d",
    sim_start: day("2026-03-01"),
    sim_end: day("2026-03-08"),
    world: { kind: "synth" },
    description: "Short synthetic run, 2026-03-01 → 03-07, for quick checks.",
  },
];

function hasNews(ctx: TaskRunContext<OpenForecastParams>): boolean {
  return (ctx.world.manifest.streams.news ?? 0) > 0;
}

/** the harness's memory tools are on (`agent.memory_tools`, defaulting to the `memory` parameter: memoryToolsDefault) */
const memoryOn = (ctx: TaskRunContext<OpenForecastParams>) => ctx.memoryTools ?? ctx.params.memory;

function searchMode(ctx: TaskRunContext<OpenForecastParams>): "hybrid" | "bm25" {
  return ctx.params.search_mode === "hybrid" && ctx.world.newsVectors() !== null ? "hybrid" : "bm25";
}

/** endpoint vectors (a static property of the world): the asynchronous, priced query embedder; null otherwise */
function queryEmbedder(ctx: TaskRunContext<OpenForecastParams>) {
  return searchMode(ctx) === "hybrid" ? ctx.world.queryEmbedder() : null;
}

function tools(ctx: TaskRunContext<OpenForecastParams>, state: OpenForecastRunState): ToolDef[] {
  const p = ctx.params;
  const sleepUntil = ctx.agentClock?.sleepUntil ?? null;
  const frozenCut = p.news === "frozen" ? frozenNewsCut(ctx.sim_start) : null;
  return [
    ...questionTools(ctx.view, p, state, () => tunedParams(ctx)),
    ...forecastTools(ctx.view, p, state),
    ...(hasNews(ctx) ? newsTools(ctx.view, p, searchMode(ctx), frozenCut, queryEmbedder(ctx)) : []),
    ...(hasNews(ctx) && p.search === "one-shot"
      ? [questionNewsTool(ctx.view, p, searchMode(ctx), state, queryEmbedder(ctx))]
      : []),
    ...(sleepUntil !== null ? [nextDayTool(sleepUntil, state, memoryOn(ctx) && p.memory_phase)] : []),
  ];
}

/**
 * The ends of the scored days in [from, until) (deadline guard): every 00:00 UTC after sim_start
 * (a fixed calendar, known at any time).
 */
export function dayEnds(simStart: number, from: number, until: number): number[] {
  const out: number[] = [];
  for (let t = nextUtcMidnight(Math.max(from - 1, simStart)); t < until; t += DAY_MS) out.push(t);
  return out;
}

export const openForecastTask = defineTask<OpenForecastParams>({
  id: "open-forecast",
  version: "1",
  scorer_version: OPEN_FORECAST_SCORER_VERSION,
  title: "Open-ended forecasting (FutureSim)",
  axes: { time_sensitivity: "low", reasoning: "high", recurrence: "daily" },
  params: OpenForecastParams,
  episodes: OPEN_FORECAST_EPISODES,
  defaultEpisode: "synth-28d",
  budget_usd: 20,
  baseSchedule: "0 0 * * *",
  exampleWatcher: openForecastExampleWatcher,
  streams: ["question", "question_resolution", "news", "market_price"],
  // FutureSim's harness keeps memory: LLM runs get the harness memory tools unless `memory: false`
  memoryToolsDefault: (p) => p.memory,
  // agent-side knobs the harness may tune mid-run (restart --set, the harness optimizer); never read by the scorer
  tunable: {
    list_page_size: "questions per page of list_questions (1-500; the tool's description keeps the configured size)",
  },
  optionalStreams: ["news", "market_price"],
  open(runCtx) {
    // every agent-facing read goes through the ablation view (news: frozen, ceiling); the run's own otherwise
    const ctx = { ...runCtx, view: ablationView(runCtx.view, runCtx.params, runCtx.sim_start) };
    // accepted forecasts, the memory log and phase, the last recap: shared by the tools and the recap
    const state = newRunState();
    if (ctx.params.anchor_from !== null) injectAnchor(ctx, state);
    return {
      instruction: () =>
        renderInstruction({
          params: ctx.params,
          sim_start: ctx.sim_start,
          sim_end: ctx.sim_end,
          budget_usd: ctx.budget_usd,
          trigger: ctx.agentClock?.trigger ?? "sleep",
          news: hasNews(ctx),
          memory: memoryOn(ctx),
          nextDay: (ctx.agentClock?.sleepUntil ?? null) !== null,
        }),
      tools: () => tools(ctx, state),
      deadlines: (view, until) => dayEnds(ctx.sim_start, view.now(), until),
      wakeNote: (wake) => recapNote(ctx, state, wake),
      state: () => standingForecasts(new QuestionsNow(ctx.view), state),
      observations: (since, now) => observations(ctx.view, since, now),
    };
  },
  createScorer: (ctx) => new OpenForecastScorer(ctx),
  referencePolicies: openForecastPolicies,
  metrics: {
    primary: "tw_score",
    direction: "higher",
    secondary: [
      "mean_score",
      "accuracy",
      "bss_day0",
      "bss_final",
      "questions_scored",
      "questions_forecast",
      "forecasts_accepted",
      "forecasts_ignored",
      "forecasts_rejected",
      "judge_matches",
      "judge_pending",
    ],
  },
});

/**
 * `anchor_from`: the anchor run's day-0 forecasts become the standing forecasts at sim_start of the
 * questions open then (the scorer injects the same ones: `anchorEntries`).
 */
function injectAnchor(ctx: TaskRunContext<OpenForecastParams>, state: OpenForecastRunState): void {
  const ref = ctx.params.anchor_from;
  if (ref === null) return;
  const view = ctx.view.capped(ctx.sim_start);
  const questions = view.questions.list().map((q) => ({ q, publicAt: publicAnswer(view, q.id)?.visible_at ?? null }));
  for (const [id, entries] of anchorEntries(loadAnchorForecasts(ref), questions, ctx.params, ctx.sim_start))
    state.forecasts.set(id, entries);
}

/** The decision-critical state: each open question's standing forecast (the last accepted one), or none yet. */
export function standingForecasts(qn: QuestionsNow, state: OpenForecastRunState): StateSection[] {
  return [
    {
      title: "standing forecasts (open questions)",
      lines: qn.questions
        .filter((q) => qn.status(q) === "open")
        .map((q) => {
          const f = state.forecasts.get(q.id)?.at(-1);
          return f ? `${q.id}: ${JSON.stringify(f.outcomes)} since ${isoInstant(f.at)}` : `${q.id}: no forecast yet`;
        }),
    },
  ];
}

/**
 * What became visible in (since, now]: articles, released questions (at max(open, visible_at): a
 * question is released on its open date) and public answers.
 */
export function observations(view: AsOfView, since: number, until: number): Observation[] {
  // a question's row may be visible before its open date: bound its release by the view's now too
  const now = Math.min(until, view.now());
  const released = view.questions
    .list()
    .map((q) => ({ q, t: Math.max(q.open, q.visible_at) }))
    .filter((x) => x.t > since && x.t <= now)
    .map((x) => ({ t: x.t, kind: "question", id: x.q.id, summary: x.q.title }));
  const answers = view.questions
    .resolutions({ since })
    .filter((r) => r.visible_at <= now)
    .map((r) => ({ t: r.visible_at, kind: "question_resolution", id: r.question, summary: `answer ${r.answer}` }));
  return inTimeOrder(newsObservations(view, since, now), released, answers);
}
