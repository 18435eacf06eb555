import { existsSync, readFileSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { z } from "zod";
import { ConfigError, parseRunConfig } from "../config.js";
import { prepareRunWorld } from "../prepare-run-world.js";
import { resolveRun } from "../resolve-run.js";
import type { Results } from "../results.js";
import { type RunOptions, resumeRun, runFromConfig } from "../runner.js";
import { loadConfigTaskModule } from "../task-module.js";
import { acquireRunLock } from "./run-lock.js";

/** What a job carries: one cell's run config (validated again here: it may come from a queue). */
export interface GridJobInput {
  /** the cell id `<run-id>-s<seed>` the coordinator resolved; checked against this process's resolution */
  id?: string;
  label?: string;
  /** a run config (`RunConfig` or its input form); validated by the job */
  config: unknown;
}

const PrimarySchema = z.object({
  name: z.string(),
  value: z.number().nullable(),
  direction: z.enum(["higher", "lower"]),
});

/** The small summary a job returns (and a queue stores as the job's return value). */
export const GridJobSummarySchema = z.object({
  id: z.string(),
  label: z.string(),
  runDir: z.string(),
  /** `cached`: the run directory already held results.json (nothing ran) */
  status: z.enum(["done", "cached"]),
  /** an interrupted run directory was continued with `resumeRun` */
  resumed: z.boolean(),
  primary: PrimarySchema,
  spent_usd: z.number(),
  /** wall time of this job in this process (never written to the run directory) */
  wall_ms: z.number(),
  /** CPU time (user + system) of this job in this process, ms (absent from older workers' summaries) */
  cpu_ms: z.number().optional(),
});
export type GridJobSummary = z.infer<typeof GridJobSummarySchema>;

const cpuMsSince = (from: NodeJS.CpuUsage): number => {
  const d = process.cpuUsage(from);
  return Math.round((d.user + d.system) / 100) / 10;
};

/** The fields of results.json a summary needs. */
const ResultsHeadSchema = z.object({
  performance: z.object({ primary: PrimarySchema }),
  resources: z.object({ spent_usd: z.number() }),
});

/** Reads a finished run's primary metric and spend. */
export function readResultsHead(runDir: string): z.infer<typeof ResultsHeadSchema> {
  const path = join(runDir, "results.json");
  const parsed = ResultsHeadSchema.safeParse(JSON.parse(readFileSync(path, "utf8")));
  if (!parsed.success) throw new Error(`${path} lacks performance.primary or resources.spent_usd`);
  return parsed.data;
}

/**
 * The same from the results a run just wrote to results.json (without reading the file back: a
 * price-check run's is 170 kB), through JSON as the file holds them (a NaN metric reads as null).
 */
function resultsHeadOf(results: Results, runDir: string): z.infer<typeof ResultsHeadSchema> {
  const head = {
    performance: { primary: results.performance.primary },
    resources: { spent_usd: results.resources.spent_usd },
  };
  const parsed = ResultsHeadSchema.safeParse(JSON.parse(JSON.stringify(head)));
  if (!parsed.success)
    throw new Error(`${join(runDir, "results.json")} lacks performance.primary or resources.spent_usd`);
  return parsed.data;
}

/**
 * Runs one grid cell; the one job function of the local pool and the queue workers. Idempotent:
 * a run directory with results.json is a no-op that returns the cached results; a directory
 * without results (an interrupted run) is continued with `resumeRun` (re-run from sim_start
 * against the recorded ledger, then live); otherwise the run starts fresh. The run directory's
 * lock (`run-lock.ts`) keeps two processes from running the same cell at once.
 */
export async function runGridJob(cell: GridJobInput, o: RunOptions): Promise<GridJobSummary> {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const name = cell.id ?? cell.label ?? "grid job";
  const config = parseRunConfig(cell.config, `job ${name}`);
  await loadConfigTaskModule(config);
  await prepareRunWorld(config, o);
  const r = resolveRun(config, o);
  const id = basename(r.runDir);
  if (cell.id !== undefined && cell.id !== id)
    throw new ConfigError(
      `job ${cell.id}: this process resolves the cell to ${id} (${r.runDir}); the coordinator and this worker differ in task, scorer or harness version, or world`,
    );
  const label = cell.label ?? id;
  const summary = (status: "done" | "cached", resumed: boolean, results?: Results): GridJobSummary => {
    const head = results ? resultsHeadOf(results, r.runDir) : readResultsHead(r.runDir);
    return {
      id,
      label,
      runDir: r.runDir,
      status,
      resumed,
      primary: head.performance.primary,
      spent_usd: head.resources.spent_usd,
      wall_ms: Math.round(performance.now() - t0),
      cpu_ms: cpuMsSince(cpu0),
    };
  };
  const finished = () => existsSync(join(r.runDir, "results.json"));
  if (finished()) return summary("cached", false);
  const release = acquireRunLock(r.runDir);
  try {
    if (finished()) return summary("cached", false); // finished by another process meanwhile
    // a directory killed before config.json was written holds nothing acknowledged: start afresh
    if (existsSync(r.runDir) && !existsSync(join(r.runDir, "config.json")))
      rmSync(r.runDir, { recursive: true, force: true });
    const resumed = existsSync(r.runDir);
    const out = resumed ? await resumeRun(r.runDir, o) : await runFromConfig(config, o);
    // a paused run's results are partial (results.partial.json): its summary reads results.json as before
    return summary(out.cached ? "cached" : "done", resumed, out.paused ? undefined : out.results);
  } finally {
    release();
  }
}
