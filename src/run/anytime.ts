import { DAY_MS } from "../kernel/day.js";
import type { LedgerEvent } from "../ledger/events.js";
import type { TruthStore } from "../world/truth-store.js";
import type { WorldStore } from "../world/world-store.js";
import type { ResolvedRun } from "./resolve-run.js";

export interface AnytimePoint {
  day: number;
  t: string;
  primary: number | null;
}

/**
 * The anytime curve: at the end of each simulated day D, the primary metric recomputed by a fresh
 * scorer over the window [sim_start, D) from the ledger prefix before D. Derived from the ledger
 * alone, like every score.
 */
export function anytimeCurve(
  r: ResolvedRun,
  events: readonly LedgerEvent[],
  world: WorldStore,
  truth: TruthStore,
): AnytimePoint[] {
  const points: AnytimePoint[] = [];
  const inputs = events.filter((e) => e.type !== "outcome");
  for (let end = r.sim_start + DAY_MS, day = 1; end <= r.sim_end; end += DAY_MS, day++) {
    const scorer = r.task.createScorer({ sim_start: r.sim_start, sim_end: end, world, truth, params: r.params });
    for (const e of inputs) {
      if (e.t >= end) break;
      scorer.settle(e.t);
      scorer.onEvent(e);
    }
    scorer.settle(end);
    points.push({ day, t: new Date(end).toISOString(), primary: scorer.report().primary.value });
  }
  return points;
}
