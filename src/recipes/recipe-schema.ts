import { z } from "zod";
import { parseDurationMs, parseUtcInstant } from "../common/time.js";
import type { CANDLE_FORMATS } from "../ingest/candle-world.js";
import { DISTINCT_EVENT_FIELDS, distinctEventFields, EventMappingFields } from "../ingest/event-mapping.js";
import { BreakpointParams } from "../ingest/polymarket-truth.js";

/**
 * The world recipe file (`relive data build RECIPE.yaml`): the sources of real data (one importer
 * per source), the streams they fill, the window, the importer's truth/derivation parameters and
 * the episode the world defines. YAML or JSON; validated here, every error naming its field.
 */

/** An instant: an ISO date (00:00 UTC), an ISO date-time (no zone = UTC) or epoch ms. */
const Instant = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const t = parseUtcInstant(v);
  if (t === null) {
    ctx.addIssue({
      code: "custom",
      message: `not a date or instant: ${JSON.stringify(v)} (write YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ)`,
    });
    return z.NEVER;
  }
  return t;
});

const Window = z
  .object({ start: Instant, end: Instant })
  .strict()
  .refine((w) => w.end > w.start, {
    message: "end must be after start (the end is exclusive: 03-01 → 03-22 holds 03-21)",
  });

const Duration = z.string().transform((v, ctx) => {
  const ms = parseDurationMs(v);
  if (ms === null) {
    ctx.addIssue({ code: "custom", message: `not a duration: ${JSON.stringify(v)} (write e.g. 1h, 15m, 1d)` });
    return z.NEVER;
  }
  return ms;
});

const Path = z.string().min(1, "a file path (relative to the data root, or absolute)");
const Files = z.array(Path).min(1, "list at least one input file");
const Hex64 = z.string().regex(/^[0-9a-f]{64}$/, "a sha256 (64 lowercase hex digits)");

/** candle series files: one (venue, symbol) series per file */
const candleSource = <F extends (typeof CANDLE_FORMATS)[number]>(importer: F, interval: z.ZodType<number | string>) =>
  z
    .object({
      importer: z.literal(importer),
      path: Path,
      venue: z.string().min(1),
      symbol: z.string().min(1),
      interval,
      resample: Duration.optional(),
    })
    .strict();

