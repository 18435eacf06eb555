import { existsSync, readFileSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { z } from "zod";
import { ConfigError, parseRunConfig } from "../config.js";
import { resolveRun } from "../resolve-run.js";
import { resumeRun, runFromConfig } from "../runner.js";
import { loadConfigTaskModule } from "../task-module.js";
import { acquireRunLock } from "./run-lock.js";
const PrimarySchema = z.object({
  name: z.string(),
  value: z.number().nullable(),
  direction: z.enum(["higher", "lower"])
});
const GridJobSummarySchema = z.object({
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
  wall_ms: z.number()
});
const ResultsHeadSchema = z.object({
  performance: z.object({ primary: PrimarySchema }),
  resources: z.object({ spent_usd: z.number() })
});
function readResultsHead(runDir) {
  const path = join(runDir, "results.json");
  const parsed = ResultsHeadSchema.safeParse(JSON.parse(readFileSync(path, "utf8")));
  if (!parsed.success) throw new Error(`${path} lacks performance.primary or resources.spent_usd`);
  return parsed.data;
}
async function runGridJob(cell, o) {
  const t0 = performance.now();
  const name = cell.id ?? cell.label ?? "grid job";
  const config = parseRunConfig(cell.config, `job ${name}`);
  await loadConfigTaskModule(config);
  const r = resolveRun(config, o);
  const id = basename(r.runDir);
  if (cell.id !== void 0 && cell.id !== id)
    throw new ConfigError(
      `job ${cell.id}: this process resolves the cell to ${id} (${r.runDir}); the coordinator and this worker differ in task, scorer or harness version, or world`
    );
  const label = cell.label ?? id;
  const summary = (status, resumed) => {
    const head = readResultsHead(r.runDir);
    return {
      id,
      label,
      runDir: r.runDir,
      status,
      resumed,
      primary: head.performance.primary,
      spent_usd: head.resources.spent_usd,
      wall_ms: Math.round(performance.now() - t0)
    };
  };
  const finished = () => existsSync(join(r.runDir, "results.json"));
  if (finished()) return summary("cached", false);
  const release = acquireRunLock(r.runDir);
  try {
    if (finished()) return summary("cached", false);
    if (existsSync(r.runDir) && !existsSync(join(r.runDir, "config.json")))
      rmSync(r.runDir, { recursive: true, force: true });
    const resumed = existsSync(r.runDir);
    const out = resumed ? await resumeRun(r.runDir, o) : await runFromConfig(config, o);
    return summary(out.cached ? "cached" : "done", resumed);
  } finally {
    release();
  }
}
export {
  GridJobSummarySchema,
  readResultsHead,
  runGridJob
};
//# sourceMappingURL=grid-job.js.map
