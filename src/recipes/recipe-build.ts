import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
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
import { fileSha256Sync, ImportRefusedError } from "../ingest/import-report.js";
import type { RejectedRow } from "../ingest/kraken-ohlcvt.js";
import { RECIPE_BUILD_JSON } from "../world/labels-export.js";
import type { WorldManifest } from "../world/types.js";
import { WORLD_JSON } from "../world/world-builder.js";
import { readWorldManifest } from "../world/world-store.js";
import {
  buildComposedWorld,
  COMPOSED_BUILDER,
  COMPOSED_BUILDER_VERSION,
  type SourcePartReport,
} from "./recipe-compose.js";
import { type LoadedRecipe, RecipeError } from "./recipe-file.js";
import {
  type ImporterFamily,
  importerFamily,
  isAsyncFamily,
  type Recipe,
  type RecipeSource,
  recipeFamilies,
  sourcePaths,
} from "./recipe-schema.js";

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

/** The importer (builder) that writes a recipe's world and its version: part of the cache key. */
export interface RecipeImporterId {
  /** `composed`: the sources are of several families (recipe-compose.ts) */
  family: ImporterFamily | "composed";
  builder: string;
  version: string;
}

/** The importer of a recipe of a synchronous family (candles | edgar | forecastbench); null for the streamed ones. */
function syncImporter(family: ImporterFamily): RecipeImporterId | null {
  switch (family) {
    case "candles":
      return { family, builder: CANDLE_WORLD_BUILDER, version: CANDLE_WORLD_BUILDER_VERSION };
    case "edgar":
      return { family, builder: EDGAR_WORLD_BUILDER, version: EDGAR_WORLD_BUILDER_VERSION };
    case "forecastbench":
      return { family, builder: FORECASTBENCH_BUILDER, version: FORECASTBENCH_BUILDER_VERSION };
    case "warc":
    case "polymarket":
    case "reddit":
    case "news-jsonl":
    case "events":
      return null;
  }
}

/** The family of a recipe's first source (the family of every source unless the recipe is composed). */
export const recipeFamily = (recipe: Recipe): ImporterFamily =>
  importerFamily((recipe.sources[0] as RecipeSource).importer);

/** True when a recipe's sources are of several importer families: one world built by `buildComposedWorld`. */
export const isComposedRecipe = (recipe: Recipe): boolean => recipeFamilies(recipe.sources).length > 1;

/** `recipeFamily`, or `composed` for a recipe of several families. */
const recipeKind = (recipe: Recipe): ImporterFamily | "composed" =>
  isComposedRecipe(recipe) ? "composed" : recipeFamily(recipe);

/**
 * The importer of any recipe. The streamed importers (WARC, Polymarket, Reddit, JSONL news and
 * events) are loaded here, on demand (WARC pulls in Readability and linkedom), never by the
 * synchronous run path.
 */
export async function recipeImporterOf(recipe: Recipe): Promise<RecipeImporterId> {
  if (!isComposedRecipe(recipe)) return familyImporterOf(recipeFamily(recipe));
  // a composed world: every part's importer and version key it
  const parts = await Promise.all(recipeFamilies(recipe.sources).map(familyImporterOf));
  return {
    family: "composed",
    builder: COMPOSED_BUILDER,
    version: [COMPOSED_BUILDER_VERSION, ...parts.map((p) => `${p.builder}@${p.version}`)].join(" "),
  };
}

/** The importer of one family (the streamed ones loaded on demand). */
async function familyImporterOf(family: ImporterFamily): Promise<RecipeImporterId> {
  switch (family) {
    case "candles":
    case "edgar":
    case "forecastbench":
      return syncImporter(family) as RecipeImporterId;
    case "warc": {
      const m = await import("../ingest/warc-news.js");
      return { family, builder: m.WARC_NEWS_BUILDER, version: m.WARC_NEWS_BUILDER_VERSION };
    }
    case "polymarket": {
      const m = await import("../ingest/polymarket-world.js");
      return { family, builder: m.POLYMARKET_BUILDER, version: m.POLYMARKET_BUILDER_VERSION };
    }
    case "reddit": {
      const m = await import("../ingest/reddit-ndjson.js");
      return { family, builder: m.REDDIT_BUILDER, version: m.REDDIT_BUILDER_VERSION };
    }
    case "news-jsonl": {
      const m = await import("../ingest/news-jsonl.js");
      return { family, builder: m.NEWS_JSONL_BUILDER, version: m.NEWS_JSONL_BUILDER_VERSION };
    }
    case "events": {
      const m = await import("../ingest/events-jsonl.js");
      return { family, builder: m.EVENTS_BUILDER, version: m.EVENTS_BUILDER_VERSION };
    }
  }
}