export const RecipeSource = z.discriminatedUnion("importer", [
  candleSource("kraken-ohlcvt", Duration),
  candleSource("binance-klines", Duration),
  candleSource("binanceus-csv", Duration),
  candleSource("okx-klines", z.string().min(1, "the OKX bar name (1m, 1H, 1Dutc …)")),
  candleSource("kucoin-klines", z.string().min(1, "the KuCoin type (1min, 1hour, 1day …)")),
  z
    .object({
      importer: z.literal("edgar"),
      /** data.sec.gov `submissions/CIK##########.json` (older or newer schema) */
      submissions: Path,
      /** older submission pages (`CIK##########-submissions-001.json`, …) */
      pages: z.array(Path).default([]),
      /** `api/xbrl/companyfacts/CIK##########.json`; without it 10-Q/10-K values are not scorable */
      companyfacts: Path.optional(),
    })
    .strict(),
  z
    .object({
      importer: z.literal("forecastbench"),
      /** `datasets/question_sets/<due>-llm.json` (or `-human.json`) */
      questions: Path,
      /** `datasets/resolution_sets/<due>_resolution_set.json` */
      resolutions: Path,
    })
    .strict(),
  // the asynchronous (streamed) importers of `relive data import`: one source per recipe, its
  // fields named as that command's flags (snake_case), with the same defaults
  z
    .object({
      importer: z.literal("warc"),
      /** CC-NEWS WARC files (`.warc` or `.warc.gz`) */
      files: Files,
      /** `--near-dup`: MinHash similarity at which an article is a near-duplicate (default 0.8) */
      near_dup: z.number().gt(0, "a similarity in (0, 1]").lte(1, "a similarity in (0, 1]").optional(),
    })
    .strict(),
  z
    .object({
      importer: z.literal("polymarket"),
      /** Gamma `/markets` or `/events` JSON, CLOB `prices-history` JSON named `<token>.json`, or the markets + prices CSVs */
      files: Files,
      /** `--clob TOKEN=FILE`: prices-history files and the CLOB token each is for */
      clob: z.array(z.object({ token: z.string().min(1, "the CLOB token id"), file: Path }).strict()).default([]),
      /** `--bp KEY=VALUE`: breakpoint detection parameters (defaults: polymarket-truth.ts BreakpointParams) */
      bp: BreakpointParams.partial().strict().default({}),
      /** `--price-delay-min`: minutes from a price point to its visibility (default 10) */
      price_delay_min: z.number().nonnegative("minutes ≥ 0").optional(),
    })
    .strict(),
  z
    .object({
      importer: z.literal("reddit"),
      /** Arctic Shift / Pushshift submissions and comments NDJSON, plain or `.zst` */
      files: Files,
    })
    .strict(),
  z
    .object({
      importer: z.literal("news-jsonl"),
      /** JSONL news, one article a line (`relive data import` without a source flag) */
      files: Files,
    })
    .strict(),
  z
    .object({
      importer: z.literal("events"),
      /** JSONL event logs, one JSON object a line */
      files: Files,
      /** `--time-field`, `--kind-field`, `--id-field` */
      ...EventMappingFields.shape,
    })
    .strict()
    .refine(distinctEventFields, { message: DISTINCT_EVENT_FIELDS }),
]);
export type RecipeSource = z.output<typeof RecipeSource>;
export type RecipeImporter = RecipeSource["importer"];

const TaskId = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "a task id (see `relive tasks`)");

