import { isoInstant } from "../../kernel/day.js";
import { newsTools } from "../news-tools.js";
import { ForecastBook, forecastTools } from "./forecast-tools.js";
import { renderInstruction } from "./instruction.js";
import { ForecastPortfolioParams } from "./params.js";
import { forecastPortfolioPolicies } from "./reference-policies.js";
import { FORECAST_PORTFOLIO_SCORER_VERSION, ForecastPortfolioScorer } from "./scorer.js";
const day = (iso) => Date.parse(`${iso}T00:00:00Z`);
const FORECAST_PORTFOLIO_EPISODES = [
  {
    name: "synth-28d",
    sim_start: day("2026-03-01"),
    sim_end: day("2026-03-29"),
    world: { kind: "synth" },
    description: "Synthetic long-dated markets ld-01..20 (ld-15..18 open mid-window), 2026-03-01 \u2192 03-28: 7 event and 2 deadline questions resolve inside."
  },
  {
    name: "synth-7d",
    sim_start: day("2026-03-01"),
    sim_end: day("2026-03-08"),
    world: { kind: "synth" },
    description: "Short synthetic run, 2026-03-01 \u2192 2026-03-07, for quick checks."
  }
];
const bookByRun = /* @__PURE__ */ new WeakMap();
function runBook(ctx) {
  let b = bookByRun.get(ctx);
  if (!b) {
    b = new ForecastBook();
    bookByRun.set(ctx, b);
  }
  return b;
}
const forecastPortfolioTask = {
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
  streams: ["market", "market_resolution", "news"],
  instruction: (ctx) => renderInstruction({
    params: ctx.params,
    sim_start: ctx.sim_start,
    sim_end: ctx.sim_end,
    budget_usd: ctx.budget_usd
  }),
  tools: (ctx) => [
    ...forecastTools({ view: ctx.view, params: ctx.params, book: runBook(ctx) }),
    ...newsTools(ctx.view, { search_usd: ctx.params.search_usd, article_usd: ctx.params.article_usd })
  ],
  createScorer: (ctx) => new ForecastPortfolioScorer(ctx),
  feedback: {
    oracle: (o) => {
      const d = o.detail;
      const iso = (k) => typeof d[k] === "number" ? isoInstant(d[k]) : d[k];
      return {
        key: o.key,
        status: o.status,
        credit: o.credit,
        ...d,
        activation: iso("activation"),
        t_res: iso("t_res")
      };
    }
  },
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
      "commitments_ignored"
    ]
  }
};
export {
  FORECAST_PORTFOLIO_EPISODES,
  forecastPortfolioTask
};
//# sourceMappingURL=index.js.map
