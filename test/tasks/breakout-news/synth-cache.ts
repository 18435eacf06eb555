import { ensureSynthWorld } from "../../../src/synth/synth-world.js";
import { testSynthCache } from "../../support/shared-synth-cache.js";

/** The shared synthetic-world cache (test/support/shared-synth-cache.ts): seed-1 worlds are built once per test run. */
export const SYNTH_CACHE = testSynthCache();

/** The seed-1 synthetic world of a window, from the shared cache (built on first use). */
export function synthWorldDir(start: number, end: number): string {
  return ensureSynthWorld(SYNTH_CACHE, { seed: 1, start, end });
}
