import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { locateSources } from "../ingest/rebuild-world.js";
import { RECIPE_BUILD_JSON, readLabelsExport } from "../world/labels-export.js";
import type { WorldManifest } from "../world/types.js";
import { buildRecipeIntoAsync, type RecipeBuildRecord, RecipeBuildRecord as RecordSchema } from "./recipe-build.js";
import { type LoadedRecipe, parseRecipe, RecipeError } from "./recipe-file.js";
import { mapSourcePaths } from "./recipe-schema.js";

/** Whether a label-only export is of a recipe world (it carries the recipe it was built from). */
export const isRecipeExport = (exportDir: string) => existsSync(join(exportDir, RECIPE_BUILD_JSON));

/** An absolute input path as a path under the rebuild's data root (a relative one stays as written). */
const underRoot = (p: string) => (isAbsolute(p) ? p.replace(/^[/\\]+/, "") : p);

/**
 * Rebuilds the full world of a label-only export of a recipe world (any importer family) from the
 * raw files under `rawDir`, as pulled: each source file is found by name anywhere below `rawDir`
 * and checked against the manifest's sha256 (ingest/rebuild-world.ts `locateSources`), the recipe
 * the export carries is validated again and re-run over those files (linked into a temp data root
 * under their recipe paths), and the rebuilt world's hash must equal the export's, else the
 * rebuilt world is removed and the call throws.
 */
export async function rebuildRecipeWorld(
  exportDir: string,
  rawDir: string,
  targetDir: string,
): Promise<{ manifest: WorldManifest; files: string[] }> {
  const { manifest } = readLabelsExport(exportDir);
  const recFile = join(exportDir, RECIPE_BUILD_JSON);
  let rec: RecipeBuildRecord;
  try {
    const p = RecordSchema.safeParse(JSON.parse(readFileSync(recFile, "utf8")));
    if (!p.success) throw new Error(p.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
    rec = p.data;
  } catch (e) {
    throw new RecipeError(`${recFile}: not a recipe build record (${(e as Error).message})`);
  }
  const given = parseRecipe(rec.recipe, `${recFile} (recipe)`, exportDir);
  if (existsSync(targetDir)) throw new Error(`rebuild target ${targetDir} already exists: choose a new directory`);
  const files = await locateSources(manifest, rawDir);
  const bySha = new Map(manifest.sources.map((s, i) => [s.sha256, files[i] as string]));
  mkdirSync(dirname(targetDir), { recursive: true });
  const root = mkdtempSync(join(dirname(targetDir), ".rebuild-data-"));
  try {
    for (const inp of rec.inputs) {
      const found = bySha.get(inp.sha256);
      if (found === undefined)
        throw new RecipeError(`${recFile}: input ${inp.path} (sha256 ${inp.sha256}) is not a source of the manifest`);
      const link = join(root, underRoot(inp.path));
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(found, link);
    }
    const { data_dir: _d, ...rest } = given.recipe;
    const r: LoadedRecipe = {
      ...given,
      recipe: { ...rest, sources: rest.sources.map((s) => mapSourcePaths(s, underRoot)) },
    };
    const built = await buildRecipeIntoAsync(r, root, targetDir);
    if (built.manifest.hash !== manifest.hash) {
      rmSync(targetDir, { recursive: true, force: true });
      throw new Error(
        `rebuilt world "${manifest.name}" has hash ${built.manifest.hash}, the export names ${manifest.hash}: the raw files or the importer differ (nothing kept)`,
      );
    }
    writeFileSync(join(targetDir, RECIPE_BUILD_JSON), `${JSON.stringify(rec, null, 2)}\n`);
    return { manifest: built.manifest, files };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
