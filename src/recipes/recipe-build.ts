import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, isAbsolute, join, resolve } from "node:path";
import { z } from "zod";
import { canonicalJson, sha256Hex } from "../common/canonical-json.js";
import { isoDay } from "../common/time.js";
import {
  buildCandleWorld,
  CANDLE_WORLD_BUILDER,
  CANDLE_WORLD_BUILDER_VERSION,
  type CandleSource,
} from "../ingest/candle-world.js";
import { buildEdgarWorld, EDGAR_WORLD_BUILDER, EDGAR_WORLD_BUILDER_VERSION } from "../ingest/edgar-world.js";
import {
  buildForecastBenchWorld,
  FORECASTBENCH_BUILDER,
  FORECASTBENCH_BUILDER_VERSION,
} from "../ingest/forecastbench.js";
import { fileSha256Sync } from "../ingest/import-report.js";
import type { RejectedRow } from "../ingest/kraken-ohlcvt.js";
import { RECIPE_BUILD_JSON } from "../world/labels-export.js";
import type { WorldManifest } from "../world/types.js";
import { WORLD_JSON } from "../world/world-builder.js";
import { readWorldManifest } from "../world/world-store.js";
import { type LoadedRecipe, RecipeError } from "./recipe-file.js";
import { type ImporterFamily, importerFamily, type Recipe, type RecipeSource, sourcePaths } from "./recipe-schema.js";

/** The raw data root used when neither the recipe (`data_dir`) nor the caller (`--data`) names one. */
export const defaultRawDir = () => resolve(process.env.RELIVE_RAW_DIR ?? join("..", "shared", "data", "raw"));

export interface RecipeBuildLocation {
  cacheDir: string;
  /** `--data DIR` / `--raw DIR`: the root of relative source paths of recipes without `data_dir` */
  dataDir?: string;
}

/**
 * Where a recipe's relative source paths are found: its own `data_dir` (relative to the recipe
 * file), else the caller's data dir (`--data` / `--raw`), else $RELIVE_RAW_DIR, else
 * ../shared/data/raw. Absolute source paths are used as written.
 */
export function recipeDataRoot(r: LoadedRecipe, dataDir?: string): string {
  if (r.recipe.data_dir !== undefined) return resolve(r.baseDir, r.recipe.data_dir);
  return dataDir !== undefined ? resolve(dataDir) : defaultRawDir();
}

/** The importer (builder) that writes a recipe's world, and its version: part of the cache key. */
export function recipeImporter(recipe: Recipe): { family: ImporterFamily; builder: string; version: string } {
  const family = importerFamily((recipe.sources[0] as RecipeSource).importer);
  switch (family) {
    case "candles":
      return { family, builder: CANDLE_WORLD_BUILDER, version: CANDLE_WORLD_BUILDER_VERSION };
    case "edgar":
      return { family, builder: EDGAR_WORLD_BUILDER, version: EDGAR_WORLD_BUILDER_VERSION };
    case "forecastbench":
      return { family, builder: FORECASTBENCH_BUILDER, version: FORECASTBENCH_BUILDER_VERSION };
  }
}

export interface RecipeInput {
  /** as written in the recipe */
  path: string;
  abs: string;
  sha256: string;
}

/** What defines a recipe's world: everything but the episode and the descriptions. */
function worldContent(recipe: Recipe) {
  const { episode: _e, description: _d, data_dir: _dd, checksums: _c, ...rest } = recipe;
  return rest;
}

/** The cache identity of a recipe's world without its inputs (to find a world built before, when the inputs are gone). */
export function recipeContentKey(recipe: Recipe): string {
  return sha256Hex(
    canonicalJson({ recipe_format: 1, content: worldContent(recipe), importer: recipeImporter(recipe) }),
  );
}

