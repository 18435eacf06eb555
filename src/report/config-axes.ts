import type { LoadedRun } from "./load-runs.js";

/**
 * Config paths that are not ablation axes: they identify the experiment (task, episode and its
 * window), the cell's main factors (model, trigger) or the replicate (seed and world seed: a
 * synthetic world's seed draws another world of the same distribution, so it replicates, never
 * varies a treatment).
 */
export const NON_AXIS_PATHS: ReadonlySet<string> = new Set([
  "task",
  "episode",
  "sim_start",
  "sim_end",
  "seed",
  "world.seed",
  "agent.model",
  // an outside app's base model is part of its row label (report/experiments.ts agentLabel)
  "agent.upstream_model",
  "agent.trigger",
]);

/** The value of a path a run's config does not set. */
export const UNSET = "unset";

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const canonical = (v: unknown): string => {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (isPlainObject(v))
    return `{${Object.keys(v)
      .sort()
      .filter((k) => v[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(",")}}`;
  return JSON.stringify(v);
};

/**
 * Config paths whose object value is one axis value, never flattened: `agent.learning` is a union on
 * `method` whose other fields (`n`, `prune_days`, ...) only mean something beside it, so a grid over
 * `[{method: none}, {method: best-of-n, n: 3}]` is one axis with two values, not three axes.
 */
export const ATOMIC_AXIS_PATHS: ReadonlySet<string> = new Set(["agent.learning"]);

function flatten(v: unknown, prefix: string, out: Record<string, string>) {
  if (isPlainObject(v) && Object.keys(v).length > 0 && !ATOMIC_AXIS_PATHS.has(prefix)) {
    for (const k of Object.keys(v).sort()) if (v[k] !== undefined) flatten(v[k], prefix ? `${prefix}.${k}` : k, out);
    return;
  }
  out[prefix] = canonical(v);
}

/**
 * A run's config as dotted paths → canonical JSON values, without the non-axis paths. The
 * budget and task parameters are taken resolved (defaults filled in), so a run that leaves the
 * budget to the task and one that states the same budget fall in the same cell.
 */
export function configPaths(run: LoadedRun): Record<string, string> {
  const { config, resolved } = run.config;
  const source: Record<string, unknown> = {
    ...config,
    budget_usd: resolved.budget_usd,
    task_params: resolved.task_params,
  };
  const out: Record<string, string> = {};
  flatten(source, "", out);
  for (const p of NON_AXIS_PATHS) delete out[p];
  return out;
}

/** Human form of a canonical axis value (JSON strings lose their quotes). */
export function displayAxisValue(v: string): string {
  if (v === UNSET) return "unset";
  if (v.startsWith('"')) return JSON.parse(v) as string;
  return v;
}

/** Axis values ordered: numbers ascending, then false before true, then text. */
export function compareAxisValues(x: string, y: string): number {
  const nx = Number(x);
  const ny = Number(y);
  const numX = x !== "" && Number.isFinite(nx);
  const numY = y !== "" && Number.isFinite(ny);
  if (numX && numY) return nx - ny;
  if (numX !== numY) return numX ? -1 : 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

export interface Axis {
  path: string;
  /** canonical values, ordered */
  values: string[];
}

/** The config paths whose value differs between runs (a path missing from some runs counts as "unset"). */
export function varyingAxes(paths: readonly Record<string, string>[]): Axis[] {
  const all = new Set(paths.flatMap((p) => Object.keys(p)));
  const axes: Axis[] = [];
  for (const path of [...all].sort()) {
    const values = new Set(paths.map((p) => p[path] ?? UNSET));
    if (values.size > 1) axes.push({ path, values: [...values].sort(compareAxisValues) });
  }
  return axes;
}

/**
 * Short display names of axis paths: the last path segment when no other axis shares it
 * (`agent.deadline_guard` → `deadline_guard`), else the full path.
 */
export function shortAxisNames(paths: readonly string[]): Map<string, string> {
  const last = (p: string) => p.slice(p.lastIndexOf(".") + 1);
  return new Map(paths.map((p) => [p, paths.filter((q) => last(q) === last(p)).length > 1 ? p : last(p)]));
}
