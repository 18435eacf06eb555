import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import { collectValues } from "./arg-parsers.js";

interface BuildFlags {
  data?: string;
  raw?: string;
  cache: string;
  recipes?: string[];
}

/**
 * `relive data build RECIPE`: builds (or finds in the cache) the world of a recipe file, or of the
 * recipe on the search path whose world name or episode id is RECIPE; prints rejected rows, the
 * world directory and hash, and how to run the episode it defines.
 */
export function registerDataBuildCommand(data: Command): void {
  data
    .command("build <recipe>")
    .description(
      "build a world from a recipe (RECIPE.yaml: sources with their importer, streams, window, the episode it defines; format in recipes/README.md), " +
        "or from the recipe whose world name or episode id is given (searched in --recipes DIRs, relive.config recipe_dirs, the shipped recipes/: " +
        "`relive data recipes` lists them), or forecastbench-<due>[-human] for any set under <data>/forecastbench/. " +
        "Cached by the recipe's content, its input files' sha256 and the importer version; a bad recipe or input exits 2 naming file and field, and leaves no world",
    )
    .option(
      "--data <dir>",
      "data root for recipes without data_dir: relative source paths are found there (default $RELIVE_RAW_DIR or ../shared/data/raw)",
    )
    .option("--raw <dir>", "the older name of --data")
    .option("--recipes <dir>", "a recipe folder searched first when RECIPE is a name (repeatable)", collectValues)
    .option("--cache <dir>", "cache for built worlds", process.env.RELIVE_CACHE_DIR ?? ".relive-cache")
    .action(async (ref: string, o: BuildFlags) => {
      const [
        { findRecipe },
        { recipeSearchPath },
        { defaultRawDir, ensureRecipeWorldAsync },
        { RecipeError },
        { checkRecipeEpisodeTasks },
        reg,
      ] = await Promise.all([
        import("../recipes/recipe-catalog.js"),
        import("../recipes/recipe-dirs.js"),
        import("../recipes/recipe-build.js"),
        import("../recipes/recipe-file.js"),
        import("../run/recipe-episodes.js"),
        import("../tasks/registry.js"),
      ]);
      const flag = o.data ?? o.raw;
      const dataDir = flag !== undefined ? resolve(flag) : defaultRawDir();
      const recipeDirs = (o.recipes ?? []).map((d) => resolve(d));
      const r = findRecipe(ref, { dataDir, recipeDirs });
      if (!r)
        throw new RecipeError(
          `no recipe "${ref}": give a recipe file (RECIPE.yaml), or the world name / episode id of a recipe in --recipes DIR, relive.config recipe_dirs or the shipped recipes/`,
        );
      // the episode's tasks and default params are checked before anything is built
      checkRecipeEpisodeTasks(r, (id) => reg.allTasks().find((t) => t.id === id));
      const say = (m: string) => process.stderr.write(`${m}\n`);
      const w = await ensureRecipeWorldAsync(
        r,
        { cacheDir: resolve(o.cache), ...(flag !== undefined ? { dataDir } : {}) },
        say,
      );
      if (w.built) {
        const { formatQuestionLint, readQuestionLint } = await import("../world/question-lint.js");
        const lint = readQuestionLint(w.dir);
        if (lint !== null) say(formatQuestionLint(lint));
        if (w.parts) {
          const { formatPartReports } = await import("../recipes/recipe-compose.js");
          process.stdout.write("  per source:\n");
          for (const line of formatPartReports(w.parts)) process.stdout.write(`    ${line}\n`);
        }
        for (const s of w.manifest.sources)
          process.stdout.write(
            `  ${s.path}: ${s.rows} row(s), ${s.rejected} rejected (sha256 ${s.sha256.slice(0, 12)}…)\n`,
          );
        for (const x of w.rejected.slice(0, 20)) process.stdout.write(`  rejected ${x.file}:${x.line}: ${x.reason}\n`);
        if (w.rejected.length > 20) process.stdout.write(`  … and ${w.rejected.length - 20} more rejected row(s)\n`);
        for (const n of w.notes) process.stdout.write(`  ${n}\n`);
      }
      const streams = Object.entries(w.manifest.streams)
        .filter(([, n]) => n > 0)
        .map(([k, n]) => `${k} ${n}`)
        .join(", ");
      process.stdout.write(
        `world ${r.recipe.name} ${w.built ? "built" : "cached"}: ${w.dir}\n  hash ${w.manifest.hash}; ${streams}\n`,
      );
      const e = r.recipe.episode;
      if (e) {
        // a recipe outside the shipped folder and the project's recipe_dirs is found with --recipes
        const own = dirname(r.file);
        const extra = recipeSearchPath().includes(own) ? "" : ` --recipes ${own}`;
        for (const t of Object.keys(e.tasks))
          process.stdout.write(`  episode ${e.id}: relive run --task ${t} --episode ${e.id}${extra}\n`);
      }
    });
}

/** `relive data recipes`: the recipes on the search path, their worlds and episodes. */
export function registerDataRecipesCommand(data: Command): void {
  data
    .command("recipes")
    .description(
      "list the world recipes found (--recipes DIRs, relive.config recipe_dirs, then the shipped recipes/; the first of a name wins): world, episode, tasks, file",
    )
    .option("--recipes <dir>", "a recipe folder searched first (repeatable)", collectValues)
    .option("--json", "machine-readable")
    .action(async (o: { recipes?: string[]; json?: boolean }) => {
      const { listRecipes } = await import("../recipes/recipe-catalog.js");
      const rows = listRecipes((o.recipes ?? []).map((d) => resolve(d))).map((r) => {
        const e = r.recipe.episode;
        const w = e?.window ?? r.recipe.window;
        return {
          world: r.recipe.name,
          episode: e?.id ?? null,
          tasks: e ? Object.keys(e.tasks) : [],
          window: w ? { start: new Date(w.start).toISOString(), end: new Date(w.end).toISOString() } : null,
          importers: [...new Set(r.recipe.sources.map((s) => s.importer))],
          file: r.file,
        };
      });
      if (o.json) return void process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      for (const r of rows)
        process.stdout.write(
          `${r.world}${r.episode ? ` → episode ${r.episode} (${r.tasks.join(", ")})` : ""}` +
            `${r.window ? ` ${r.window.start.slice(0, 10)} → ${r.window.end.slice(0, 10)}` : ""} [${r.importers.join(", ")}]\n  ${r.file}\n`,
        );
    });
}
