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
 * Paired deltas of one factor: runs with equal `pairKey` form a pair group; in each group the mean
 * primary at `level` minus the mean at `baseline` (runs repeated with the same coordinates are
 * averaged first). Mean delta with a 95% bootstrap CI over pairs, and the cost multiplier (mean
 * level spend / mean baseline spend over the same pairs).
 */
function pairedDeltasOf(
  factor: string,
  levels: readonly string[],
  baseline: string,
  facts: readonly RunFacts[],
  levelOf: (f: RunFacts) => string,
  pairKey: (f: RunFacts) => string,
): DeltaData[] {
  const groups = new Map<string, Map<string, { scores: number[]; spends: number[] }>>();
  for (const f of facts) {
    const k = pairKey(f);
    const level = levelOf(f);
    const byLevel = groups.get(k) ?? new Map();
    groups.set(k, byLevel);
    const slot = byLevel.get(level) ?? { scores: [], spends: [] };
    byLevel.set(level, slot);
    if (f.primary !== null) slot.scores.push(f.primary);
    slot.spends.push(f.spent);
  }
  const out: DeltaData[] = [];
  for (const level of levels) {
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
      axis: factor,
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

/**
 * Paired deltas along one ablation axis: a pair is two runs identical in model, trigger, replicate
 * (seed and world seed) and every other varying axis, one at the baseline level and one at `level`.
 */
export function pairedDeltas(axis: Axis, baseline: string, facts: readonly RunFacts[]): DeltaData[] {
  return pairedDeltasOf(
    axis.path,
    axis.values,
    baseline,
    facts,
    (f) => f.placed.axes[axis.path]!,
    (f) => {
      const { model, trigger, replicate, axes } = f.placed;
      return JSON.stringify([model, trigger, replicate, Object.entries(axes).filter(([p]) => p !== axis.path)]);
    },
  );
}

/** The trigger the headline compares against: `sleep` when present, else the trigger with the most runs (ties by name). */
export function triggerBaseline(facts: readonly RunFacts[]): string | null {
  const counts = new Map<string, number>();
  for (const f of facts) counts.set(f.placed.trigger, (counts.get(f.placed.trigger) ?? 0) + 1);
  if (counts.has("sleep")) return "sleep";
  return [...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))[0]?.[0] ?? null;
}

/**
 * The headline trigger deltas: each other trigger against the baseline trigger, a pair being two
 * runs identical in model, replicate and every varying axis (the trigger question with
 * everything else held fixed).
 */
export function triggerDeltas(facts: readonly RunFacts[]): DeltaData[] {
  const baseline = triggerBaseline(facts);
  if (baseline === null) return [];
  const order = ["sleep", "watcher", "cron"];
  const rank = (t: string) => (order.includes(t) ? order.indexOf(t) : order.length);
  const triggers = [...new Set(facts.map((f) => f.placed.trigger))].sort(
    (a, b) => rank(a) - rank(b) || (a < b ? -1 : 1),
  );
  // trigger names are plain strings: pass them through displayAxisValue's canonical form
  const canon = (t: string) => JSON.stringify(t);
  return pairedDeltasOf(
    "trigger",
    triggers.map(canon),
    canon(baseline),
    facts,
    (f) => canon(f.placed.trigger),
    (f) => JSON.stringify([f.placed.model, f.placed.replicate, Object.entries(f.placed.axes)]),
  );
}