const EpisodeTask = z
  .object({
    /** what the episode is for this task (default: the episode's description) */
    description: z.string().min(1).optional(),
    /** default task parameters of the episode (a run's own task_params override them) */
    params: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();

type EpisodeTask = z.output<typeof EpisodeTask>;

const EpisodeTasks = z.union([
  z.array(TaskId).min(1, "name at least one task the episode serves"),
  z.record(TaskId, EpisodeTask.nullable()),
]);

export const RecipeEpisode = z
  .object({
    /** the episode id `relive run --episode` takes */
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "letters, digits, . _ - (it names runs and results)"),
    /** the tasks it serves, with optional per-task description and default params */
    tasks: EpisodeTasks.transform(
      (t): Record<string, EpisodeTask> =>
        Array.isArray(t)
          ? Object.fromEntries(t.map((id) => [id, { params: {} }]))
          : Object.fromEntries(Object.entries(t).map(([k, v]) => [k, v ?? { params: {} }])),
    ).refine((t) => Object.keys(t).length > 0, { message: "name at least one task the episode serves" }),
    /** the episode window (default: the world window) */
    window: Window.optional(),
    description: z.string().min(1).optional(),
  })
  .strict();
export type RecipeEpisode = z.output<typeof RecipeEpisode>;

export const RECIPE_VERSION = 1;

export const Recipe = z
  .object({
    /** the recipe format version */
    recipe: z.literal(RECIPE_VERSION, { message: `the recipe format version: write \`recipe: ${RECIPE_VERSION}\`` }),
    /** the world's name (its manifest name; `relive data build NAME` finds the recipe by it) */
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "letters, digits, . _ - (it names the cached world)"),
    description: z.string().min(1).optional(),
    /** where relative source paths are found, relative to this file (default: --data / --raw, $RELIVE_RAW_DIR, ../shared/data/raw) */
    data_dir: z.string().min(1).optional(),
    /** the world window (end exclusive); ForecastBench recipes may leave it out (the sets fix it) */
    window: Window.optional(),
    /** candle recipes: candles opening this long before the window start are kept (history for the first hours) */
    lookback: Duration.optional(),
    /** the stream kinds the sources fill: each must have rows once built, else the build is refused */
    streams: z.array(z.string().min(1)).min(1, "list the streams the sources fill (e.g. [candle])"),
    /** sha256 pins of input files by their path as written in `sources` (a mismatch refuses the build) */
    checksums: z.record(z.string(), Hex64).default({}),
    sources: z.array(RecipeSource).min(1, "name at least one source"),
    episode: RecipeEpisode.optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    const fams = r.sources.map((s) => importerFamily(s.importer));
    const has = (f: ImporterFamily) => fams.includes(f);
    // families compose into one world; two families never write the same stream
    r.sources.forEach((s, j) => {
      const fj = fams[j] as ImporterFamily;
      for (let i = 0; i < j; i++) {
        const fi = fams[i] as ImporterFamily;
        if (fi === fj) continue;
        const shared = FAMILY_STREAMS[fj].filter((k) => FAMILY_STREAMS[fi].includes(k));
        if (shared.length === 0) continue;
        ctx.addIssue({
          code: "custom",
          path: ["sources", j, "importer"],
          message: `sources.${j} (importer ${s.importer}, ${fj} family) and sources.${i} (importer ${(r.sources[i] as RecipeSource).importer}, ${fi} family) both write the stream${shared.length > 1 ? "s" : ""} ${shared.join(", ")}: importers of different families cannot fill one stream (keep one of them, or write a recipe per family)`,
        });
        break;
      }
    });
    for (const f of ONE_SOURCE_FAMILIES) {
      const idx = fams.flatMap((x, i) => (x === f ? [i] : []));
      if (idx.length > 1)
        ctx.addIssue({
          code: "custom",
          path: ["sources", idx[1] as number],
          message:
            f === "forecastbench"
              ? `a recipe has one forecastbench source (a question set and its resolution set): sources ${idx.join(", ")} are forecastbench`
              : `a recipe has one ${f} source (list every input file in its \`files\`): sources ${idx.join(", ")} are ${f}`,
        });
    }
    // ForecastBench sets and the streamed importers fix the window from the data; candles and EDGAR need one
    if ((has("candles") || has("edgar")) && r.window === undefined)
      ctx.addIssue({ code: "custom", path: ["window"], message: "required: the world window {start, end}" });
    if (!has("candles") && r.lookback !== undefined)
      ctx.addIssue({ code: "custom", path: ["lookback"], message: "only candle recipes keep a lookback: remove it" });
    if (r.episode && r.episode.window === undefined && r.window === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["episode", "window"],
        message: "required when the recipe gives no world window (the episode's dates must be known before the build)",
      });
    const ew = r.episode?.window;
    if (ew && r.window && (ew.start < r.window.start || ew.end > r.window.end))
      ctx.addIssue({
        code: "custom",
        path: ["episode", "window"],
        message: "must lie inside the world window (a run outside the world's data scores nothing)",
      });
    const paths = new Set(sourcePaths(r.sources));
    for (const k of Object.keys(r.checksums))
      if (!paths.has(k))
        ctx.addIssue({
          code: "custom",
          path: ["checksums", k],
          message: `no source reads ${JSON.stringify(k)}: key checksums by a path written in sources`,
        });
  });
export type Recipe = z.output<typeof Recipe>;

/** The importer family of a source: a world is built by one family's builder. */
export type ImporterFamily =
  | "candles"
  | "edgar"
  | "forecastbench"
  | "warc"
  | "polymarket"
  | "reddit"
  | "news-jsonl"
  | "events";

/**
 * The stream kinds each family's importer writes (truth tables aside: the `label` truth table is
 * shared, its rows keyed by kind). Two sources of different families writing one stream are refused.
 */
