import { DAY_MS } from "../common/time.js";
import type { LedgerEvent } from "../ledger/events.js";
import type { ScoreReport, Scorer, ScorerContext } from "../tasks/task.js";
import type { TruthStore } from "../world/truth-store.js";
import type { WorldStore } from "../world/world-store.js";
import type { ResolvedRun } from "./resolve-run.js";

export interface AnytimePoint {
  day: number;
  t: string;
  primary: number | null;
}

/** The part of a resolved run the daily reports need. */
export type AnytimeRun = Pick<ResolvedRun, "sim_start" | "sim_end" | "params"> & {
  task: Pick<ResolvedRun["task"], "createScorer">;
};

/** the end instants of the simulated days: sim_start + 1 day, + 2 days, ... ≤ sim_end */
function dayEnds(r: AnytimeRun): number[] {
  const ends: number[] = [];
  for (let end = r.sim_start + DAY_MS; end <= r.sim_end; end += DAY_MS) ends.push(end);
  return ends;
}

/**
 * Reference path: at the end of each simulated day D, a fresh scorer over the window
 * [sim_start, D) replays the ledger prefix before D. Quadratic in the episode length; used for
 * scorers without `reportAt` (task modules from outside) and by tests as the definition.
 */
export function dailyReportsByReplay(
  r: AnytimeRun,
  events: readonly LedgerEvent[],
  world: WorldStore,
  truth: TruthStore,
): ScoreReport[] {
  const inputs = events.filter((e) => e.type !== "outcome");
  return dayEnds(r).map((end) => {
    const scorer = r.task.createScorer({ sim_start: r.sim_start, sim_end: end, world, truth, params: r.params });
    for (const e of inputs) {
      if (e.t >= end) break;
      scorer.settle(e.t);
      scorer.onEvent(e);
    }
    scorer.settle(end);
    return scorer.report();
  });
}

/**
 * One-pass path: one scorer over the whole window is fed the ledger once; at each day end D it is
 * settled to D and asked `reportAt(D)`, which by contract equals the replay's report for D.
 * null when the task's scorer has no `reportAt`.
 */
export function dailyReportsOnePass(
  r: AnytimeRun,
  events: readonly LedgerEvent[],
  world: WorldStore,
  truth: TruthStore,
): ScoreReport[] | null {
  const ctx: ScorerContext = { sim_start: r.sim_start, sim_end: r.sim_end, world, truth, params: r.params };
  const scorer = r.task.createScorer(ctx);
  if (!scorer.reportAt) return null;
  const reports: ScoreReport[] = [];
  let i = 0;
  for (const end of dayEnds(r)) {
    for (; i < events.length; i++) {
      const e = events[i] as LedgerEvent;
      if (e.t >= end) break;
      if (e.type === "outcome") continue;
      scorer.settle(e.t);
      scorer.onEvent(e);
    }
    scorer.settle(end);
    reports.push(scorer.reportAt(end));
  }
  return reports;
}

/**
 * The anytime curve: at the end of each simulated day D, the primary metric a fresh scorer over the
 * window [sim_start, D) gives from the ledger prefix before D. Derived from the ledger alone, like
 * every score: in one pass when the scorer implements `reportAt`, by per-day replay otherwise.
 */
export function anytimeCurve(
  r: AnytimeRun,
  events: readonly LedgerEvent[],
  world: WorldStore,
  truth: TruthStore,
): AnytimePoint[] {
  return pointsOf(
    r.sim_start,
    dailyReportsOnePass(r, events, world, truth) ?? dailyReportsByReplay(r, events, world, truth),
  );
}

/**
 * The anytime curve fed while the ledger is written (the runner) or read (rescore): the one-pass
 * path event by event, so no event is held. A day end D closes (settle(D), reportAt(D)) when the
 * first event at or after D arrives or when the curve is asked for, exactly where
 * `dailyReportsOnePass` closes it. A scorer without `reportAt` (a task module from outside) keeps
 * the non-outcome events for the per-day replay: that path is quadratic and holds the ledger anyway.
 */
export class AnytimeStream {
  private readonly scorer: Scorer;
  private readonly reports: ScoreReport[] = [];
  private nextEnd: number;
  /** only for scorers without `reportAt` */
  private readonly held: LedgerEvent[] | null;

  constructor(
    private readonly r: AnytimeRun,
    private readonly world: WorldStore,
    private readonly truth: TruthStore,
  ) {
    this.scorer = r.task.createScorer({ sim_start: r.sim_start, sim_end: r.sim_end, world, truth, params: r.params });
    this.held = this.scorer.reportAt ? null : [];
    this.nextEnd = r.sim_start + DAY_MS;
  }

  private closeThrough(t: number, last: number): void {
    const reportAt = this.scorer.reportAt;
    if (!reportAt) return;
    for (; this.nextEnd <= t && this.nextEnd <= last; this.nextEnd += DAY_MS) {
      this.scorer.settle(this.nextEnd);
      this.reports.push(reportAt.call(this.scorer, this.nextEnd));
    }
  }

  /** the next ledger event, in ledger order */
  observe(e: LedgerEvent): void {
    if (this.held) {
      if (e.type !== "outcome") this.held.push(e);
      return;
    }
    this.closeThrough(e.t, this.r.sim_end);
    if (e.type === "outcome") return;
    this.scorer.settle(e.t);
    this.scorer.onEvent(e);
  }

  /**
   * The daily reports of the window [sim_start, end) (end ≤ the stream's sim_end: a paused run's
   * partial results), once every event before `end` was observed. No event may follow.
   */
  dailyReports(end: number): ScoreReport[] {
    const window = { ...this.r, sim_end: end };
    if (this.held) return dailyReportsByReplay(window, this.held, this.world, this.truth);
    this.closeThrough(end, end);
    return this.reports.filter((_, k) => this.r.sim_start + (k + 1) * DAY_MS <= end);
  }

  /** `anytimeCurve` of the window [sim_start, end) */
  curve(end: number): AnytimePoint[] {
    return pointsOf(this.r.sim_start, this.dailyReports(end));
  }
}

const pointsOf = (sim_start: number, reports: readonly ScoreReport[]): AnytimePoint[] =>
  reports.map((rep, k) => ({
    day: k + 1,
    t: new Date(sim_start + (k + 1) * DAY_MS).toISOString(),
    primary: rep.primary.value,
  }));
