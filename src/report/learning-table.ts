import type { CellData, LearningRow } from "./report-data.js";

/** run-config paths of the learning methods reported in the paper's Table 1 shape */
export const LEARNING_AXES: readonly string[] = ["agent.memory", "agent.learning"];
/** values meaning "without the method" (display form) */
const WITHOUT = ["none", "unset"];

/** `agent.learning` values are whole objects (canonical JSON, config-axes ATOMIC_AXIS_PATHS): their `method`, else null */
function learningObject(v: string): Record<string, unknown> | null {
  if (!v.startsWith("{")) return null;
  try {
    const o = JSON.parse(v) as unknown;
    return typeof o === "object" && o !== null && !Array.isArray(o) ? (o as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** "without the method": `none` or unset, or an `agent.learning` object with method none */
const isWithout = (v: string) => WITHOUT.includes(v) || learningObject(v)?.method === "none";

/** The method's label: `agent.learning` objects read `best-of-n (n 3, prune_days 2,7)`, other values as they are. */
export function methodLabel(v: string): string {
  const o = learningObject(v);
  if (o === null || typeof o.method !== "string") return v;
  const rest = Object.entries(o)
    .filter(([k]) => k !== "method")
    .map(([k, x]) => `${k} ${Array.isArray(x) ? x.join(",") : typeof x === "object" ? JSON.stringify(x) : String(x)}`);
  return rest.length ? `${o.method} (${rest.join(", ")})` : o.method;
}

const stat = (c: CellData) => ({ mean: c.mean, sd: c.sd, n: c.n, spend_mean_usd: c.spend_mean_usd });

/**
 * The paper's Table 1 shape for each learning axis that varies between an experiment's runs: one row
 * per model × trigger (× the values of the other varying axes), the primary with and without each
 * method (mean and sample SD over seeds, from the cells) and the cost multiplier (mean spend with /
 * mean spend without; null when the runs without it spent nothing). "Without" is the value `none`,
 * else a config that leaves the axis unset (for `agent.learning`, also `{method: none}`). A Best-of-N
 * run's spend is every branch's (results.best_of_n), so its multiplier is the cost against single runs.
 */
export function learningRows(cells: readonly CellData[], axisPaths: readonly string[]): LearningRow[] {
  const rows: LearningRow[] = [];
  for (const axis of LEARNING_AXES) {
    if (!axisPaths.includes(axis)) continue;
    const groups = new Map<string, CellData[]>();
    for (const c of cells) {
      const stratum = Object.entries(c.axes).filter(([k]) => k !== axis);
      const key = JSON.stringify([c.model, c.trigger, stratum]);
      const list = groups.get(key) ?? [];
      list.push(c);
      groups.set(key, list);
    }
    for (const group of groups.values()) {
      const first = group[0]!;
      const without =
        [...WITHOUT, null]
          .map((v) => group.find((c) => (v === null ? isWithout(c.axes[axis] ?? "unset") : c.axes[axis] === v)))
          .find((c) => c !== undefined) ?? null;
      const methods = group
        .filter((c) => !isWithout(c.axes[axis] ?? "unset"))
        .sort((a, b) => ((a.axes[axis] ?? "") < (b.axes[axis] ?? "") ? -1 : 1))
        .map((c) => ({
          method: methodLabel(c.axes[axis] ?? "unset"),
          ...stat(c),
          cost_multiplier:
            without !== null && without.spend_mean_usd > 0 ? c.spend_mean_usd / without.spend_mean_usd : null,
        }));
      if (methods.length === 0) continue;
      rows.push({
        axis,
        model: first.model,
        trigger: first.trigger,
        stratum: Object.fromEntries(Object.entries(first.axes).filter(([k]) => k !== axis)),
        without: without ? stat(without) : null,
        methods,
      });
    }
  }
  return rows;
}