export const FAMILY_STREAMS: { readonly [F in ImporterFamily]: readonly string[] } = {
  candles: ["candle"],
  edgar: ["company", "filing", "xbrl_fact", "broker_event"],
  forecastbench: ["question", "question_resolution", "market", "market_price"],
  warc: ["news"],
  polymarket: ["market", "market_price", "market_resolution"],
  reddit: ["reddit_post", "reddit_comment", "reddit_reveal"],
  "news-jsonl": ["news"],
  events: ["event"],
};

/** The canonical order in which a composed recipe's families are imported (never the recipe's order). */
export const FAMILY_ORDER: readonly ImporterFamily[] = [
  "candles",
  "edgar",
  "forecastbench",
  "polymarket",
  "reddit",
  "events",
  "warc",
  "news-jsonl",
];

/** The importer families of a recipe's sources, each once, in `FAMILY_ORDER`. */
export const recipeFamilies = (sources: readonly RecipeSource[]): ImporterFamily[] => {
  const used = new Set(sources.map((s) => importerFamily(s.importer)));
  return FAMILY_ORDER.filter((f) => used.has(f));
};

/** The families whose importers are asynchronous (streamed): `relive data import`'s, one source per recipe. */
export const ASYNC_FAMILIES: readonly ImporterFamily[] = ["warc", "polymarket", "reddit", "news-jsonl", "events"];
export const isAsyncFamily = (f: ImporterFamily) => ASYNC_FAMILIES.includes(f);
/** The families with one source per recipe (every input file in that source). */
const ONE_SOURCE_FAMILIES: readonly ImporterFamily[] = ["forecastbench", ...ASYNC_FAMILIES];

export function importerFamily(importer: RecipeImporter): ImporterFamily {
  switch (importer) {
    case "kraken-ohlcvt":
    case "binance-klines":
    case "binanceus-csv":
    case "okx-klines":
    case "kucoin-klines":
      return "candles";
    case "edgar":
      return "edgar";
    case "forecastbench":
      return "forecastbench";
    case "warc":
    case "polymarket":
    case "reddit":
    case "news-jsonl":
    case "events":
      return importer;
  }
}

/** Every input path a source names, as written. */
export function sourcePaths(sources: readonly RecipeSource[]): string[] {
  return sources.flatMap(sourcePathsOf);
}

function sourcePathsOf(s: RecipeSource): string[] {
  switch (s.importer) {
    case "kraken-ohlcvt":
    case "binance-klines":
    case "binanceus-csv":
    case "okx-klines":
    case "kucoin-klines":
      return [s.path];
    case "edgar":
      return [s.submissions, ...s.pages, ...(s.companyfacts !== undefined ? [s.companyfacts] : [])];
    case "forecastbench":
      return [s.questions, s.resolutions];
    case "polymarket":
      return [...s.files, ...s.clob.map((c) => c.file)];
    case "warc":
    case "reddit":
    case "news-jsonl":
    case "events":
      return s.files;
  }
}

/** A source with every path it names passed through `f` (the same shape otherwise). */
export function mapSourcePaths(s: RecipeSource, f: (p: string) => string): RecipeSource {
  switch (s.importer) {
    case "kraken-ohlcvt":
    case "binance-klines":
    case "binanceus-csv":
    case "okx-klines":
    case "kucoin-klines":
      return { ...s, path: f(s.path) };
    case "edgar":
      return {
        ...s,
        submissions: f(s.submissions),
        pages: s.pages.map(f),
        ...(s.companyfacts !== undefined ? { companyfacts: f(s.companyfacts) } : {}),
      };
    case "forecastbench":
      return { ...s, questions: f(s.questions), resolutions: f(s.resolutions) };
    case "polymarket":
      return { ...s, files: s.files.map(f), clob: s.clob.map((c) => ({ ...c, file: f(c.file) })) };
    case "warc":
    case "reddit":
    case "news-jsonl":
    case "events":
      return { ...s, files: s.files.map(f) };
  }
}