/** The cache identity: the recipe's resolved world content, every input file's sha256 and the importer version. */
export function recipeWorldKey(recipe: Recipe, inputs: readonly RecipeInput[]): string {
  return sha256Hex(
    canonicalJson({
      recipe_format: 1,
      content: worldContent(recipe),
      inputs: inputs.map((i) => ({ path: i.path, sha256: i.sha256 })),
      importer: recipeImporter(recipe),
    }),
  );
}

const forecastBenchHint = (paths: readonly string[]): string => {
  const due = paths.map((p) => /(\d{4}-\d{2}-\d{2})(-llm|-human|_resolution_set)\.json$/.exec(basename(p))?.[1]);
  const d = due.find((x) => x !== undefined);
  return d ? ` (fetch them with \`relive data pull forecastbench --due ${d}\`)` : "";
};

/**
 * The input files of a recipe under its data root, with their sha256; refuses naming every
 * missing file (and the source field naming it) or checksum mismatch.
 */
export function recipeInputs(r: LoadedRecipe, root: string): RecipeInput[] {
  const abs = (p: string) => (isAbsolute(p) ? p : join(root, p));
  const missing: string[] = [];
  r.recipe.sources.forEach((s, i) => {
    const gone = sourcePaths([s]).filter((p) => !existsSync(abs(p)));
    if (gone.length === 0) return;
    if (s.importer === "forecastbench")
      missing.push(
        `sources.${i}: ForecastBench files not found: ${gone.map(abs).join(", ")}${forecastBenchHint(gone)}`,
      );
    else missing.push(`sources.${i} (${s.importer}): not found: ${gone.map(abs).join(", ")}`);
  });
  if (missing.length)
    throw new RecipeError(
      `recipe ${r.file}: input files missing under the data root ${root}:\n${missing.map((m) => `  ${m}`).join("\n")}\n` +
        "point --data (or --raw, $RELIVE_RAW_DIR) at the folder holding them, or set data_dir in the recipe",
    );
  const inputs = sourcePaths(r.recipe.sources).map((p) => ({ path: p, abs: abs(p), sha256: fileSha256Sync(abs(p)) }));
  const bad = inputs.filter((i) => r.recipe.checksums[i.path] !== undefined && r.recipe.checksums[i.path] !== i.sha256);
  if (bad.length)
    throw new RecipeError(
      `recipe ${r.file}: checksums do not match:\n${bad
        .map(
          (b) =>
            `  checksums.${b.path}: the file ${b.abs} has sha256 ${b.sha256}, the recipe pins ${r.recipe.checksums[b.path]}`,
        )
        .join("\n")}\nfetch the pinned files again, or update the pin if the change is intended`,
    );
  return inputs;
}

/** Written beside world.json (RECIPE_BUILD_JSON): which recipe, inputs and importer built the world. */
export const RecipeBuildRecord = z.object({
  recipe_file: z.string(),
  name: z.string(),
  key: z.string(),
  content_key: z.string(),
  importer: z.object({ family: z.string(), builder: z.string(), version: z.string() }),
  inputs: z.array(z.object({ path: z.string(), sha256: z.string() })),
  /** the recipe as written */
  recipe: z.unknown(),
});
export type RecipeBuildRecord = z.infer<typeof RecipeBuildRecord>;

export const recipeWorldsDir = (cacheDir: string) => join(cacheDir, "worlds");
const worldDirName = (name: string, key: string) => `${name}-${key.slice(0, 16)}`;

export interface RecipeWorld {
  dir: string;
  manifest: WorldManifest;
  /** false: found in the cache */
  built: boolean;
  /** rows the importer rejected (built worlds only) */
  rejected: RejectedRow[];
  /** what the importer counted beyond rows (built worlds only) */
  notes: string[];
}