/** The importer of a recipe of a synchronous family; a streamed family's recipe is refused (its build is asynchronous). */
export function recipeImporter(recipe: Recipe): RecipeImporterId {
  const family = recipeKind(recipe);
  const sync = family === "composed" ? null : syncImporter(family);
  if (sync === null)
    throw new RecipeError(`the ${family} importer is asynchronous: its world is built by ensureRecipeWorldAsync`);
  return sync;
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
export function recipeContentKey(recipe: Recipe, importer: RecipeImporterId): string {
  return sha256Hex(canonicalJson({ recipe_format: 1, content: worldContent(recipe), importer }));
}

/** The cache identity: the recipe's resolved world content, every input file's sha256 and the importer version. */
export function recipeWorldKey(recipe: Recipe, inputs: readonly RecipeInput[], importer: RecipeImporterId): string {
  return sha256Hex(
    canonicalJson({
      recipe_format: 1,
      content: worldContent(recipe),
      inputs: inputs.map((i) => ({ path: i.path, sha256: i.sha256 })),
      importer,
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
  /** a composed recipe's report per family part: its sources, rows accepted per stream, rejected (built worlds only) */
  parts?: SourcePartReport[];
}

type Built = { manifest: WorldManifest; rejected: RejectedRow[]; notes: string[]; parts?: SourcePartReport[] };

const mixed = (r: LoadedRecipe) => new RecipeError(`recipe ${r.file}: sources: mixed importer families`);

/** The world of a synchronous family's recipe, written to `target`. */
function buildSync(r: LoadedRecipe, root: string, target: string): Built {
  const recipe = r.recipe;
  if (isComposedRecipe(recipe))
    throw new RecipeError(
      `recipe ${r.file}: its sources are of several importer families: build its world with ensureRecipeWorldAsync (\`relive data build\`)`,
    );
  const fam = recipeFamily(recipe);
  const window = recipe.window;
  switch (fam) {
    case "candles": {
      const sources = recipe.sources.map((s): CandleSource => {
        switch (s.importer) {
          case "kraken-ohlcvt":
          case "binance-klines":
          case "binanceus-csv":
          case "okx-klines":
          case "kucoin-klines":
            return {
              path: s.path,
              format: s.importer,
              venue: s.venue,
              symbol: s.symbol,
              interval: s.interval,
              ...(s.resample !== undefined ? { resampleMs: s.resample } : {}),
            };
          default:
            throw mixed(r);
        }
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
        if (s.importer !== "edgar") throw mixed(r);
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
      if (s.importer !== "forecastbench") throw mixed(r);
      const abs = (p: string) => (isAbsolute(p) ? p : join(root, p));
      const rep = buildForecastBenchWorld(
        { questionSet: abs(s.questions), resolutionSet: abs(s.resolutions) },
        target,
        { name: recipe.name },
      );
      const w = rep.manifest.window;
      if (window && (window.start !== w.start || window.end !== w.end))
        throw new RecipeError(
          `recipe ${r.file}: window: the set spans ${isoDay(w.start)} → ${isoDay(w.end)} (its due date through the day after its last resolution); write that window or leave it out`,
        );
      const rejected = rep.rows.rejected.map((x) => ({ file: x.file, line: x.index, reason: x.reason }));
      return { manifest: rep.manifest, rejected, notes: [] };
    }
    case "warc":
    case "polymarket":
    case "reddit":
    case "news-jsonl":
    case "events":
      throw new RecipeError(
        `recipe ${r.file}: the ${fam} importer is asynchronous: build its world with ensureRecipeWorldAsync (\`relive data build\`)`,
      );
  }
}

/** An importer report's named counts as one note line. */
const countsNote = (counts: Record<string, number>): string[] => {
  const e = Object.entries(counts);
  return e.length ? [e.map(([k, v]) => `${k} ${v}`).join(", ")] : [];
};

/**
 * The world of a streamed family's recipe, written to `target` by the importer `relive data
 * import` runs, with the same parameters: so the same files and parameters give the same world
 * (and hash) by either path.
 */
async function buildAsync(r: LoadedRecipe, root: string, target: string): Promise<Built> {
  const recipe = r.recipe;
  if (isComposedRecipe(recipe)) return buildComposedWorld(r, root, target);
  const s = recipe.sources[0] as RecipeSource;
  const abs = (p: string) => (isAbsolute(p) ? p : join(root, p));
  const name = recipe.name;
  switch (s.importer) {
    case "warc": {
      const { importWarcNews } = await import("../ingest/warc-news.js");
      const rep = await importWarcNews(s.files.map(abs), target, {
        name,
        ...(s.near_dup !== undefined ? { nearDuplicateJaccard: s.near_dup } : {}),
      });
      return { manifest: rep.manifest, rejected: rep.rejected, notes: countsNote(rep.counts) };
    }
    case "polymarket": {
      const { importPolymarket } = await import("../ingest/polymarket-world.js");
      const rep = await importPolymarket(s.files.map(abs), target, {
        name,
        clob: s.clob.map((c) => ({ token: c.token, file: abs(c.file) })),
        breakpoints: s.bp,
        ...(s.price_delay_min !== undefined ? { priceDelayMs: Math.round(s.price_delay_min * 60_000) } : {}),
      });
      return { manifest: rep.manifest, rejected: rep.rejected, notes: countsNote(rep.counts) };
    }
    case "reddit": {
      const { importRedditDumps } = await import("../ingest/reddit-ndjson.js");
      const rep = await importRedditDumps(s.files.map(abs), target, { name });
      return { manifest: rep.manifest, rejected: rep.rejected, notes: countsNote(rep.counts) };
    }
    case "news-jsonl": {
      const { importNewsJsonl } = await import("../ingest/news-jsonl.js");
      const rep = await importNewsJsonl(s.files.map(abs), target, {
        name,
        ...(recipe.window !== undefined ? { window: recipe.window } : {}),
      });
      return { manifest: rep.manifest, rejected: rep.rejected, notes: [`articles ${rep.accepted}`] };
    }
    case "events": {
      const { importEventsJsonl } = await import("../ingest/events-jsonl.js");
      const rep = await importEventsJsonl(s.files.map(abs), target, {
        name,
        mapping: {
          time_field: s.time_field,
          kind_field: s.kind_field,
          ...(s.id_field !== undefined ? { id_field: s.id_field } : {}),
        },
      });
      return { manifest: rep.manifest, rejected: rep.rejected, notes: countsNote(rep.counts) };
    }
    case "kraken-ohlcvt":
    case "binance-klines":
    case "binanceus-csv":
    case "okx-klines":
    case "kucoin-klines":
    case "edgar":
    case "forecastbench":
      return buildSync(r, root, target);
  }
}

const iso = (t: number) => new Date(t).toISOString().replace(".000Z", "Z");

/**
 * The checks of a built world against its recipe: the world window the data fixed (ForecastBench,
 * the streamed importers) must equal a window the recipe writes (news-jsonl: the importer kept
 * only rows inside it), the episode window must lie inside the world's, every declared stream
 * must have rows. A refusal removes the world.
 */
function checkBuilt(r: LoadedRecipe, target: string, built: Built): Built {
  const refuse = (msg: string): never => {
    rmSync(target, { recursive: true, force: true });
    throw new RecipeError(`recipe ${r.file}: ${msg} (nothing was kept)`);
  };
  const fam = recipeKind(r.recipe);
  const w = built.manifest.window;
  const rw = r.recipe.window;
  // (a composed build checked each part's window against the recipe's itself)
  if (
    fam !== "composed" &&
    isAsyncFamily(fam) &&
    fam !== "news-jsonl" &&
    rw &&
    (rw.start !== w.start || rw.end !== w.end)
  )
    refuse(
      `window: the ${fam} data spans ${iso(w.start)} → ${iso(w.end)} (the importer fixes the world window from the rows); write that window or leave it out`,
    );
  const ew = r.recipe.episode?.window;
  if (ew && (ew.start < w.start || ew.end > w.end))
    refuse(`episode.window: must lie inside the world's window ${iso(w.start)} → ${iso(w.end)}`);
  const empty = r.recipe.streams.filter((k) => !((built.manifest.streams[k] ?? 0) > 0));
  if (empty.length)
    refuse(
      `streams: the built world has no rows of ${empty.join(", ")} ` +
        `(its streams with rows: ${
          Object.entries(built.manifest.streams)
            .filter(([, n]) => n > 0)
            .map(([k]) => k)
            .join(", ") || "none"
        }); fix the sources or the streams list`,
    );
  return built;
}

/** An importer's refusal (or any error) as a RecipeError naming the recipe, with the first rejected rows. */
function refusal(r: LoadedRecipe, e: unknown): RecipeError {
  if (e instanceof RecipeError) return e;
  const rows = e instanceof ImportRefusedError ? e.rejected : [];
  const shown = rows
    .slice(0, 10)
    .map((x) => `\n  ${x.file}:${x.line}: ${x.reason}`)
    .join("");
  const more = rows.length > 10 ? `\n  … and ${rows.length - 10} more` : "";
  return new RecipeError(
    `recipe ${r.file}: the ${recipeKind(r.recipe)} importer refused the sources: ${(e as Error).message}${shown}${more}`,
  );
}

/**
 * Builds a synchronous family's recipe world into `target` (a new directory) from the data under
 * `root` and checks it against the recipe; on any refusal nothing is left at `target` and the
 * error names the recipe.
 */
export function buildRecipeInto(r: LoadedRecipe, root: string, target: string): Built {
  let built: Built;
  try {
    built = buildSync(r, root, target);
  } catch (e) {
    throw refusal(r, e);
  }
  return checkBuilt(r, target, built);
}

/** `buildRecipeInto` for a recipe of any family (the streamed importers are awaited). */
export async function buildRecipeIntoAsync(r: LoadedRecipe, root: string, target: string): Promise<Built> {
  let built: Built;
  try {
    built = await buildAsync(r, root, target);
  } catch (e) {
    throw refusal(r, e);
  }
  return checkBuilt(r, target, built);
}

/** A world of this recipe built before from the same recipe content (used only when the inputs are gone). */
function cachedWithoutInputs(r: LoadedRecipe, cacheDir: string, importer: RecipeImporterId): string[] {
  const dir = recipeWorldsDir(cacheDir);
  if (!existsSync(dir)) return [];
  const key = recipeContentKey(r.recipe, importer);
  return readdirSync(dir)
    .filter((n) => n.startsWith(`${r.recipe.name}-`) && existsSync(join(dir, n, RECIPE_BUILD_JSON)))
    .filter((n) => {
      const rec = RecipeBuildRecord.safeParse(JSON.parse(readFileSync(join(dir, n, RECIPE_BUILD_JSON), "utf8")));
      return rec.success && rec.data.content_key === key;
    })
    .map((n) => join(dir, n));
}

/** Where a recipe's world is, or is to be built, in the cache. */
type Located =
  | { kind: "found"; world: RecipeWorld }
  | { kind: "build"; root: string; inputs: RecipeInput[]; key: string; dir: string };

function locate(
  r: LoadedRecipe,
  loc: RecipeBuildLocation,
  importer: RecipeImporterId,
  log: ((m: string) => void) | undefined,
): Located {
  const root = recipeDataRoot(r, loc.dataDir);
  let inputs: RecipeInput[];
  try {
    inputs = recipeInputs(r, root);
  } catch (e) {
    const prior = cachedWithoutInputs(r, loc.cacheDir, importer);
    if (prior.length === 1 && !(e instanceof RecipeError && /checksums/.test(e.message))) {
      log?.(`world ${r.recipe.name}: input files not found under ${root}; using the world built before at ${prior[0]}`);
      const dir = prior[0] as string;
      return { kind: "found", world: { dir, manifest: readWorldManifest(dir), built: false, rejected: [], notes: [] } };
    }
    throw e;
  }
  const key = recipeWorldKey(r.recipe, inputs, importer);
  const dir = join(recipeWorldsDir(loc.cacheDir), worldDirName(r.recipe.name, key));
  if (existsSync(join(dir, WORLD_JSON)))
    return { kind: "found", world: { dir, manifest: readWorldManifest(dir), built: false, rejected: [], notes: [] } };
  return { kind: "build", root, inputs, key, dir };
}

/** A temp dir beside the cache entry to build into (`<tmp>/world`); removed by the caller. */
function startBuild(r: LoadedRecipe, at: Extract<Located, { kind: "build" }>, log: ((m: string) => void) | undefined) {
  mkdirSync(dirname(at.dir), { recursive: true });
  const tmp = join(
    dirname(at.dir),
    `.tmp-${worldDirName(r.recipe.name, at.key)}-${process.pid}-${randomBytes(4).toString("hex")}`,
  );
  log?.(`building world ${r.recipe.name} from ${r.file} (data: ${at.root}) …`);
  mkdirSync(tmp);
  return { tmp, target: join(tmp, "world") };
}

/** Writes the build record beside world.json and renames the whole world into place. */
function commitBuild(
  r: LoadedRecipe,
  at: Extract<Located, { kind: "build" }>,
  importer: RecipeImporterId,
  target: string,
  built: Built,
  log: ((m: string) => void) | undefined,
): RecipeWorld {
  const record: RecipeBuildRecord = {
    recipe_file: r.file,
    name: r.recipe.name,
    key: at.key,
    content_key: recipeContentKey(r.recipe, importer),
    importer,
    inputs: at.inputs.map((i) => ({ path: i.path, sha256: i.sha256 })),
    recipe: r.input,
  };
  writeFileSync(join(target, RECIPE_BUILD_JSON), `${JSON.stringify(record, null, 2)}\n`);
  if (existsSync(join(at.dir, WORLD_JSON)))
    log?.(`world ${r.recipe.name}: built meanwhile by another process; using it`);
  else renameSync(target, at.dir);
  return {
    dir: at.dir,
    manifest: readWorldManifest(at.dir),
    built: true,
    rejected: built.rejected,
    notes: built.notes,
    ...(built.parts ? { parts: built.parts } : {}),
  };
}

/**
 * Streamed-family worlds made ready in this process (by `ensureRecipeWorldAsync`), by cache,
 * recipe file, data root and recipe content: what the synchronous run path finds them by.
 */
const ready = new Map<string, RecipeWorld>();
const readyKey = (r: LoadedRecipe, loc: RecipeBuildLocation) =>
  canonicalJson({
    cache: resolve(loc.cacheDir),
    file: r.file,
    root: recipeDataRoot(r, loc.dataDir),
    content: worldContent(r.recipe),
  });

/**
 * The world of a recipe, from the cache or built: cached under `<cache>/worlds/<name>-<key>` where
 * the key hashes the recipe's resolved world content (not its episode or descriptions), every
 * input file's sha256 and the importer's version, so an edited recipe, a changed file or a new
 * importer version builds anew. The build goes to a temp dir beside the cache entry; only a world
 * that was built whole and fills every declared stream is renamed into place (never a partial
 * world: a failed build leaves nothing). When the input files are gone, a world built before from
 * the same recipe content is used (one only; several is an error).
 *
 * Synchronous: for the candle, EDGAR and ForecastBench importers. A recipe of a streamed importer
 * (WARC, Polymarket, Reddit, JSONL news, events) is found only when `ensureRecipeWorldAsync` made
 * it ready in this process (every entry point awaits `prepareRunWorld` before resolving a run);
 * otherwise the error says what to run.
 */
export function ensureRecipeWorld(r: LoadedRecipe, loc: RecipeBuildLocation, log?: (m: string) => void): RecipeWorld {
  const fam = recipeKind(r.recipe);
  const importer = fam === "composed" ? null : syncImporter(fam);
  if (importer === null) {
    const w = ready.get(readyKey(r, loc));
    if (w) return { ...w, built: false, rejected: [], notes: [] };
    throw new RecipeError(
      `recipe ${r.file}: world ${r.recipe.name} is built by the asynchronous ${fam} importer, which this synchronous path cannot run: ` +
        `build it with \`relive data build ${r.file}\` (relive run, resume, rescore, grid and mcp, and the library's run(), build it themselves; ` +
        "a caller of resolveRun awaits prepareRunWorld(config, options) first)",
    );
  }
  const at = locate(r, loc, importer, log);
  if (at.kind === "found") return at.world;
  const { tmp, target } = startBuild(r, at, log);
  try {
    return commitBuild(r, at, importer, target, buildRecipeInto(r, at.root, target), log);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * `ensureRecipeWorld` for a recipe of any family: the streamed importers are awaited. A streamed
 * family's world is then also found by the synchronous path in this process.
 */
export async function ensureRecipeWorldAsync(
  r: LoadedRecipe,
  loc: RecipeBuildLocation,
  log?: (m: string) => void,
): Promise<RecipeWorld> {
  const importer = await recipeImporterOf(r.recipe);
  const at = locate(r, loc, importer, log);
  let w: RecipeWorld;
  if (at.kind === "found") w = at.world;
  else {
    const { tmp, target } = startBuild(r, at, log);
    try {
      w = commitBuild(r, at, importer, target, await buildRecipeIntoAsync(r, at.root, target), log);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  if (importer.family === "composed" || isAsyncFamily(importer.family)) ready.set(readyKey(r, loc), w);
  return w;
}
