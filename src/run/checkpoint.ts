import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { DAY_MS, isoInstant, nextUtcMidnight } from "../common/time.js";
import { ConfigError } from "./config-error.js";

/**
 * The instant simulated day `day` (1-based) of an episode starts: day 1 at `sim_start`, day d ≥ 2 at
 * the (d-1)-th UTC midnight after it (the daily briefs' day numbering).
 */
export function dayStart(sim_start: number, day: number): number {
  return day <= 1 ? sim_start : nextUtcMidnight(sim_start) + (day - 2) * DAY_MS;
}

/** Whole days of an episode (as the daily briefs count them). */
export const episodeDays = (sim_start: number, sim_end: number) => Math.round((sim_end - sim_start) / DAY_MS);

/** Where `--stop-after-day D` pauses: the start of day D+1 (refused unless it is inside the episode). */
export function pauseInstant(sim_start: number, sim_end: number, day: number): number {
  const days = episodeDays(sim_start, sim_end);
  if (!Number.isInteger(day) || day < 1 || day >= days)
    throw new ConfigError(
      `--stop-after-day ${day}: the episode has ${days} days; a run pauses after day 1..${days - 1} (a later stop is the run's end)`,
    );
  return dayStart(sim_start, day + 1);
}

/** `checkpoint.json` of a paused run (beside `results.partial.json`; no results.json yet). */
export const CheckpointSchema = z
  .object({
    /** the last simulated day the run completed (1-based) */
    paused_after_day: z.number().int().positive(),
    /** the instant the run stopped at: the start of the next day (ISO) */
    paused_at: z.string(),
    /** ledger lines written up to the pause */
    ledger_lines: z.number().int().nonnegative(),
  })
  .strict();
export type Checkpoint = z.infer<typeof CheckpointSchema>;

export const CHECKPOINT_FILE = "checkpoint.json";
export const PARTIAL_RESULTS_FILE = "results.partial.json";

const writeJsonAtomic = (path: string, value: unknown) => {
  writeFileSync(`${path}.tmp`, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
};

/** Writes the pause record: the partial results first, then the checkpoint that names them. */
export function writeCheckpoint(runDir: string, c: { day: number; at: number; ledgerLines: number }, partial: unknown) {
  writeJsonAtomic(join(runDir, PARTIAL_RESULTS_FILE), partial);
  const checkpoint: Checkpoint = {
    paused_after_day: c.day,
    paused_at: isoInstant(c.at),
    ledger_lines: c.ledgerLines,
  };
  writeJsonAtomic(join(runDir, CHECKPOINT_FILE), checkpoint);
  return checkpoint;
}

/** The checkpoint of a paused run directory, or null; a bad file is named. */
export function readCheckpoint(runDir: string): Checkpoint | null {
  const path = join(runDir, CHECKPOINT_FILE);
  if (!existsSync(path)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new ConfigError(`${path}: not readable JSON (${(err as Error).message})`);
  }
  const parsed = CheckpointSchema.safeParse(raw);
  if (!parsed.success)
    throw new ConfigError(
      `${path}: not a checkpoint: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`,
    );
  return parsed.data;
}

/** A finished run keeps no pause record. */
export function clearCheckpoint(runDir: string): void {
  rmSync(join(runDir, CHECKPOINT_FILE), { force: true });
  rmSync(join(runDir, PARTIAL_RESULTS_FILE), { force: true });
}

/** Thrown by the kernel advance hook when the clock reaches the pause instant (caught by the runner). */
export class RunPaused extends Error {
  constructor(readonly at: number) {
    super(`run paused at ${isoInstant(at)}`);
    this.name = "RunPaused";
  }
}
