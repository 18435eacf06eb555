import { resolve } from "node:path";
import { parseRunConfig, type RunConfig, type RunConfigInput } from "./config.js";
import { type RunOptions, type RunOutcome, runFromConfig } from "./runner.js";

/** Where a library run keeps its files; every field defaults like the CLI's. */
export type EpisodeOptions = Partial<RunOptions>;

/**
 * Runs one episode from a run config (the library form of `relive run`): the config is validated
 * with the same schema as every entry point; runs go to `runs/` and built worlds to
 * `.relive-cache/` unless the options say otherwise. A finished run with the same identity is
 * returned as it is (`cached: true`).
 */
export async function runEpisode(config: RunConfigInput | RunConfig, o: EpisodeOptions = {}): Promise<RunOutcome> {
  const cfg = parseRunConfig(config, "runEpisode config");
  return runFromConfig(cfg, {
    ...o,
    runsDir: resolve(o.runsDir ?? process.env.RELIVE_RUNS_DIR ?? "runs"),
    cacheDir: resolve(o.cacheDir ?? process.env.RELIVE_CACHE_DIR ?? ".relive-cache"),
  });
}
