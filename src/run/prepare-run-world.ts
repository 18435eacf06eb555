import { ensureRecipeWorldAsync } from "../recipes/recipe-build.js";
import { loadRecipe } from "../recipes/recipe-file.js";
import { formatQuestionLint, readQuestionLint } from "../world/question-lint.js";
import type { RunConfig } from "./config.js";
import { resolveTaskEpisode } from "./resolve-run.js";
import type { WorldLocation } from "./world-resolver.js";

/**
 * The asynchronous step before the synchronous `resolveRun`: builds (or finds in the cache) the
 * recipe world of the run's episode with the recipe's importer awaited, so the streamed importers
 * (WARC, Polymarket, Reddit, JSONL news, events) can build recipe worlds; `resolveRun` then finds
 * the world. Every entry point awaits it (run, resume, restart, rescore, replay, grid, grid job,
 * mcp / outside agents, the library's `run()`). A world directory or a synthetic world needs no
 * step (the synthetic cache is synchronous); bad task or episode names are left to `resolveRun`,
 * which reports them with the rest of the config.
 */
export async function prepareRunWorld(
  config: RunConfig,
  o: WorldLocation & { log?: ((m: string) => void) | undefined },
): Promise<void> {
  if ("dir" in config.world) return;
  let episode: ReturnType<typeof resolveTaskEpisode>["episode"];
  try {
    episode = resolveTaskEpisode(config, o).episode;
  } catch {
    return; // resolveRun reports it
  }
  if (episode.world.kind !== "recipe") return;
  const w = await ensureRecipeWorldAsync(
    loadRecipe(episode.world.recipe),
    { cacheDir: o.cacheDir, ...(o.rawDir ? { dataDir: o.rawDir } : {}) },
    o.log,
  );
  if (w.built) {
    const lint = readQuestionLint(w.dir);
    if (lint !== null) o.log?.(formatQuestionLint(lint));
  }
}
