import { Optimizer, type ProposerOptions } from "../learning/optimizer.js";
import type { LedgerEvent } from "../ledger/events.js";
import type { TaskRun } from "../tasks/task.js";
import { dayStart, episodeDays } from "./checkpoint.js";
import type { ResolvedRun } from "./resolve-run.js";
import type { RunSetup } from "./run-setup.js";

/** The span boundaries of an optimizer run: sim_start, the start of every (1 + k·span_days)-th day inside the episode, sim_end. */
export function spanBounds(sim_start: number, sim_end: number, spanDays: number): number[] {
  const out = [sim_start];
  const days = episodeDays(sim_start, sim_end);
  for (let d = 1 + spanDays; d <= days; d += spanDays) {
    const t = dayStart(sim_start, d);
    if (t > sim_start && t < sim_end) out.push(t);
  }
  out.push(sim_end);
  return out;
}

/**
 * A span's settled score: a fresh scorer of the task over [from, to) fed the run's ledger events of
 * that window (outcomes excluded: it settles its own), settled at `to`, its primary metric. Units
 * settling after `to` are not scorable there, so only what is settled by the cut counts. The
 * scorer gets the configured params, never tuned ones.
 */
export function spanScoreOf(
  r: ResolvedRun,
  s: RunSetup,
  events: readonly LedgerEvent[],
): (from: number, to: number) => number | null {
  return (from, to) => {
    const scorer = r.task.createScorer({
      sim_start: from,
      sim_end: to,
      world: s.world,
      truth: s.truth,
      params: r.params,
    });
    for (const e of events) {
      if (e.t < from || e.t >= to || e.type === "outcome") continue;
      scorer.settle(e.t);
      scorer.onEvent(e);
    }
    scorer.settle(to);
    return scorer.report().primary.value;
  };
}

/** Installs the harness optimizer (`agent.learning: {method: optimizer}`): its cuts as kernel callbacks at the span starts. */
export function installOptimizer(
  r: ResolvedRun,
  s: RunSetup,
  run: TaskRun,
  proposer: (() => ProposerOptions) | null,
): Optimizer | null {
  const o = r.learning.optimizer;
  if (o === null) return null;
  const bounds = spanBounds(r.sim_start, r.sim_end, o.span_days);
  // the trajectory and span scores read the run's events: an optimizer run keeps them (the runner streams)
  const events: LedgerEvent[] = [];
  const optimizer = new Optimizer({
    control: o.control,
    rule: o.promotion,
    direction: r.task.metrics.direction,
    maxAsks: o.max_asks,
    bounds,
    harness: s.harness,
    events,
    run,
    ctx: s.ctx,
    spanScore: spanScoreOf(r, s, events),
    ledger: s.ledger,
    instruction: run.instruction(),
    proposer: o.control ? null : proposer,
  });
  s.ledger.subscribe((e) => {
    events.push(e);
    optimizer.observe(e);
  });
  for (const cut of bounds.slice(1, -1)) s.kernel.at(cut, (t) => optimizer.cut(t));
  return optimizer;
}
