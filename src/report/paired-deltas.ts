import type { Axis } from "./config-axes.js";
import { displayAxisValue } from "./config-axes.js";
import type { DeltaData } from "./report-data.js";
import { ReportInputError } from "./report-error.js";
import type { RunFacts } from "./run-facts.js";
import { bootstrapMeanCi } from "./stats/bootstrap.js";
import { mean } from "./stats/summary.js";

/**
 * The baseline level of an axis: the one named in `baselines` (by its display value), else the
 * level with the most runs, ties going to the first in axis order (numbers ascending, false
 * before true, then text).
 */
export function baselineOf(
  axis: Axis,
  facts: readonly RunFacts[],
  baselines: Readonly<Record<string, string>>,
): string {
  const wanted = baselines[axis.path];
  if (wanted !== undefined) {
    const hit = axis.values.find((v) => displayAxisValue(v) === wanted || v === wanted);
    if (hit === undefined)
      throw new ReportInputError(
        `--baseline ${axis.path}=${wanted}: no run has that value; values found: ${axis.values.map(displayAxisValue).join(", ")}`,
      );
    return hit;
  }
  let best = axis.values[0]!;
  let bestCount = -1;
  for (const v of axis.values) {
    const c = facts.filter((f) => f.placed.axes[axis.path] === v).length;
    if (c > bestCount) {
      best = v;
      bestCount = c;
    }
  }
  return best;
}

/**
 * Paired deltas along one ablation axis: a pair is two runs identical in model, trigger, seed
 * and every other varying axis, one at the baseline level and one at `level`
 * (runs repeated with the same coordinates are averaged first). Mean delta (level − baseline)
 * with a 95% bootstrap CI over pairs, and the cost multiplier (mean level spend / mean baseline
 * spend over the same pairs).
 */
export function pairedDeltas(axis: Axis, baseline: string, facts: readonly RunFacts[]): DeltaData[] {
  const groups = new Map<string, Map<string, { scores: number[]; spends: number[] }>>();
  for (const f of facts) {
    const { model, trigger, seed, axes } = f.placed;
    const rest = Object.entries(axes).filter(([p]) => p !== axis.path);
    const k = JSON.stringify([model, trigger, seed, rest]);
    const level = axes[axis.path]!;
    const byLevel = groups.get(k) ?? new Map();
    groups.set(k, byLevel);
    const slot = byLevel.get(level) ?? { scores: [], spends: [] };
    byLevel.set(level, slot);
    if (f.primary !== null) slot.scores.push(f.primary);
    slot.spends.push(f.spent);
  }
  const out: DeltaData[] = [];
  for (const level of axis.values) {
    if (level === baseline) continue;
    const deltas: number[] = [];
    const baseSpend: number[] = [];
    const levelSpend: number[] = [];
    for (const byLevel of groups.values()) {
      const b = byLevel.get(baseline);
      const l = byLevel.get(level);
      if (!b || !l || b.scores.length === 0 || l.scores.length === 0) continue;
      deltas.push(mean(l.scores)! - mean(b.scores)!);
      baseSpend.push(mean(b.spends)!);
      levelSpend.push(mean(l.spends)!);
    }
    const bs = mean(baseSpend);
    const ls = mean(levelSpend);
    out.push({
      axis: axis.path,
      baseline: displayAxisValue(baseline),
      level: displayAxisValue(level),
      pairs: deltas.length,
      mean_delta: mean(deltas),
      ci95: bootstrapMeanCi(deltas),
      baseline_spend_mean_usd: bs,
      level_spend_mean_usd: ls,
      cost_multiplier: bs !== null && ls !== null && bs > 0 ? ls / bs : null,
    });
  }
  return out;
}
