import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { markLastUse } from "../common/cache-upkeep.js";
import { defaultRawDir, ensureRecipeWorld } from "../recipes/recipe-build.js";
import { findRecipe } from "../recipes/recipe-catalog.js";
import { loadRecipe, RecipeError } from "../recipes/recipe-file.js";
import { ensureSynthWorld } from "../synth/synth-world.js";
import type { Episode } from "../tasks/task.js";
import { formatQuestionLint, readQuestionLint } from "../world/question-lint.js";
import { WORLD_JSON } from "../world/world-builder.js";

export { defaultRawDir } from "../recipes/recipe-build.js";

export interface WorldLocation {
  cacheDir: string;
  /** the data root of recipes without `data_dir` (default: $RELIVE_RAW_DIR, else ../shared/data/raw) */
  rawDir?: string;
  /** recipe folders searched before the project's `recipe_dirs` and the shipped recipes (`--recipes DIR`) */
  recipeDirs?: string[];
}

function printLint(dir: string, log?: (msg: string) => void): void {
  const lint = readQuestionLint(dir);
  if (lint !== null) log?.(formatQuestionLint(lint));
}

/**
 * Builds (or finds in the cache) the real-data world a recipe names: a world name or episode id
 * on the recipe search path, a recipe file, or a name made from a set's file names
 * (src/recipes/implicit-recipes.ts). Returns its directory.
 */
export function ensureRealWorld(ref: string, loc: WorldLocation, log?: (msg: string) => void): string {
  const dataDir = loc.rawDir ?? defaultRawDir();
  const r = findRecipe(ref, { dataDir, ...(loc.recipeDirs ? { recipeDirs: loc.recipeDirs } : {}) });
  if (!r)
    throw new RecipeError(
      `no recipe builds world "${ref}": give a recipe file, or the world name / episode id of a recipe in a recipe folder (--recipes DIR, relive.config recipe_dirs, or the shipped recipes/)`,
    );
  const w = ensureRecipeWorld(r, { cacheDir: loc.cacheDir, ...(loc.rawDir ? { dataDir: loc.rawDir } : {}) }, log);
  if (w.built) printLint(w.dir, log);
  else markLastUse(join(w.dir, WORLD_JSON));
  return w.dir;
}

/** The world directory of a run: an explicit dir, a recipe episode's world, or the synthetic world. */
export function resolveWorldDir(
  world: { seed: number } | { dir: string },
  episode: Episode,
  window: { start: number; end: number },
  loc: WorldLocation,
  log?: (msg: string) => void,
): string {
  if ("dir" in world) {
    const dir = resolve(world.dir);
    if (!existsSync(join(dir, "world.json")))
      throw new Error(
        `world.dir ${dir} holds no world.json: build a world there first (\`relive data build\` or \`relive data import\`)`,
      );
    return dir;
  }
  switch (episode.world.kind) {
    case "synth":
      return ensureSynthWorld(
        join(loc.cacheDir, "synth"),
        { seed: world.seed, start: window.start, end: window.end },
        log,
      );
    case "recipe": {
      const w = ensureRecipeWorld(
        loadRecipe(episode.world.recipe),
        { cacheDir: loc.cacheDir, ...(loc.rawDir ? { dataDir: loc.rawDir } : {}) },
        log,
      );
      if (w.built) printLint(w.dir, log);
      else markLastUse(join(w.dir, WORLD_JSON));
      return w.dir;
    }
    case "real":
      throw new Error(
        `episode ${episode.name} is the world of a directory (${episode.world.builder}): pass it as world.dir / --world`,
      );
  }
}
