import { HOUR_MS, utcDay } from "../../common/time.js";
import { defineTask } from "../task.js";
import { candleObservations } from "./candle-observations.js";
import { createPriceCheckEnv } from "./environment.js";
import { priceCheckExampleWatcher } from "./example-watcher.js";
import { HourBook } from "./hour-book.js";
import { INCIDENT_TABLE_VERSION } from "./incident-table.js";
import { renderInstruction } from "./instruction.js";
import { PriceCheckParams } from "./params.js";
import { medianPollPolicy, oraclePolicy, silentPolicy } from "./policies.js";
import { PRICE_CHECK_SCORER_VERSION, PriceCheckScorer } from "./scorer.js";
import { priceCheckTools } from "./tools.js";

const day = utcDay;

/** every hour's end (a multiple of 1 h) in [from, to) */
export function hourEnds(from: number, to: number): number[] {
  const out: number[] = [];
  for (let t = Math.ceil(from / HOUR_MS) * HOUR_MS; t < to; t += HOUR_MS) out.push(t);
  return out;
}

export const priceCheckTask = defineTask<PriceCheckParams>({
  id: "price-check",
  version: `price-check/1+${INCIDENT_TABLE_VERSION}`,
  scorer_version: PRICE_CHECK_SCORER_VERSION,
  title: "Market price check",
  axes: { time_sensitivity: "high", reasoning: "low", recurrence: "hourly" },
  params: PriceCheckParams,
  episodes: [
    {
      name: "synth-28d",
      sim_start: day("2026-03-01"),
      sim_end: day("2026-03-29"),
      world: { kind: "synth" },
      description:
        "Synthetic 5-minute candles for BTC-USD, ETH-USD, SOL-USD on kraken, binance and coinbase, 2026-03-01 → 03-28.",
    },
  ],
  defaultEpisode: "synth-28d",
  budget_usd: 20,
  baseSchedule: "0 0 * * *",
  exampleWatcher: priceCheckExampleWatcher,
  streams: ["candle"],
  open(ctx) {
    // per run: the venue replay (incident trace, limits, bans) and the book of this hour's commitments
    const env = createPriceCheckEnv({
      params: ctx.params,
      view: ctx.view,
      world: ctx.world,
      env_seed: ctx.env_seed,
      sim_start: ctx.sim_start,
      sim_end: ctx.sim_end,
    });
    const book = new HourBook();
    return {
      instruction: () =>
        renderInstruction({
          params: ctx.params,
          // as of the run's start: a series that becomes visible later is not named
          setup: env.setupAt(ctx.sim_start),
          budget_usd: ctx.budget_usd,
          sim_start: ctx.sim_start,
          sim_end: ctx.sim_end,
          trigger: ctx.agentClock?.trigger ?? "sleep",
        }),
      tools: () => priceCheckTools(env, book),
      // every hour end is a deadline, known at any time
      deadlines: (view, until) => hourEnds(view.now(), until),
      state: () => book.state(ctx.view.now(), env.setup.symbols),
      observations: (since, now) => candleObservations(ctx.view, env.setup, since, now),
    };
  },
  createScorer: (ctx) => new PriceCheckScorer(ctx),
  referencePolicies: [silentPolicy, oraclePolicy, medianPollPolicy],
  metrics: {
    primary: "price_acc",
    direction: "higher",
    secondary: [
      "price_acc_raw",
      "window_survived",
      "mean_excess_bps",
      "mean_bps_error",
      "abstain_rate",
      "abstain_constraint_met",
      "missed_hours",
      "ok_hours",
      "priced_hours",
      "abstained_hours",
      "symbol_hours",
    ],
  },
});
