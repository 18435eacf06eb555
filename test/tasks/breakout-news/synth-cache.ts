import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureSynthWorld } from "../../../src/synth/synth-world.js";

/** Shared with the daily-digest anchors: synthetic worlds (seed 1) are built once per machine. */
export const SYNTH_CACHE = join(tmpdir(), "relive-test-synth-cache");

/** The seed-1 synthetic world of a window, from the shared cache (built on first use). */
export function synthWorldDir(start: number, end: number): string {
  mkdirSync(SYNTH_CACHE, { recursive: true });
  return ensureSynthWorld(SYNTH_CACHE, { seed: 1, start, end });
}
