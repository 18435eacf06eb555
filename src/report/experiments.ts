import type { Results } from "../run/results.js";
import { type Axis, configPaths, UNSET, varyingAxes } from "./config-axes.js";
import type { LoadedRun } from "./load-runs.js";
import { ReportInputError } from "./report-error.js";

/** A run placed in its experiment: its cell coordinates and its varying-axis values. */
export interface PlacedRun {
  run: LoadedRun;
  model: string;
  trigger: string;
  seed: number;
  /** the synthetic world's seed (null: the default world, or a world directory) */
  worldSeed: number | null;
  /** the replicate: seed and world seed (runs identical in everything else pair on it) */
  replicate: string;
  /** values of the experiment's varying axes (canonical JSON, or "unset") */
  axes: Record<string, string>;
}

/** Runs that can be pooled: one task, episode window, primary metric and (unless pooled) version triple. */
export interface Experiment {
  key: string;
  task: string;
  episode: string;
  sim_start: string;
  sim_end: string;
  versions: { task_version: string[]; scorer_version: string[]; harness_version: string[] };
  primary: { name: string; direction: "higher" | "lower" };
  axes: Axis[];
  runs: PlacedRun[];
}

const worldSeedOf = (run: LoadedRun): number | null => {
  const seed = (run.config.config as { world?: { seed?: unknown } }).world?.seed;
  return typeof seed === "number" ? seed : null;
};

const VERSION_FIELDS = ["task_version", "scorer_version", "harness_version"] as const;

/**
 * Groups runs into experiments by (task, episode, window, task/scorer/harness version). Runs of the
 * same task and episode whose versions differ are different experiments: refused (an error listing
 * every version found, with run counts and an example directory) unless `poolVersions`, which
 * drops the versions from the key and records the versions pooled. A primary metric that differs
 * (name or direction) inside a group is always refused.
 */
export function groupExperiments(runs: readonly LoadedRun[], o: { poolVersions?: boolean } = {}): Experiment[] {
  const byTask = new Map<string, LoadedRun[]>();
  for (const run of runs) {
    const r = run.results;
    const k = JSON.stringify([r.task, r.episode, r.sim_start, r.sim_end]);
    byTask.set(k, [...(byTask.get(k) ?? []), run]);
  }
  const conflicts: string[] = [];
  const experiments: Experiment[] = [];
  for (const group of byTask.values()) {
    const first = group[0]!.results;
    const versions = Object.fromEntries(
      VERSION_FIELDS.map((f) => [f, [...new Set(group.map((g) => g.results[f]))].sort()]),
    ) as Experiment["versions"];
    const differing = VERSION_FIELDS.filter((f) => versions[f].length > 1);
    if (differing.length && !o.poolVersions) {
      const lines = differing.flatMap((f) =>
        versions[f].map((v) => {
          const of = group.filter((g) => g.results[f] === v);
          return `    ${f} ${v}: ${of.length} run(s), e.g. ${of[0]!.dir}`;
        }),
      );
      conflicts.push(
        `  ${first.task} · ${first.episode} (${first.sim_start} → ${first.sim_end}):\n${lines.join("\n")}`,
      );
      continue;
    }
    const primaries = [
      ...new Set(
        group.map(
          (g) => `${g.results.performance.primary.name} (${g.results.performance.primary.direction} is better)`,
        ),
      ),
    ];
    if (primaries.length > 1)
      throw new ReportInputError(
        `runs of ${first.task} · ${first.episode} report different primary metrics (${primaries.join(", ")}): they cannot be pooled`,
      );
    const paths = group.map(configPaths);
    const axes = varyingAxes(paths);
    experiments.push({
      key: JSON.stringify([first.task, first.episode, first.sim_start, first.sim_end]),
      task: first.task,
      episode: first.episode,
      sim_start: first.sim_start,
      sim_end: first.sim_end,
      versions,
      primary: { name: first.performance.primary.name, direction: first.performance.primary.direction },
      axes,
      runs: group.map((run, i) => ({
        run,
        model: agentLabel(run.results),
        trigger: run.results.trigger,
        seed: run.results.seed,
        worldSeed: worldSeedOf(run),
        replicate: JSON.stringify([run.results.seed, worldSeedOf(run)]),
        axes: Object.fromEntries(axes.map((a) => [a.path, paths[i]![a.path] ?? UNSET])),
      })),
    });
  }
  if (conflicts.length)
    throw new ReportInputError(
      `refusing to pool runs whose task, scorer or harness versions differ (they are different experiments):\n${conflicts.join("\n")}\n` +
        "report them separately, rescore them with the current scorer (`relive rescore RUNDIR`), or pass --pool-versions to pool them anyway",
    );
  return experiments.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * The row label of a run's agent: the model for relive's own harness (and the scripted policies),
 * `external:<app> · <provider:model>` for an outside app, so native apps and relive's harness on the
 * same base model sit side by side (FutureSim's main table).
 */
export function agentLabel(r: Pick<Results, "agent" | "harness" | "upstream_model">): string {
  return r.harness?.startsWith("external:") && r.upstream_model ? `${r.harness} · ${r.upstream_model}` : r.agent;
}
