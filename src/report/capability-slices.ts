import type { CapabilitySlice, ExperimentData } from "./report-data.js";
import { mean } from "./stats/summary.js";

/** The capability axes of tasks.md, in its order. */
export const CAPABILITY_AXES = ["time_sensitivity", "reasoning", "recurrence"] as const;

const TRIGGER_ORDER = ["sleep", "watcher", "cron"];
const rank = (t: string) => (TRIGGER_ORDER.includes(t) ? TRIGGER_ORDER.indexOf(t) : TRIGGER_ORDER.length);

/** A trigger's mean primary in one experiment: the mean over its cells of the cell means, weighted by scored runs. */
function triggerMean(e: ExperimentData, trigger: string): number | null {
  let sum = 0;
  let n = 0;
  for (const c of e.cells)
    if (c.trigger === trigger && c.mean !== null) {
      sum += c.mean * c.n;
      n += c.n;
    }
  return n > 0 ? sum / n : null;
}

/**
 * Results sliced by the tasks' capability axes: one slice per axis value found among the
 * experiments (experiments without recorded axes are left out). Means are over experiments, so
 * a task with many runs counts once per episode.
 */
export function capabilitySlices(experiments: readonly ExperimentData[]): CapabilitySlice[] {
  const out: CapabilitySlice[] = [];
  for (const axis of CAPABILITY_AXES) {
    const values = [...new Set(experiments.flatMap((e) => (e.task_axes?.[axis] ? [e.task_axes[axis]] : [])))].sort();
    for (const value of values) {
      const inSlice = experiments.filter((e) => e.task_axes?.[axis] === value);
      const used = inSlice.filter((e) => e.primary.direction === "higher");
      const triggers = [...new Set(used.flatMap((e) => e.cells.map((c) => c.trigger)))].sort(
        (a, b) => rank(a) - rank(b) || (a < b ? -1 : 1),
      );
      out.push({
        axis,
        value,
        tasks: [...new Set(inSlice.map((e) => e.task))].sort(),
        excluded: inSlice.filter((e) => e.primary.direction !== "higher").map((e) => `${e.task} · ${e.episode}`),
        by_trigger: triggers.map((trigger) => {
          const means = used.flatMap((e) => {
            const m = triggerMean(e, trigger);
            return m === null ? [] : [m];
          });
          const deltas = used.flatMap((e) =>
            e.trigger_deltas.flatMap((d) => (d.level === trigger && d.mean_delta !== null ? [d.mean_delta] : [])),
          );
          return { trigger, experiments: means.length, mean_primary: mean(means), mean_delta: mean(deltas) };
        }),
      });
    }
  }
  return out;
}
