import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { validateGate } from "../triggers/cron-gate.js";
import { ConfigError } from "./config-error.js";
import type { ResolvedRun } from "./resolve-run.js";
import { openTaskAsOf } from "./task-as-of.js";

/** The config's cron `when` gate (`agent.cron_gate.program`) as config.json records it, with its source. */
export interface CronGateFile {
  path: string;
  sha256: string;
  source: string;
}

/** Reads `agent.cron_gate.program` (absolute, or relative to the working directory); refused when missing. */
export function readCronGateFile(path: string): CronGateFile {
  const abs = isAbsolute(path) ? path : resolve(path);
  if (!existsSync(abs)) throw new ConfigError(`agent.cron_gate.program: no such file ${abs}`);
  const source = readFileSync(abs, "utf8");
  return { path: abs, sha256: createHash("sha256").update(source).digest("hex"), source };
}

/**
 * Validates the run's config gate (if any) like `run_program`'s validate checks a watcher (zero cost,
 * zero time, at sim_start, against the task's data tools), before the run directory exists, so a bad
 * gate leaves nothing behind.
 */
export async function checkConfigCronGate(r: ResolvedRun): Promise<void> {
  if (r.cronGate === null) return;
  const t = openTaskAsOf(r);
  let toolNames: string[];
  try {
    toolNames = t.run
      .tools()
      .filter((d) => d.kind === "data")
      .map((d) => d.name);
  } finally {
    await t.close();
  }
  const step = r.config.agent.cron_gate?.step_budget;
  const v = await validateGate({
    source: r.cronGate.source,
    path: r.cronGate.path,
    now: r.sim_start,
    toolNames,
    ...(step !== undefined ? { stepBudget: step } : {}),
  });
  if (!v.ok) throw new ConfigError(`agent.cron_gate.program: ${r.cronGate.path} does not validate: ${v.error}`);
}
