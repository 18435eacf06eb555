import { groupCells, seriesLabel } from "./cells.js";
import { type Axis, displayAxisValue } from "./config-axes.js";
import type { Experiment } from "./experiments.js";
import type { FutureSimData } from "./report-data.js";
import type { RunFacts } from "./run-facts.js";
import { bootstrapMeanCi } from "./stats/bootstrap.js";
import { mean } from "./stats/summary.js";

/** The secondary metrics of a FutureSim-style task (open-forecast): a section appears when every run reports them. */
export const FUTURESIM_METRICS = ["accuracy", "bss_day0", "bss_final"] as const;
type FsMetric = (typeof FUTURESIM_METRICS)[number];

/** One run's FutureSim figures: primary, top-1 accuracy, day-0 and final Brier skill, steps (model calls). */
interface RunFs {
  primary: number | null;
  accuracy: number | null;
  bss_day0: number | null;
  bss_final: number | null;
  steps: number;
}

function metric(f: RunFacts, name: FsMetric): number | null {
  const v = f.placed.run.results.performance[name];
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

function runFs(f: RunFacts): RunFs {
  return {
    primary: f.primary,
    accuracy: metric(f, "accuracy"),
    bss_day0: metric(f, "bss_day0"),
    bss_final: metric(f, "bss_final"),
    steps: f.placed.run.results.resources.llm_calls,
  };
}

/** Does every run of the experiment carry the FutureSim metrics (as numbers or null)? */
export function hasFutureSimMetrics(facts: readonly RunFacts[]): boolean {
  return facts.length > 0 && facts.every((f) => FUTURESIM_METRICS.every((m) => m in f.placed.run.results.performance));
}

const meanOf = (xs: readonly (number | null)[]) => mean(xs.filter((x): x is number => x !== null));

/**
 * FutureSim's result tables for one experiment (issue 16 §4). **Main table**: one row per harness
 * arm (trigger and every varying axis, i.e. the cell without its model) × model, with the mean
 * primary, top-1 accuracy, day-0 and final Brier skill, steps (model calls per run) and the anytime
 * curve (mean primary per day). **Ablation table**: one row per switch, i.e. per non-baseline
 * level of each varying axis, with paired deltas (level − baseline) of every figure over runs
 * identical in model, trigger, seed and every other axis (the same pairs as the paired-delta
 * table); the baseline of each axis is the experiment's (the level with most runs, or
 * `--baseline`), which for a one-switch-at-a-time design is the full configuration.
 */
export function futureSimTables(
  e: Experiment,
  facts: readonly RunFacts[],
  axes: readonly (Axis & { baseline: string })[],
  axisNames: ReadonlyMap<string, string>,
): FutureSimData | null {
  if (!hasFutureSimMetrics(facts)) return null;
  const main = groupCells(e, facts).map((cell) => {
    const first = cell[0]!.placed;
    const fs = cell.map(runFs);
    const days = [...new Set(cell.flatMap((f) => f.placed.run.results.timing.anytime.map((a) => a.day)))].sort(
      (a, b) => a - b,
    );
    return {
      arm: seriesLabel(first.trigger, first.axes, axisNames),
      model: first.model,
      runs: cell.length,
      primary: meanOf(fs.map((r) => r.primary)),
      accuracy: meanOf(fs.map((r) => r.accuracy)),
      bss_day0: meanOf(fs.map((r) => r.bss_day0)),
      bss_final: meanOf(fs.map((r) => r.bss_final)),
      steps: meanOf(fs.map((r) => r.steps)),
      anytime: days.map((day) => ({
        day,
        mean: meanOf(cell.map((f) => f.placed.run.results.timing.anytime.find((a) => a.day === day)?.primary ?? null)),
      })),
    };
  });

  const ablations: FutureSimData["ablations"] = [];
  for (const axis of axes) {
    // pair key: model, trigger, seed and every other axis (as in pairedDeltas)
    const groups = new Map<string, Map<string, RunFs[]>>();
    for (const f of facts) {
      const { model, trigger, seed, axes: values } = f.placed;
      const k = JSON.stringify([model, trigger, seed, Object.entries(values).filter(([p]) => p !== axis.path)]);
      const byLevel = groups.get(k) ?? new Map<string, RunFs[]>();
      groups.set(k, byLevel);
      const level = values[axis.path]!;
      byLevel.set(level, [...(byLevel.get(level) ?? []), runFs(f)]);
    }
    for (const level of axis.values) {
      if (level === axis.baseline) continue;
      const d: Record<keyof RunFs, number[]> = { primary: [], accuracy: [], bss_day0: [], bss_final: [], steps: [] };
      let pairs = 0;
      for (const byLevel of groups.values()) {
        const b = byLevel.get(axis.baseline);
        const l = byLevel.get(level);
        if (!b || !l) continue;
        let paired = false;
        for (const k of Object.keys(d) as (keyof RunFs)[]) {
          const mb = meanOf(b.map((r) => r[k]));
          const ml = meanOf(l.map((r) => r[k]));
          if (mb === null || ml === null) continue;
          d[k].push(ml - mb);
          if (k === "primary") paired = true;
        }
        if (paired) pairs++;
      }
      ablations.push({
        switch: `${axisNames.get(axis.path) ?? axis.path}=${displayAxisValue(level)}`,
        axis: axis.path,
        level: displayAxisValue(level),
        baseline: displayAxisValue(axis.baseline),
        pairs,
        delta_primary: mean(d.primary),
        delta_primary_ci95: bootstrapMeanCi(d.primary),
        delta_accuracy: mean(d.accuracy),
        delta_bss_day0: mean(d.bss_day0),
        delta_bss_final: mean(d.bss_final),
        delta_steps: mean(d.steps),
      });
    }
  }
  return { metrics: [...FUTURESIM_METRICS], main, ablations };
}
