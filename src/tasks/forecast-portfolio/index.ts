import { isoInstant, utcDay } from "../../common/time.js";
import type { AsOfView } from "../../world/as-of-view.js";
import { newsTools } from "../news-tools.js";
import { inTimeOrder, newsObservations, resolutionObservations } from "../observations.js";
import { defineTask, type Episode, type Observation, type Outcome, type StateSection } from "../task.js";
import { forecastPortfolioExampleWatcher } from "./example-watcher.js";
import { ForecastBook, forecastTools } from "./forecast-tools.js";
import { renderInstruction } from "./instruction.js";
import { ForecastPortfolioParams } from "./params.js";
import { AgentQuestions } from "./questions.js";
import { forecastPortfolioPolicies } from "./reference-policies.js";
import { FORECAST_PORTFOLIO_SCORER_VERSION, ForecastPortfolioScorer } from "./scorer.js";

const day = utcDay;

export const FORECAST_PORTFOLIO_EPISODES: Episode[] = [
  {
    name: "synth-28d",
    sim_start: day("2026-03-01"),
    sim_end: day("2026-03-29"),
    world: { kind: "synth" },
    description:
      "Synthetic long-dated markets (20, opaque ids `ld-<hex>`; 4 open mid-window), 2026-03-01 → 03-28: 7 event and 2 deadline questions resolve inside.",
  },
  {
    name: "synth-7d",
    sim_start: day("2026-03-01"),
    sim_end: day("2026-03-08"),
    world: { kind: "synth" },
    description: "Short synthetic run, 2026-03-01 → 2026-03-07, for quick checks.",
  },
];

export const forecastPortfolioTask = defineTask<ForecastPortfolioParams>({
  id: "forecast-portfolio",
  version: "1",
  scorer_version: FORECAST_PORTFOLIO_SCORER_VERSION,
  title: "Forecast portfolio",
  axes: { time_sensitivity: "low", reasoning: "high", recurrence: "standing" },
  params: ForecastPortfolioParams,
  episodes: FORECAST_PORTFOLIO_EPISODES,
  defaultEpisode: "synth-28d",
  budget_usd: 70,
  baseSchedule: "0 0 * * *",
  exampleWatcher: forecastPortfolioExampleWatcher,
  streams: ["market", "market_resolution", "news"],
  // a markets-only world (e.g. an imported Polymarket dump) is playable: forecasts from the question
  // text and its schedule; search_news then finds nothing (README "real episodes")
  optionalStreams: ["news"],
  open(ctx) {
    const p = ctx.params;
    // the run's accepted forecasts, shared by the tools and the state block
    const book = new ForecastBook();
    const questions = new AgentQuestions(ctx.view, p.market_prefix);
    return {
      instruction: () =>
        renderInstruction({ params: p, sim_start: ctx.sim_start, sim_end: ctx.sim_end, budget_usd: ctx.budget_usd }),
      tools: () => [
        ...forecastTools({ view: ctx.view, params: p, book }),
        ...newsTools(ctx.view, { search_usd: p.search_usd, article_usd: p.article_usd }),
      ],
      feedback: { oracle: oraclePayload },
      state: () => standingForecasts(questions, book),
      observations: (since, now) => observations(ctx.view, questions, since, now),
    };
  },
  createScorer: (ctx) => new ForecastPortfolioScorer(ctx),
  referencePolicies: forecastPortfolioPolicies,
  metrics: {
    primary: "bss",
    direction: "higher",
    secondary: [
      "ta_bss",
      "final_bss",
      "final_ta_bss",
      "anchor_uniform_bss",
      "anchor_market_bss",
      "anchor_market_ta_bss",
      "base_rate",
      "bs_ref",
      "questions_scored",
      "questions_forecast",
      "coverage",
      "forecasts_accepted",
      "forecasts_rejected",
      "commitments_ignored",
    ],
  },
});

/** The oracle payload: the outcome with its instants in ISO-8601. */
function oraclePayload(o: Outcome): Record<string, unknown> {
  const d = o.detail as Record<string, unknown>;
  const iso = (k: string) => (typeof d[k] === "number" ? isoInstant(d[k] as number) : d[k]);
  return { key: o.key, status: o.status, credit: o.credit, ...d, activation: iso("activation"), t_res: iso("t_res") };
}

/** The decision-critical state: each open question's standing forecast (the uniform default until the first). */
export function standingForecasts(questions: AgentQuestions, book: ForecastBook): StateSection[] {
  return [
    {
      title: "standing forecasts (open questions)",
      lines: questions
        .list()
        .filter((q) => q.status === "open")
        .map((q) => {
          const f = book.standing(q.market.id);
          return f
            ? `${q.market.id}: ${JSON.stringify(f.forecast)} since ${isoInstant(f.t)}`
            : `${q.market.id}: uniform default (no forecast yet)`;
        }),
    },
  ];
}

/**
 * What became visible in (since, now]: articles, questions (at their availability, max(open,
 * visible_at)) and the task markets' resolutions.
 */
export function observations(view: AsOfView, questions: AgentQuestions, since: number, now: number): Observation[] {
  const added = questions
    .list()
    .filter((q) => q.available_at > since && q.available_at <= now)
    .map((q) => ({ t: q.available_at, kind: "question", id: q.market.id, summary: q.market.question }));
  const ids = new Set(questions.list().map((q) => q.market.id));
  return inTimeOrder(
    newsObservations(view, since, now),
    added,
    resolutionObservations(view, since, now, (id) => ids.has(id)),
  );
}