function buildInto(
  r: LoadedRecipe,
  root: string,
  target: string,
): { manifest: WorldManifest; rejected: RejectedRow[]; notes: string[] } {
  const recipe = r.recipe;
  const fam = recipeImporter(recipe).family;
  const window = recipe.window;
  switch (fam) {
    case "candles": {
      const sources = recipe.sources.map((s): CandleSource => {
        if (s.importer === "edgar" || s.importer === "forecastbench")
          throw new RecipeError(`recipe ${r.file}: sources: mixed importer families`);
        return {
          path: s.path,
          format: s.importer,
          venue: s.venue,
          symbol: s.symbol,
          interval: s.interval,
          ...(s.resample !== undefined ? { resampleMs: s.resample } : {}),
        };
      });
      const rep = buildCandleWorld(root, target, {
        name: recipe.name,
        window: window as { start: number; end: number },
        lookbackMs: recipe.lookback ?? 0,
        sources,
      });
      return { ...rep, notes: [] };
    }
    case "edgar": {
      const companies = recipe.sources.map((s) => {
        if (s.importer !== "edgar") throw new RecipeError(`recipe ${r.file}: sources: mixed importer families`);
        return {
          submissions: s.submissions,
          pages: s.pages,
          ...(s.companyfacts !== undefined ? { companyfacts: s.companyfacts } : {}),
        };
      });
      const rep = buildEdgarWorld(root, target, {
        name: recipe.name,
        builder: EDGAR_WORLD_BUILDER,
        builder_version: EDGAR_WORLD_BUILDER_VERSION,
        window: window as { start: number; end: number },
        companies,
      });
      const notes = [
        ...(rep.factsBoundedByFiledDate > 0
          ? [
              `${rep.factsBoundedByFiledDate} facts visible from their filing date's 22:00 New York (filing not in the submissions)`,
            ]
          : []),
        ...rep.withoutFacts.map((c) => `CIK ${c}: no companyfacts (10-Q/10-K values not scorable, 8-K duties scored)`),
      ];
      return { manifest: rep.manifest, rejected: rep.rejected, notes };
    }
    case "forecastbench": {
      const s = recipe.sources[0] as RecipeSource;
      if (s.importer !== "forecastbench") throw new RecipeError(`recipe ${r.file}: sources: mixed importer families`);
      const abs = (p: string) => (isAbsolute(p) ? p : join(root, p));
      const rep = buildForecastBenchWorld(
        { questionSet: abs(s.questions), resolutionSet: abs(s.resolutions) },
        target,
        {
          name: recipe.name,
        },
      );
      const w = rep.manifest.window;
      if (window && (window.start !== w.start || window.end !== w.end))
        throw new RecipeError(
          `recipe ${r.file}: window: the set spans ${isoDay(w.start)} → ${isoDay(w.end)} (its due date through the day after its last resolution); write that window or leave it out`,
        );
      const ew = recipe.episode?.window;
      if (ew && (ew.start < w.start || ew.end > w.end))
        throw new RecipeError(
          `recipe ${r.file}: episode.window: must lie inside the set's window ${isoDay(w.start)} → ${isoDay(w.end)}`,
        );
      const rejected = rep.rows.rejected.map((x) => ({ file: x.file, line: x.index, reason: x.reason }));
      return { manifest: rep.manifest, rejected, notes: [] };
    }
  }
}

/**
 * Builds a recipe's world into `target` (a new directory) from the data under `root` and checks
 * its declared streams; on any refusal nothing is left at `target` and the error names the recipe.
 */
export function buildRecipeInto(
  r: LoadedRecipe,
  root: string,
  target: string,
): { manifest: WorldManifest; rejected: RejectedRow[]; notes: string[] } {
  let built: ReturnType<typeof buildInto>;
  try {
    built = buildInto(r, root, target);
  } catch (e) {
    if (e instanceof RecipeError) throw e;
    throw new RecipeError(
      `recipe ${r.file}: the ${recipeImporter(r.recipe).family} importer refused the sources: ${(e as Error).message}`,
    );
  }
  const empty = r.recipe.streams.filter((k) => !((built.manifest.streams[k] ?? 0) > 0));
  if (empty.length) {
    rmSync(target, { recursive: true, force: true });
    throw new RecipeError(
      `recipe ${r.file}: streams: the built world has no rows of ${empty.join(", ")} ` +
        `(its streams with rows: ${
          Object.entries(built.manifest.streams)
            .filter(([, n]) => n > 0)
            .map(([k]) => k)
            .join(", ") || "none"
        }); fix the sources or the streams list (nothing was kept)`,
    );
  }
  return built;
}

