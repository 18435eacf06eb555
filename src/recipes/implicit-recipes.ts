import { join } from "node:path";
import { FORECASTBENCH_DIR } from "../ingest/forecastbench.js";
import { parseForecastBenchBuilder, questionSetFileName, resolutionSetFileName } from "../ingest/forecastbench-sets.js";
import { type LoadedRecipe, parseRecipe } from "./recipe-file.js";

/**
 * Recipes made from file names instead of a recipe file, so a set fetched by `relive data pull`
 * builds at once: the world name `forecastbench-<due>[-human]` is the ForecastBench set of that
 * due date under `<data>/forecastbench/` (`<due>-llm.json` or `<due>-human.json` with
 * `<due>_resolution_set.json`). Such a world defines no episode: write a recipe file to run it.
 * A recipe file of the same world name wins (the catalog looks there first).
 */
export function implicitRecipe(name: string, dataDir: string): LoadedRecipe | null {
  const fb = parseForecastBenchBuilder(name);
  if (!fb) return null;
  const where = join(dataDir, FORECASTBENCH_DIR);
  const loaded = parseRecipe(
    {
      recipe: 1,
      name,
      description: `ForecastBench ${fb.kind} question set due ${fb.due} with its resolution set (found by file name)`,
      streams: ["question"],
      sources: [
        {
          importer: "forecastbench",
          questions: `${FORECASTBENCH_DIR}/${questionSetFileName(fb.due, fb.kind)}`,
          resolutions: `${FORECASTBENCH_DIR}/${resolutionSetFileName(fb.due)}`,
        },
      ],
    },
    `(implicit recipe of ${name}: the set's files under ${where})`,
    dataDir,
  );
  return { ...loaded, implicit: true };
}
