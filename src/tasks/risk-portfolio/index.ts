import { DAY_MS, utcDay } from "../../common/time.js";
import { defineTask, type Episode } from "../task.js";
import { ViewCloses } from "./daily-closes.js";
import { RiskPortfolioEnv } from "./environment.js";
import { riskPortfolioExampleWatcher } from "./example-watcher.js";
import { renderInstruction } from "./instruction.js";
import { RiskPortfolioParams } from "./params.js";
import { riskPortfolioPolicies } from "./policies.js";
import { bookState, closeObservations } from "./run-view.js";
import { RISK_PORTFOLIO_SCORER_VERSION, RiskPortfolioScorer } from "./scorer.js";
import { riskPortfolioTools } from "./tools.js";

const day = utcDay;

export const RISK_PORTFOLIO_EPISODES: Episode[] = [
  {
    name: "synth-28d",
    sim_start: day("2026-03-01"),
    sim_end: day("2026-03-29"),
    world: { kind: "synth" },
    description:
      "Synthetic daily closes of BTC-USD, ETH-USD, SOL-USD (kraken, last 5-minute candle of each UTC day), " +
      "2026-03-01 → 03-28 (27 books due; the last day's settles after the window).",
  },
  {
    name: "synth-7d",
    sim_start: day("2026-03-01"),
    sim_end: day("2026-03-08"),
    world: { kind: "synth" },
    description: "Short synthetic run, 2026-03-01 → 03-07 (6 books due), for quick checks.",
  },
];

/** every 00:00 UTC in (from, to): each is a close (orders' cut-off) and a book deadline */
export function midnights(from: number, to: number): number[] {
  const out: number[] = [];
  for (let t = Math.floor(from / DAY_MS) * DAY_MS + DAY_MS; t < to; t += DAY_MS) out.push(t);
  return out;
}

export const riskPortfolioTask = defineTask<RiskPortfolioParams>({
  id: "risk-portfolio",
  version: "risk-portfolio/1",
  scorer_version: RISK_PORTFOLIO_SCORER_VERSION,
  title: "Portfolio with full-book grading",
  axes: { time_sensitivity: "medium", reasoning: "high", recurrence: "daily" },
  params: RiskPortfolioParams,
  episodes: RISK_PORTFOLIO_EPISODES,
  defaultEpisode: "synth-28d",
  budget_usd: 20,
  baseSchedule: "5 0 * * *",
  exampleWatcher: riskPortfolioExampleWatcher,
  streams: ["candle"],
  open(ctx) {
    // per run: the market and account (orders, filed books); the tools and the hooks share it
    const env = new RiskPortfolioEnv({
      params: ctx.params,
      view: ctx.view,
      world: ctx.world,
      sim_start: ctx.sim_start,
      sim_end: ctx.sim_end,
    });
    // observations read their own closes cache, so asking never changes what the tools see
    const observed = new ViewCloses(ctx.view, env.universe);
    return {
      instruction: () =>
        renderInstruction({
          params: ctx.params,
          universe: env.universe,
          sim_start: ctx.sim_start,
          sim_end: ctx.sim_end,
          budget_usd: ctx.budget_usd,
        }),
      tools: () => riskPortfolioTools(env),
      // every midnight in [now, until) is a close and a book deadline: a fixed schedule
      deadlines: (view, until) => midnights(view.now() - 1, until),
      state: () => bookState(env),
      observations: (since, now) => closeObservations(observed, since, now),
    };
  },
  createScorer: (ctx) => new RiskPortfolioScorer(ctx),
  referencePolicies: riskPortfolioPolicies,
  metrics: {
    primary: "risk_score",
    direction: "higher",
    secondary: [
      "performance_score",
      "books_gate",
      "books_required",
      "books_reconciled",
      "books_mismatched",
      "books_missing",
      "accounting_errors",
      "refused_orders",
      "final_nav",
      "net_return",
      "volatility_ann",
      "sharpe_ann",
      "psr",
      "max_drawdown",
      "turnover",
      "var_mean",
      "var_days_tested",
      "var_exceedances",
      "kupiec_lr",
      "kupiec_p",
      "kupiec_pass",
      "commission",
      "slippage",
      "borrow",
      "costs_total",
      "pnl_long",
      "pnl_short",
      "return_long",
      "return_short",
      "return_costs",
      "fills",
      "traded_notional",
    ],
  },
});
