import { displayAxisValue } from "./config-axes.js";
import { ReportInputError } from "./report-error.js";
import { bootstrapMeanCi } from "./stats/bootstrap.js";
import { mean } from "./stats/summary.js";
function baselineOf(axis, facts, baselines) {
  const wanted = baselines[axis.path];
  if (wanted !== void 0) {
    const hit = axis.values.find((v) => displayAxisValue(v) === wanted || v === wanted);
    if (hit === void 0)
      throw new ReportInputError(
        `--baseline ${axis.path}=${wanted}: no run has that value; values found: ${axis.values.map(displayAxisValue).join(", ")}`
      );
    return hit;
  }
  let best = axis.values[0];
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
function pairedDeltas(axis, baseline, facts) {
  const groups = /* @__PURE__ */ new Map();
  for (const f of facts) {
    const { model, trigger, seed, axes } = f.placed;
    const rest = Object.entries(axes).filter(([p]) => p !== axis.path);
    const k = JSON.stringify([model, trigger, seed, rest]);
    const level = axes[axis.path];
    const byLevel = groups.get(k) ?? /* @__PURE__ */ new Map();
    groups.set(k, byLevel);
    const slot = byLevel.get(level) ?? { scores: [], spends: [] };
    byLevel.set(level, slot);
    if (f.primary !== null) slot.scores.push(f.primary);
    slot.spends.push(f.spent);
  }
  const out = [];
  for (const level of axis.values) {
    if (level === baseline) continue;
    const deltas = [];
    const baseSpend = [];
    const levelSpend = [];
    for (const byLevel of groups.values()) {
      const b = byLevel.get(baseline);
      const l = byLevel.get(level);
      if (!b || !l || b.scores.length === 0 || l.scores.length === 0) continue;
      deltas.push(mean(l.scores) - mean(b.scores));
      baseSpend.push(mean(b.spends));
      levelSpend.push(mean(l.spends));
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
      cost_multiplier: bs !== null && ls !== null && bs > 0 ? ls / bs : null
    });
  }
  return out;
}
export {
  baselineOf,
  pairedDeltas
};
//# sourceMappingURL=paired-deltas.js.map
