import { utcDay } from "../../common/time.js";
import { defineTask, type Episode } from "../task.js";
import { dutiesDueFrom, visibleDuties } from "./duties.js";
import { createBrokerOpsEnv } from "./environment.js";
import { brokerOpsExampleWatcher } from "./example-watcher.js";
import { renderInstruction } from "./instruction.js";
import { BrokerOpsParams } from "./params.js";
import { brokerOpsPolicies } from "./policies.js";
import { deskObservations, openDutyState } from "./run-view.js";
import { BROKER_OPS_SCORER_VERSION, BrokerOpsScorer } from "./scorer.js";

const day = utcDay;

export const BROKER_OPS_EPISODES: Episode[] = [
  {
    name: "synth-14d",
    sim_start: day("2026-03-01"),
    sim_end: day("2026-03-15"),
    world: { kind: "synth" },
    description:
      "Synthetic PM book on coinbase BTC/ETH 5-minute candles, 2026-03-01 → 03-14: fills every day, margin calls from day 4.",
  },
  {
    name: "synth-5d",
    sim_start: day("2026-03-01"),
    sim_end: day("2026-03-06"),
    world: { kind: "synth" },
    description:
      "Short synthetic run, 2026-03-01 → 03-05 (fills from day 1, the first margin calls on day 4), for quick checks.",
  },
];

export const brokerOpsTask = defineTask<BrokerOpsParams>({
  id: "broker-ops",
  version: "broker-ops/1",
  scorer_version: BROKER_OPS_SCORER_VERSION,
  title: "Web broker operations (browser task)",
  axes: { time_sensitivity: "high (deadline)", reasoning: "low", recurrence: "event" },
  params: BrokerOpsParams,
  episodes: BROKER_OPS_EPISODES,
  defaultEpisode: "synth-14d",
  budget_usd: 20,
  baseSchedule: "0 */2 * * *",
  exampleWatcher: brokerOpsExampleWatcher,
  streams: ["broker_event", "candle"],
  // a duty is known from its fill or margin call, one duty window before its deadline
  deadlineLead: (p) =>
    p.stop_window_ms <= p.funding_window_ms
      ? { ms: p.stop_window_ms, param: "stop_window_ms" }
      : { ms: p.funding_window_ms, param: "funding_window_ms" },
  open(ctx) {
    // per run: the book view, the sign-in desk, the site's records and outbox, the browser session
    const env = createBrokerOpsEnv(ctx);
    const p = ctx.params;
    return {
      instruction: () =>
        renderInstruction({
          params: p,
          sim_start: ctx.sim_start,
          sim_end: ctx.sim_end,
          budget_usd: ctx.budget_usd,
        }),
      tools: () => env.tools,
      // duties of the fills and margin calls visible at the view's time (never a future one)
      // (the run's own view reads the incremental book; any other view is rebuilt from scratch)
      deadlines: (view, until) =>
        (view === ctx.view
          ? dutiesDueFrom(env.book.log, p, ctx.sim_start, ctx.sim_end, view.now())
          : visibleDuties(view, p, ctx.sim_start, ctx.sim_end)
        )
          .map((d) => d.deadline)
          .filter((t) => t >= view.now() && t < until),
      state: () => {
        const now = ctx.view.now();
        return openDutyState(dutiesDueFrom(env.book.log, p, ctx.sim_start, ctx.sim_end, now), env.records, now);
      },
      observations: (since, now) => deskObservations(env.book.log, env.outbox, p.mailbox, since, now, ctx.view.now()),
      dispose: () => env.dispose(),
    };
  },
  createScorer: (ctx) => new BrokerOpsScorer(ctx),
  referencePolicies: brokerOpsPolicies,
  metrics: {
    primary: "routine_score",
    direction: "higher",
    secondary: [
      "stop_score",
      "funding_score",
      "duties",
      "duties_met",
      "duties_wrong",
      "duties_missed",
      "stop_duties",
      "funding_duties",
      "median_latency_min",
      "stops_submitted",
      "funding_submitted",
    ],
  },
});
