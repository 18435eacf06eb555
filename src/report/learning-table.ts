import type { CellData, LearningRow } from "./report-data.js";

/** run-config paths of the learning methods reported in the paper's Table 1 shape */
export const LEARNING_AXES: readonly string[] = ["agent.memory"];
/** values meaning "without the method" (display form) */
const WITHOUT = ["none", "unset"];

const stat = (c: CellData) => ({ mean: c.mean, sd: c.sd, n: c.n, spend_mean_usd: c.spend_mean_usd });

/**
 * The paper's Table 1 shape for each learning axis that varies between an experiment's runs: one row
 * per model × trigger (× the values of the other varying axes), the primary with and without each
 * method (mean and sample SD over seeds, from the cells) and the cost multiplier (mean spend with /
 * mean spend without; null when the runs without it spent nothing). "Without" is the value `none`,
 * else a config that leaves the axis unset.
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
      const without = WITHOUT.map((v) => group.find((c) => c.axes[axis] === v)).find((c) => c !== undefined) ?? null;
      const methods = group
        .filter((c) => !WITHOUT.includes(c.axes[axis] ?? "unset"))
        .sort((a, b) => ((a.axes[axis] ?? "") < (b.axes[axis] ?? "") ? -1 : 1))
        .map((c) => ({
          method: c.axes[axis] ?? "unset",
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
