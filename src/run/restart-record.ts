import { readFileSync } from "node:fs";
import { z } from "zod";
import type { ModelSettings } from "../models/model.js";
import { dayStart } from "./checkpoint.js";
import { ConfigError } from "./config-error.js";
import type { ResolvedRun } from "./resolve-run.js";

/**
 * The model settings a restart may change at the start of its day, each with how it applies to the
 * live run. Only settings read afresh at every model call can switch mid-episode without rebuilding
 * what the re-run up to that day made (tools, limiters, triggers, the wallet, the world are built at
 * sim_start). Beside them the editable harness may switch (`settingsPatchOf`): the instruction
 * addendum and the task's tunable params, read afresh at every call too; every other key is refused.
 */
export const RESTART_SETTINGS: Readonly<Record<string, (v: unknown) => Partial<ModelSettings>>> = {
  "agent.temperature": (v) => ({ temperature: v as number }),
  "agent.effort": (v) => ({ effort: v as ModelSettings["effort"] }),
  "agent.max_output_tokens": (v) => ({ maxOutputTokens: v as number }),
};

const SwitchRecord = z
  .object({
    /** the 1-based day the changed settings start */
    from_day: z.number().int().min(2),
    /** the instant they start (ISO): the start of `from_day` */
    switch_at: z.string(),
    /** the changes, by dotted config path (validated by the run-config schema) */
    set: z.record(z.string(), z.unknown()),
  })
  .strict();

/** `restart` in a restarted run's config.json (beside the source's `config` and `resolved`). */
export const RestartRecordSchema = z
  .object({
    /** this run's id: hash of the source run id, the day and the changes */
    run_id: z.string(),
    source_run_id: z.string(),
    source_run_dir: z.string(),
    from_day: z.number().int().min(2),
    /**
     * the settings switches of the run in day order: a restart of a restarted run keeps its source's
     * switches before `from_day` (they made the re-run part) and adds its own
     */
    switches: z.array(SwitchRecord),
  })
  .strict();
export type RestartRecord = z.infer<typeof RestartRecordSchema>;
export type SwitchRecordOf = z.infer<typeof SwitchRecord>;

/** the harness part of a restart's switch (src/run/harness-surface.ts) */
export interface HarnessSwitch {
  addendum?: string;
  tuned?: Record<string, unknown>;
}

/** A settings change at an instant of the run (a restart's): model settings and the editable harness. */
export interface SettingsSwitch {
  at: number;
  settings: Partial<ModelSettings>;
  harness?: HarnessSwitch;
}

/** the run-config path of the instruction addendum (a restart may switch it) */
export const ADDENDUM_KEY = "agent.instruction_addendum";
const TUNED_PREFIX = "task_params.";

/** The restart record of a run directory's config.json, or null for a run that is no restart. */
export function readRestartRecord(configPath: string): RestartRecord | null {
  const raw = JSON.parse(readFileSync(configPath, "utf8")) as { restart?: unknown };
  if (raw.restart === undefined) return null;
  const parsed = RestartRecordSchema.safeParse(raw.restart);
  if (!parsed.success)
    throw new ConfigError(
      `${configPath}: bad restart record: ${parsed.error.issues.map((i) => `restart.${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  return parsed.data;
}

/**
 * The model-settings patch and the harness switch of one switch's changes: every key must be in
 * RESTART_SETTINGS, be `agent.instruction_addendum`, or name a tunable param of the run's task
 * (`task_params.<name>`, `TaskSpec.tunable`; the value is checked by the task's params schema).
 */
export function settingsPatchOf(
  set: Readonly<Record<string, unknown>>,
  run?: Pick<ResolvedRun, "task" | "params">,
): { settings: Partial<ModelSettings>; harness?: HarnessSwitch } {
  const settings: Partial<ModelSettings> = {};
  const harness: HarnessSwitch = {};
  const tunable = run?.task.tunable ?? {};
  for (const [key, value] of Object.entries(set)) {
    const apply = RESTART_SETTINGS[key];
    if (apply !== undefined) {
      Object.assign(settings, apply(value));
      continue;
    }
    if (key === ADDENDUM_KEY && typeof value === "string") {
      harness.addendum = value;
      continue;
    }
    const name = key.startsWith(TUNED_PREFIX) ? key.slice(TUNED_PREFIX.length) : null;
    if (name !== null && name in tunable) {
      harness.tuned = { ...harness.tuned, [name]: value };
      continue;
    }
    const tunables = Object.keys(tunable).map((k) => `${TUNED_PREFIX}${k}`);
    throw new ConfigError(
      `--set ${key}: cannot change at a restart; the settings that can: ${[...Object.keys(RESTART_SETTINGS), ADDENDUM_KEY, ...tunables].join(", ")}` +
        (tunables.length ? "" : " (this task declares no tunable params)"),
    );
  }
  if (harness.tuned && run) {
    const parsed = run.task.params.safeParse({ ...(run.params as Record<string, unknown>), ...harness.tuned });
    if (!parsed.success)
      throw new ConfigError(
        `invalid restart settings:\n${parsed.error.issues.map((i) => `  --set ${TUNED_PREFIX}${i.path.join(".")}: ${i.message}`).join("\n")}`,
      );
  }
  return { settings, ...(harness.addendum !== undefined || harness.tuned ? { harness } : {}) };
}

/** The settings switches a restart record makes, at the start of their days. */
export function planOfRestart(rec: RestartRecord, r: ResolvedRun): { switches: SettingsSwitch[] } {
  return {
    switches: rec.switches.map((x) => ({ at: dayStart(r.sim_start, x.from_day), ...settingsPatchOf(x.set, r) })),
  };
}
