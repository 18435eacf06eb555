import { mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseRunConfig, type RunConfigInput } from "../../src/run/config.js";
import { type RunOptions, runFromConfig } from "../../src/run/runner.js";
import { SHARED_SYNTH_CACHE_ENV } from "../support/shared-synth-cache.js";

/**
 * One world cache per test process; its synthetic worlds (`<cache>/synth`) are those of the whole
 * `vitest run` (test/support/shared-synth-cache.ts), so each window is generated once per run.
 */
export const CACHE_DIR = mkdtempSync(join(tmpdir(), "relive-cache-"));
const sharedSynth = process.env[SHARED_SYNTH_CACHE_ENV];
if (sharedSynth) symlinkSync(sharedSynth, join(CACHE_DIR, "synth"), "dir");
export const REPO = resolve(import.meta.dirname, "../..");
export const RAW_DIR = resolve(REPO, "../shared/data/raw");

export const freshRunsDir = () => mkdtempSync(join(tmpdir(), "relive-runs-"));

export const options = (runsDir = freshRunsDir()): RunOptions => ({
  runsDir,
  cacheDir: CACHE_DIR,
  rawDir: RAW_DIR,
  allowOracle: true,
});

/** A short daily-digest window: 5 simulated days. */
export const DIGEST_5D = { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-06T00:00:00Z" };
/** A short price-check window: 3 simulated days. */
export const PRICE_3D = { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-04T00:00:00Z" };

export async function run(cfg: RunConfigInput, o: RunOptions = options()) {
  return runFromConfig(parseRunConfig(cfg), o);
}