/** A world of this recipe built before from the same recipe content (used only when the inputs are gone). */
function cachedWithoutInputs(r: LoadedRecipe, cacheDir: string): string[] {
  const dir = recipeWorldsDir(cacheDir);
  if (!existsSync(dir)) return [];
  const key = recipeContentKey(r.recipe);
  return readdirSync(dir)
    .filter((n) => n.startsWith(`${r.recipe.name}-`) && existsSync(join(dir, n, RECIPE_BUILD_JSON)))
    .filter((n) => {
      const rec = RecipeBuildRecord.safeParse(JSON.parse(readFileSync(join(dir, n, RECIPE_BUILD_JSON), "utf8")));
      return rec.success && rec.data.content_key === key;
    })
    .map((n) => join(dir, n));
}

/**
 * The world of a recipe, from the cache or built: cached under `<cache>/worlds/<name>-<key>` where
 * the key hashes the recipe's resolved world content (not its episode or descriptions), every
 * input file's sha256 and the importer's version, so an edited recipe, a changed file or a new
 * importer version builds anew. The build goes to a temp dir beside the cache entry; only a world
 * that was built whole and fills every declared stream is renamed into place (never a partial
 * world: a failed build leaves nothing). When the input files are gone, a world built before from
 * the same recipe content is used (one only; several is an error).
 */
export function ensureRecipeWorld(r: LoadedRecipe, loc: RecipeBuildLocation, log?: (m: string) => void): RecipeWorld {
  const root = recipeDataRoot(r, loc.dataDir);
  let inputs: RecipeInput[];
  try {
    inputs = recipeInputs(r, root);
  } catch (e) {
    const prior = cachedWithoutInputs(r, loc.cacheDir);
    if (prior.length === 1 && !(e instanceof RecipeError && /checksums/.test(e.message))) {
      log?.(`world ${r.recipe.name}: input files not found under ${root}; using the world built before at ${prior[0]}`);
      return {
        dir: prior[0] as string,
        manifest: readWorldManifest(prior[0] as string),
        built: false,
        rejected: [],
        notes: [],
      };
    }
    throw e;
  }
  const key = recipeWorldKey(r.recipe, inputs);
  const worlds = recipeWorldsDir(loc.cacheDir);
  const dir = join(worlds, worldDirName(r.recipe.name, key));
  if (existsSync(join(dir, WORLD_JSON)))
    return { dir, manifest: readWorldManifest(dir), built: false, rejected: [], notes: [] };
  mkdirSync(worlds, { recursive: true });
  const tmp = join(worlds, `.tmp-${worldDirName(r.recipe.name, key)}-${process.pid}-${randomBytes(4).toString("hex")}`);
  const target = join(tmp, "world");
  log?.(`building world ${r.recipe.name} from ${r.file} (data: ${root}) …`);
  try {
    mkdirSync(tmp);
    const built = buildRecipeInto(r, root, target);
    const record: RecipeBuildRecord = {
      recipe_file: r.file,
      name: r.recipe.name,
      key,
      content_key: recipeContentKey(r.recipe),
      importer: recipeImporter(r.recipe),
      inputs: inputs.map((i) => ({ path: i.path, sha256: i.sha256 })),
      recipe: r.input,
    };
    writeFileSync(join(target, RECIPE_BUILD_JSON), `${JSON.stringify(record, null, 2)}\n`);
    if (existsSync(join(dir, WORLD_JSON)))
      log?.(`world ${r.recipe.name}: built meanwhile by another process; using it`);
    else renameSync(target, dir);
    return { dir, manifest: readWorldManifest(dir), built: true, rejected: built.rejected, notes: built.notes };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
