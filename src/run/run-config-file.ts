import { readFileSync } from "node:fs";
import { z } from "zod";
import { ConfigError, type RunConfig, RunConfigSchema } from "./config.js";
import type { ResolvedRun } from "./resolve-run.js";

const TaskModuleRecord = z.object({ path: z.string(), sha256: z.string() }).strict();

/** config.json as written by `resolveRun`: the validated config and what it resolved to. */
const RunConfigFileSchema = z.object({
  config: RunConfigSchema,
  resolved: z.looseObject({ task_module: TaskModuleRecord.optional() }),
});

export interface RunConfigFile {
  config: RunConfig;
  resolved: { task_module?: z.infer<typeof TaskModuleRecord> | undefined; [k: string]: unknown };
}

/** Reads a run directory's config.json back through its schema; a bad file is named with what is wrong. */
export function readRunConfigFile(path: string): RunConfigFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new ConfigError(`${path}: not readable JSON (${(err as Error).message})`);
  }
  const parsed = RunConfigFileSchema.safeParse(raw);
  if (!parsed.success)
    throw new ConfigError(
      `${path}: not a relive run config:\n${parsed.error.issues.map((i) => `  ${i.path.join(".") || "(root)"}: ${i.message}`).join("\n")}`,
    );
  return parsed.data;
}

/** A run continues only with the task module it started with (same content). */
export function assertSameTaskModule(saved: RunConfigFile, r: ResolvedRun, runDir: string): void {
  const was = saved.resolved.task_module;
  const now = (r.resolvedConfig.resolved as { task_module?: { sha256: string } } | undefined)?.task_module;
  if (was && now && was.sha256 !== now.sha256)
    throw new ConfigError(
      `${runDir}: task module ${was.path} changed since the run started (sha256 ${was.sha256.slice(0, 12)} → ${now.sha256.slice(0, 12)}); restore it, or start a new run`,
    );
}

/** A run continues only with the cron `when` gate file it started with (same content). */
export function assertSameCronGate(saved: RunConfigFile, r: ResolvedRun, runDir: string): void {
  const was = TaskModuleRecord.optional().safeParse(saved.resolved.cron_gate);
  const w = was.success ? was.data : undefined;
  if (w && r.cronGate && w.sha256 !== r.cronGate.sha256)
    throw new ConfigError(
      `${runDir}: cron gate ${w.path} changed since the run started (sha256 ${w.sha256.slice(0, 12)} → ${r.cronGate.sha256.slice(0, 12)}); restore it, or start a new run`,
    );
}
