import { existsSync, statSync } from "node:fs";
import { implicitRecipe } from "./implicit-recipes.js";
import { recipeSearchPath, SHIPPED_RECIPE_DIR } from "./recipe-dirs.js";
import { type LoadedRecipe, loadRecipe, RecipeError, recipeFilesIn } from "./recipe-file.js";

const cache = new Map<string, { mtimeMs: number; size: number; loaded: LoadedRecipe }>();

/** A recipe file, read once per content change (listing episodes parses every recipe). */
function loadCached(file: string): LoadedRecipe {
  const st = statSync(file);
  const hit = cache.get(file);
  if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.loaded;
  const loaded = loadRecipe(file);
  cache.set(file, { mtimeMs: st.mtimeMs, size: st.size, loaded });
  return loaded;
}

/** Every recipe of the search path, in search order; a bad recipe file is an error naming it. */
export function listRecipes(extra: readonly string[] = []): LoadedRecipe[] {
  const out: LoadedRecipe[] = [];
  for (const dir of recipeSearchPath(extra)) {
    if (dir === SHIPPED_RECIPE_DIR && !existsSync(dir)) continue;
    const inDir = recipeFilesIn(dir).map(loadCached);
    for (const [i, a] of inDir.entries())
      for (const b of inDir.slice(i + 1)) {
        if (a.recipe.name === b.recipe.name)
          throw new RecipeError(`recipes ${a.file} and ${b.file} both build world "${a.recipe.name}": rename one`);
        const ea = a.recipe.episode;
        const eb = b.recipe.episode;
        if (ea && eb && ea.id === eb.id) {
          const both = Object.keys(ea.tasks).filter((t) => t in eb.tasks);
          if (both.length)
            throw new RecipeError(
              `recipes ${a.file} and ${b.file} both define episode "${ea.id}" for ${both.join(", ")}: rename one`,
            );
        }
      }
    out.push(...inDir);
  }
  return out;
}

/** The recipes whose episode serves `task`, first per episode id (search order). */
export function recipeEpisodesFor(task: string, extra: readonly string[] = []): LoadedRecipe[] {
  const seen = new Set<string>();
  const out: LoadedRecipe[] = [];
  for (const r of listRecipes(extra)) {
    const e = r.recipe.episode;
    if (!e || !(task in e.tasks) || seen.has(e.id)) continue;
    seen.add(e.id);
    out.push(r);
  }
  return out;
}

/**
 * The recipe `ref` names: a recipe file path, else the world name or episode id of a recipe on the
 * search path, else a world name made from a set's file names under `dataDir`
 * (implicit-recipes.ts). Null when nothing matches.
 */
export function findRecipe(ref: string, o: { recipeDirs?: readonly string[]; dataDir: string }): LoadedRecipe | null {
  if (/\.(ya?ml|json)$/.test(ref) || (existsSync(ref) && statSync(ref).isFile())) return loadRecipe(ref);
  const all = listRecipes(o.recipeDirs);
  return (
    all.find((r) => r.recipe.name === ref) ??
    all.find((r) => r.recipe.episode?.id === ref) ??
    implicitRecipe(ref, o.dataDir)
  );
}
