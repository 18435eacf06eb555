import { readFileSync } from "node:fs";
import { z } from "zod";
import type { ModelSettings } from "../models/model.js";
import { dayStart } from "./checkpoint.js";
import { ConfigError } from "./config-error.js";
import type { ResolvedRun } from "./resolve-run.js";

/**
 * The settings a restart may change at the start of its day, each with how it applies to the live
 * run. Only settings read afresh at every model call can switch mid-episode without rebuilding what
 * the re-run up to that day made (tools, limiters, triggers, the wallet, the world are built at
 * sim_start); every other key is refused with this list.
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

/** A settings change at an instant of the run (a restart's). */
export interface SettingsSwitch {
  at: number;
  settings: Partial<ModelSettings>;
}

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

/** The model-settings patch of one switch's changes (every key must be in RESTART_SETTINGS). */
export function settingsPatchOf(set: Readonly<Record<string, unknown>>): Partial<ModelSettings> {
  const settings: Partial<ModelSettings> = {};
  for (const [key, value] of Object.entries(set)) {
    const apply = RESTART_SETTINGS[key];
    if (apply === undefined)
      throw new ConfigError(
        `--set ${key}: cannot change at a restart; the settings that can: ${Object.keys(RESTART_SETTINGS).join(", ")}`,
      );
    Object.assign(settings, apply(value));
  }
  return settings;
}

/** The settings switches a restart record makes, at the start of their days. */
export function planOfRestart(rec: RestartRecord, r: ResolvedRun): { switches: SettingsSwitch[] } {
  return {
    switches: rec.switches.map((x) => ({ at: dayStart(r.sim_start, x.from_day), settings: settingsPatchOf(x.set) })),
  };
}
