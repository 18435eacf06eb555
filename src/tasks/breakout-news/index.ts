import { isoInstant, MINUTE_MS, utcDay } from "../../common/time.js";
import type { AsOfView } from "../../world/as-of-view.js";
import { newsTools } from "../news-tools.js";
import { inTimeOrder, marketObservations, newsObservations } from "../observations.js";
import { defineTask, type Episode, type Observation, type StateSection } from "../task.js";
import { ClaimBook } from "./claim-book.js";
import { breakoutNewsExampleWatcher } from "./example-watcher.js";
import { renderInstruction } from "./instruction.js";
import { isMonitored } from "./markets.js";
import { BreakoutNewsParams, windowMs } from "./params.js";
import { breakoutNewsPolicies } from "./policies.js";
import { breakoutActors, monitoredMarketIds } from "./program.js";
import { BREAKOUT_NEWS_SCORER_VERSION, BreakoutNewsScorer } from "./scorer.js";
import { selfLabels } from "./self-labels.js";
import { breakoutTools } from "./tools.js";

const day = utcDay;

export const BREAKOUT_NEWS_EPISODES: Episode[] = [
  {
    name: "synth-28d",
    sim_start: day("2026-03-01"),
    sim_end: day("2026-03-29"),
    world: { kind: "synth" },
    description:
      "Synthetic world, 8 breakout markets (opaque ids `brk-<hex>`) with planted breakpoints and catalysts, 2026-03-01 → 03-28.",
  },
  {
    name: "synth-7d",
    sim_start: day("2026-03-01"),
    sim_end: day("2026-03-08"),
    world: { kind: "synth" },
    description: "Short synthetic run, 2026-03-01 → 03-07, for quick checks.",
  },
];

export const breakoutNewsTask = defineTask<BreakoutNewsParams>({
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
  exampleWatcher: breakoutNewsExampleWatcher,
  streams: ["market", "market_price", "news"],
  multiActor: true,
  selfFeedback: {
    description:
      "each of your claims checked against prices visible now: `confirmed` once a durable move in the claimed " +
      "direction started within the claim's window (the first outcome's price at least self_move_threshold away " +
      "from its level at the claim and staying there for self_hold_minutes), `not_confirmed` once the window and " +
      "hold have passed without one; each with the instant it became decidable (`decided_at`).",
  },
  open(ctx) {
    const p = ctx.params;
    // the notify tool's claim book: one per run, shared by every actor and by the self labels
    const claims = new ClaimBook(windowMs(p));
    return {
      instruction: () =>
        renderInstruction({ params: p, sim_start: ctx.sim_start, sim_end: ctx.sim_end, budget_usd: ctx.budget_usd }),
      tools: () => [
        ...breakoutTools({ view: ctx.view, params: p, claims }),
        ...newsTools(ctx.view, { search_usd: p.search_usd, article_usd: p.article_usd }),
      ],
      program: () => breakoutActors(ctx),
      feedback: { self: (since) => selfLabels(ctx.view, claims.all(), p, since) },
      state: () => pendingClaims(claims, ctx.view.now(), monitoredMarketIds(ctx.view, p)),
      observations: (since, now) => observations(ctx.view, p, since, now),
    };
  },
  createScorer: (ctx) => new BreakoutNewsScorer(ctx),
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
      "<market>.cov_recall",
    ],
  },
});

/**
 * The decision-critical state: per monitored market visible now, the claim pending on it (the
 * notify tool refuses a second one until it expires) or "none".
 */
export function pendingClaims(claims: ClaimBook, now: number, markets: readonly string[]): StateSection[] {
  return [
    {
      title: "pending claims",
      open: markets.filter((m) => claims.pending(m, now) !== null).length,
      lines: markets.map((m) => {
        const c = claims.pending(m, now);
        return c
          ? `${m}: ${c.direction}, citing ${c.news_id}, claimed ${isoInstant(c.t)}, pending until ${isoInstant(c.t + claims.windowMs)}`
          : `${m}: none`;
      }),
    },
  ];
}

/**
 * What became visible in (since, now]: articles (title), monitored markets, and first-outcome price
 * changes of monitored markets. A price at t is visible at t + price_delay_minutes (the world's
 * delay, the task parameter), so the points visible in (since, now] are read from t ≥ since − delay.
 */
export function observations(view: AsOfView, p: BreakoutNewsParams, since: number, now: number): Observation[] {
  const markets = view.markets.list().filter((m) => isMonitored(m.id, p));
  const delay = p.price_delay_minutes * MINUTE_MS;
  const prices: Observation[] = [];
  for (const m of markets) {
    const first = m.outcomes[0];
    if (first === undefined) continue;
    for (const x of view.markets.prices(m.id, since - delay, now))
      if (x.outcome === first && x.visible_at > since && x.visible_at <= now)
        prices.push({
          t: x.visible_at,
          kind: "market_price",
          id: m.id,
          summary: `${first} ${x.p} at ${isoInstant(x.t)}`,
        });
  }
  return inTimeOrder(
    newsObservations(view, since, now),
    marketObservations(view, since, now, (id) => isMonitored(id, p)),
    prices,
  );
}
