import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { DEFAULT_EMBEDDER_ID, type Embedder, getEmbedder } from "./embedder.js";
import { buildNewsFts, NewsFtsStream } from "./fts-build.js";
import { ftsIndexText } from "./fts-text.js";
import { buildNewsIndex } from "./news-index-build.js";
import { NewsIndexJob, PARALLEL_INDEX_MIN_ROWS } from "./news-index-parallel.js";
import { buildNewsVectors } from "./news-vectors.js";
import { defaultVectorWorkers, NewsVectorsJob, PARALLEL_VECTORS_MIN_ROWS } from "./news-vectors-parallel.js";
import { WordVectors } from "./news-vectors-words.js";
import { lintQuestions, QUESTION_LINT_JSON } from "./question-lint.js";
import { RowDigest } from "./row-digest.js";
import {
  STREAM_KINDS,
  STREAM_ROW_SCHEMAS,
  type StreamKind,
  type StreamRows,
  TRUTH_KINDS,
  TRUTH_ROW_SCHEMAS,
  type TruthKind,
  type TruthRows,
} from "./row-schemas.js";
import {
  META_NEWS_LAG_PUB_OVER_VIS,
  META_NEWS_LAG_VIS_OVER_PUB,
  NEWS_FTS_DDL,
  NEWS_ORDER_DDL,
  TRUTH_DDL,
  WORLD_LATER_INDEXES_DDL,
  WORLD_TABLES_DDL,
} from "./schema.js";
import type { WorldManifest } from "./types.js";
import { WorldRowError } from "./world-row-error.js";
import type { WorldSink, WorldSinkSource } from "./world-sink.js";

export type { StreamKind, StreamRows, TruthKind, TruthRows } from "./row-schemas.js";

export const WORLD_DB = "world.db";
export const TRUTH_DB = "truth.db";
export const WORLD_JSON = "world.json";
/** Side database of the streamed FTS build (inside the temp dir; never part of a finished world). */
const FTS_SIDE_DB = "news-fts.tmp.db";
/** Rows inserted into one database between two commits of its load transaction (see `load`). */
const COMMIT_ROWS = 200_000;
/** From this many articles on, the FTS index is built by two threads (see fts-build.ts). */
export const PARALLEL_FTS_MIN_ROWS = 20_000;

export interface WorldMeta {
  name: string;
  window: { start: number; end: number };
  builder: string;
  builder_version: string;
}

export interface WorldBuildOptions {
  /** news row count from which the FTS index is built by two threads (default PARALLEL_FTS_MIN_ROWS) */
  parallelFtsMinRows?: number;
  /**
   * Build the news FTS index while news rows are inserted (a worker thread, a side database, rows
   * released in (visible_at, id) order through a reorder window), instead of after the load.
   * Pays off for large, roughly time-ordered inputs (importers); any input gives the same world,
   * because finish() keeps the streamed index only if its row order equals news_order's and builds
   * the index after the load otherwise. Default false.
   */
  streamNewsFts?: boolean;
  /**
   * The embedder of the news vectors used by hybrid search (built after the FTS index; see
   * news-vectors.ts). Default: the offline feature-hashing embedder; null builds no vectors.
   */
  newsEmbedder?: Embedder | null;
  /**
   * Worker threads that build the news vectors while this thread finishes the FTS index and the
   * news index (news-vectors-parallel.ts; same bytes for any count). 0 builds them on this thread.
   * Default: `defaultVectorWorkers()` (the cores left after this thread, 1 to 4).
   */
  vectorWorkers?: number;
  /** news row count from which the vectors are built by workers (default PARALLEL_VECTORS_MIN_ROWS) */
  parallelVectorsMinRows?: number;
  /**
   * With the offline hashing embedder (the default), build the news vectors from the words the
   * news index cuts anyway (news-vectors-words.ts: no second read or tokenization of the texts;
   * `vectorWorkers` then has no work). Default true; false embeds the texts again (vector workers
   * or this thread). The same bytes either way.
   */
  vectorsFromIndex?: boolean;
  /**
   * news row count from which the relive news index is built by a worker thread while the FTS build
   * feeds it (news-index-parallel.ts; same tables either way; default PARALLEL_INDEX_MIN_ROWS)
   */
  parallelIndexMinRows?: number;
}

/** How one kind is written: table, columns, row → positional params, and its digest key. */
interface KindSpec<R> {
  table: string;
  columns: string[];
  params(r: R): unknown[];
  key(r: R): string;
  /** `d.add(key(r))` without building the key (for kinds loaded by the million) */
  digest?(d: RowDigest, r: R): void;
}

const S = "\u0001";

const STREAM_SPECS: { [K in StreamKind]: KindSpec<StreamRows[K]> } = {
  news: {
    table: "news",
    columns: ["id", "published_at", "visible_at", "domain", "url", "title", "text"],
    params: (r) => [r.id, r.published_at, r.visible_at, r.domain, r.url, r.title, r.text],
    key: (r) => r.id + S + r.visible_at,
    digest: (d, r) => d.addParts(r.id, S, String(r.visible_at)),
  },
  market: {
    table: "market",
    columns: ["id", "question", "description", "outcomes", "open", "scheduled_end", "visible_at"],
    params: (r) => [r.id, r.question, r.description, JSON.stringify(r.outcomes), r.open, r.scheduled_end, r.visible_at],
    key: (r) => r.id + S + r.visible_at,
  },
  market_price: {
    table: "market_price",
    columns: ["market", "outcome", "t", "p", "visible_at"],
    params: (r) => [r.market, r.outcome, r.t, r.p, r.visible_at],
    key: (r) => r.market + S + r.outcome + S + r.t + S + r.p + S + r.visible_at,
  },
  market_resolution: {
    table: "market_resolution",
    columns: ["market", "closed_at", "result", "visible_at"],
    params: (r) => [r.market, r.closed_at, r.result, r.visible_at],
    key: (r) => r.market + S + r.closed_at + S + r.result + S + r.visible_at,
  },
  reddit_post: {
    table: "reddit_post",
    columns: ["id", "subreddit", "author", "title", "body", "created_utc", "visible_at"],
    params: (r) => [r.id, r.subreddit, r.author, r.title, r.body, r.created_utc, r.visible_at],
    key: (r) => r.id + S + r.visible_at,
  },
  reddit_comment: {
    table: "reddit_comment",
    columns: ["id", "root", "parent", "created_utc", "author", "body", "visible_at"],
    params: (r) => [r.id, r.root, r.parent, r.created_utc, r.author, r.body, r.visible_at],
    key: (r) => r.id + S + r.visible_at,
  },
  reddit_reveal: {
    table: "reddit_reveal",
    columns: ["post", "descendants_24h", "visible_at"],
    params: (r) => [r.post, r.descendants_24h, r.visible_at],
    key: (r) => r.post + S + r.descendants_24h + S + r.visible_at,
  },
  candle: {
    table: "candle",
    columns: ["venue", "symbol", "interval_ms", "open_time", "o", "h", "l", "c", "v", "visible_at"],
    params: (r) => [r.venue, r.symbol, r.interval_ms, r.open_time, r.o, r.h, r.l, r.c, r.v, r.visible_at],
    key: (r) => r.venue + S + r.symbol + S + r.interval_ms + S + r.open_time + S + r.c + S + r.visible_at,
  },
  filing: {
    table: "filing",
    columns: ["cik", "accession", "form", "items", "filed", "accepted_at", "report_date", "visible_at"],
    params: (r) => [r.cik, r.accession, r.form, r.items, r.filed, r.accepted_at, r.report_date, r.visible_at],
    key: (r) => r.accession + S + r.visible_at,
  },
  xbrl_fact: {
    table: "xbrl_fact",
    columns: [
      "cik",
      "taxonomy",
      "concept",
      "unit",
      "start",
      '"end"',
      "val",
      "accn",
      "fy",
      "fp",
      "form",
      "filed",
      "visible_at",
    ],
    params: (r) => [
      r.cik,
      r.taxonomy,
      r.concept,
      r.unit,
      r.start,
      r.end,
      r.val,
      r.accn,
      r.fy,
      r.fp,
      r.form,
      r.filed,
      r.visible_at,
    ],
    key: (r) => r.cik + S + r.concept + S + r.unit + S + r.end + S + r.accn + S + r.val + S + r.visible_at,
  },
  company: {
    table: "company",
    columns: ["cik", "ticker", "name", "visible_at"],
    params: (r) => [r.cik, r.ticker, r.name, r.visible_at],
    key: (r) => r.cik + S + r.visible_at,
  },
  question: {
    table: "question",
    columns: ["id", "title", "background", "criteria", "open", "resolve", "answer_type", "visible_at"],
    params: (r) => [r.id, r.title, r.background, r.criteria, r.open, r.resolve, r.answer_type, r.visible_at],
    key: (r) => r.id + S + r.visible_at,
  },
  question_resolution: {
    table: "question_resolution",
    columns: ["question", "answer", "resolved_at", "visible_at"],
    params: (r) => [r.question, r.answer, r.resolved_at, r.visible_at],
    key: (r) => r.question + S + r.answer + S + r.resolved_at + S + r.visible_at,
  },
  broker_event: {
    table: "broker_event",
    columns: ["id", "kind", "t", "payload", "visible_at"],
    params: (r) => [r.id, r.kind, r.t, JSON.stringify(r.payload), r.visible_at],
    key: (r) => r.id + S + r.visible_at,
  },
  event: {
    table: "event",
    columns: ["id", "kind", "t", "payload", "visible_at"],
    params: (r) => [r.id, r.kind, r.t, JSON.stringify(r.payload), r.visible_at],
    key: (r) => r.id + S + r.kind + S + r.t + S + JSON.stringify(r.payload) + S + r.visible_at,
  },
};

/**
 * Stream kinds added after the manifest hash format was fixed: they enter the hash only when the
 * world has rows of them, so adding a kind never changes the hash (and so the run ids and
 * environment seeds) of a world that does not use it.
 */
const HASHED_WHEN_PRESENT: ReadonlySet<string> = new Set<StreamKind>(["event"]);

const TRUTH_SPECS: { [K in TruthKind]: KindSpec<TruthRows[K]> } = {
  breakpoint: {
    table: "breakpoint",
    columns: ["id", "market", "t_start", "t_end", "size"],
    params: (r) => [r.id, r.market, r.t_start, r.t_end, r.size],
    key: (r) => r.id + S + r.market + S + r.t_start + S + r.t_end + S + r.size,
  },
  attribution: {
    table: "attribution",
    columns: ["breakpoint", "news_id", "group_id", "confidence"],
    params: (r) => [r.breakpoint, r.news_id, r.group_id, r.confidence],
    key: (r) => r.breakpoint + S + r.news_id + S + r.group_id + S + r.confidence,
  },
  incident: {
    table: "incident",
    columns: ["venue", "start", '"end"', "kind", "params"],
    params: (r) => [r.venue, r.start, r.end, r.kind, JSON.stringify(r.params)],
    key: (r) => r.venue + S + r.start + S + r.end + S + r.kind + S + JSON.stringify(r.params),
  },
  question_answer: {
    table: "question_answer",
    columns: ["question", "answer", "resolved_at"],
    params: (r) => [r.question, r.answer, r.resolved_at],
    key: (r) => r.question + S + r.answer + S + r.resolved_at,
  },
  label: {
    table: "label",
    columns: ["kind", "key", "t", "value"],
    params: (r) => [r.kind, r.key, r.t, JSON.stringify(r.value)],
    key: (r) => r.kind + S + r.key + S + r.t + S + JSON.stringify(r.value),
  },
};

function insertSql(spec: { table: string; columns: string[] }): string {
  return `INSERT INTO ${spec.table} (${spec.columns.join(", ")}) VALUES (${spec.columns.map(() => "?").join(", ")})`;
}

/**
 * Opens a build database. `journal: "MEMORY"` while rows load and through `finish()` while one
 * thread at a time writes world.db (each commit writes its pages once, where WAL would write them
 * to the log and again at every checkpoint); `finish()` switches world.db to WAL only when worker
 * threads read it while this thread writes.
 */
function openForBuild(path: string, journal: "MEMORY" | "WAL" = "MEMORY"): Database.Database {
  const db = new Database(path);
  db.pragma("synchronous = OFF");
  db.pragma(`journal_mode = ${journal}`);
  db.pragma("cache_size = -1048576");
  db.pragma("temp_store = MEMORY");
  return db;
}

/** "UNIQUE constraint failed: news.id" → "id"; "candle.venue, candle.symbol" → "venue,symbol". */
function constraintField(message: string): string | null {
  const m = /constraint failed: (.+)$/.exec(message);
  if (!m?.[1]) return null;
  return m[1]
    .split(",")
    .map((s) => s.trim().replace(/^[^.]*\./, ""))
    .join(",");
}

type BuilderState = "open" | "failed" | "finished" | "aborted";

/** `finish()` found its target directory created by someone else meanwhile: it is never overwritten. */
export class WorldDirAppearedError extends Error {
  constructor(readonly dir: string) {
    super(`world directory ${dir} appeared during the build: not overwriting it`);
    this.name = "WorldDirAppearedError";
  }
}

/**
 * Builds a world directory: rows go into SQLite databases in a sibling temp dir
 * (`${targetDir}.tmp-${pid}`), and `finish()` indexes them, writes world.json and renames the temp
 * dir to `targetDir` in one step, so a world directory is either complete or absent.
 */
export class WorldBuilder implements WorldSink {
  readonly targetDir: string;
  readonly tmpDir: string;
  private meta: WorldMeta;
  private world: Database.Database;
  private readonly truth: Database.Database;
  private readonly sources: WorldManifest["sources"] = [];
  private readonly digests = new Map<string, RowDigest>();
  private readonly stmts = new Map<string, Database.Statement>();
  /** rows inserted since the last commit of each database's load transaction */
  private readonly uncommitted = new Map<Database.Database, number>();
  private state: BuilderState = "open";
  /** Wall-clock milliseconds of each finish() stage (build diagnostics for benchmarks only). */
  readonly finishTimings: Record<string, number> = {};
  /** Process CPU milliseconds (user + system, every thread) of each finish() stage, same keys (diagnostics). */
  readonly finishCpuMs: Record<string, number> = {};

  private readonly options: Required<Omit<WorldBuildOptions, "newsEmbedder">>;
  private readonly newsEmbedder: Embedder | null;
  /** whether the news index builder makes the news vectors (see `vectorsFromIndex`) */
  private readonly indexVectors: boolean;
  private ftsStream: NewsFtsStream | null = null;
  /** whether world.db is in WAL mode (during `finish`, see `useWal`) */
  private wal = false;
  private vectorJob: NewsVectorsJob | null = null;
  private readonly newsIndex: NewsIndexJob;

  private constructor(targetDir: string, meta: WorldMeta, options: WorldBuildOptions) {
    this.targetDir = targetDir;
    this.options = {
      parallelFtsMinRows: options.parallelFtsMinRows ?? PARALLEL_FTS_MIN_ROWS,
      streamNewsFts: options.streamNewsFts ?? false,
      vectorWorkers: options.vectorWorkers ?? defaultVectorWorkers(),
      parallelVectorsMinRows: options.parallelVectorsMinRows ?? PARALLEL_VECTORS_MIN_ROWS,
      parallelIndexMinRows: options.parallelIndexMinRows ?? PARALLEL_INDEX_MIN_ROWS,
      vectorsFromIndex: options.vectorsFromIndex ?? true,
    };
    this.newsEmbedder = options.newsEmbedder === undefined ? getEmbedder(DEFAULT_EMBEDDER_ID) : options.newsEmbedder;
    this.indexVectors =
      this.options.vectorsFromIndex && this.newsEmbedder !== null && WordVectors.supports(this.newsEmbedder);
    this.tmpDir = `${targetDir}.tmp-${process.pid}`;
    this.newsIndex = new NewsIndexJob(this.options.parallelIndexMinRows, this.indexVectors);
    this.meta = { ...meta, window: { ...meta.window } };
    if (existsSync(this.tmpDir)) rmSync(this.tmpDir, { recursive: true, force: true });
    mkdirSync(this.tmpDir, { recursive: true });
    try {
      this.world = openForBuild(join(this.tmpDir, WORLD_DB));
      this.world.exec(WORLD_TABLES_DDL);
      this.truth = openForBuild(join(this.tmpDir, TRUTH_DB));
      this.truth.exec(TRUTH_DDL);
    } catch (e) {
      rmSync(this.tmpDir, { recursive: true, force: true });
      throw e;
    }
    for (const k of STREAM_KINDS) this.digests.set(k, new RowDigest());
    for (const k of TRUTH_KINDS) this.digests.set(`truth.${k}`, new RowDigest());
  }

  static create(targetDir: string, meta: WorldMeta, options: WorldBuildOptions = {}): WorldBuilder {
    if (existsSync(targetDir)) {
      throw new Error(`world directory ${targetDir} already exists: remove it or choose another target`);
    }
    checkWindow(meta.window);
    return new WorldBuilder(targetDir, meta, options);
  }

  /** Sets the window when it is only known after reading the sources (importers). */
  setWindow(window: { start: number; end: number }): void {
    this.assertOpen();
    checkWindow(window);
    this.meta.window = { ...window };
  }

  /** Validates (zod, `STREAM_ROW_SCHEMAS`) and inserts rows of one stream kind in one transaction; returns the row count. */
  insert<K extends StreamKind>(kind: K, rows: Iterable<StreamRows[K]>): number {
    const spec = STREAM_SPECS[kind] as KindSpec<StreamRows[K]>;
    const schema = STREAM_ROW_SCHEMAS[kind];
    return this.load(this.world, kind, kind, spec, rows, (row, index) => {
      const parsed = schema.safeParse(row);
      if (!parsed.success) throw rowError(kind, index, parsed.error.issues);
      return parsed.data;
    });
  }

  /**
   * Inserts rows that the caller has already validated against `STREAM_ROW_SCHEMAS[kind]` (an
   * importer that checks each raw row once, at its boundary), skipping the second zod pass. The
   * database still enforces NOT NULL and unique keys. Callers with unchecked rows use `insert`.
   */
  insertValidated<K extends StreamKind>(kind: K, rows: Iterable<StreamRows[K]>): number {
    const spec = STREAM_SPECS[kind] as KindSpec<StreamRows[K]>;
    return this.load(this.world, kind, kind, spec, rows, (row) => row as StreamRows[K]);
  }

  /** Validates and inserts ground-truth rows (truth.db) in one transaction; returns the row count. */
  insertTruth<K extends TruthKind>(kind: K, rows: Iterable<TruthRows[K]>): number {
    const spec = TRUTH_SPECS[kind] as KindSpec<TruthRows[K]>;
    const schema = TRUTH_ROW_SCHEMAS[kind];
    return this.load(this.truth, `truth.${kind}`, kind, spec, rows, (row, index) => {
      const parsed = schema.safeParse(row);
      if (!parsed.success) throw rowError(kind, index, parsed.error.issues);
      return parsed.data;
    });
  }

  /** Records a source file in the manifest. */
  addSource(src: WorldSinkSource): void {
    this.assertOpen();
    this.sources.push({ ...src });
  }

  /**
   * Builds indexes, the news time index (news_order) and the FTS index, runs ANALYZE,
   * computes the manifest hash, writes world.json and renames the temp dir to the target.
   *
   * Manifest hash = sha256 of the canonical JSON of { window, streams (row count per stream kind),
   * truth (row count per truth kind), digests (per kind: RowDigest over natural key + visible_at) }.
   */
  finish(): WorldManifest {
    this.assertOpen();
    try {
      this.commit(this.world);
      this.commit(this.truth);
      const stage = stageTimer(this.finishTimings, this.finishCpuMs);
      const stream = this.ftsStream;
      // The FTS worker optimizes the streamed index (in its side database) and the news index
      // worker sorts the index into its stored form while this thread builds news_order and the
      // indexes and adopts the FTS index; the index worker then writes its tables into world.db.
      // world.db stays in its rollback-journal mode (each page written once) unless other threads
      // read it while this one writes (vector workers, the after-load FTS worker): then WAL.
      const order = stream?.end() ?? null;
      // the news index worker (if any) prepares its tables meanwhile; discarded if not adopted
      if (order !== null) this.newsIndex.prepareWrite();
      // news_order first (committed: the vector workers read it while the other indexes are built)
      this.world.exec(NEWS_ORDER_DDL);
      stage("news_order");
      // vectors made by the news index builder need nothing here
      let vectorsBuilt = this.indexVectors;
      const embedder = this.indexVectors ? null : this.newsEmbedder;
      const newsCount = this.digest("news").rows;
      if (
        embedder !== null &&
        this.options.vectorWorkers > 0 &&
        newsCount >= Math.max(1, this.options.parallelVectorsMinRows) &&
        NewsVectorsJob.supports(embedder)
      ) {
        this.useWal();
        this.vectorJob = NewsVectorsJob.start(
          join(this.tmpDir, WORLD_DB),
          embedder,
          newsCount,
          this.options.vectorWorkers,
        );
        stage("news_vectors_start");
      }
      this.world.exec(WORLD_LATER_INDEXES_DDL);
      stage("indexes");
      if (this.vectorJob === null && stream !== null && embedder !== null) {
        buildNewsVectors(this.world, embedder);
        vectorsBuilt = true;
        stage("news_vectors");
      }
      let adopted = false;
      if (stream !== null) {
        stream.join();
        adopted = order !== null && this.adoptStreamedFts(stream, order);
        stream.discard();
        this.ftsStream = null;
        stage("fts_stream_adopt");
      }
      const db = this.world;
      const newsRows = this.digest("news").rows;
      let indexFed = adopted;
      if (!adopted) {
        this.newsIndex.reset();
        db.exec(NEWS_FTS_DDL);
        if (newsRows >= this.options.parallelFtsMinRows) {
          this.useWal();
          buildNewsFts(db, join(this.tmpDir, WORLD_DB), this.newsIndex);
          this.newsIndex.prepareWrite(); // sorted by its worker during the optimize
          indexFed = true;
        } else {
          db.function("relive_fts_text", { deterministic: true }, (s: unknown) => ftsIndexText(String(s)));
          db.exec(
            "INSERT INTO news_fts (rowid, title, body) SELECT o.seq, relive_fts_text(n.title), relive_fts_text(n.text)" +
              " FROM news_order o JOIN news n ON n.rid = o.rid ORDER BY o.seq",
          );
        }
        stage("fts_insert");
        db.exec("INSERT INTO news_fts (news_fts) VALUES ('optimize')");
        stage("fts_optimize");
      }
      // the relive news index: fed by the FTS build (stream or worker path), else read here
      const feedMs = this.newsIndex.feedMs;
      if (indexFed) this.newsIndex.write(db, newsRows);
      else buildNewsIndex(db, { vectors: this.indexVectors });
      stage("news_index");
      // the part of the index built while the FTS worker inserted (inside fts_insert / the load)
      if (indexFed) this.finishTimings.news_index_feed_overlapped = Math.round(feedMs);
      if (this.vectorJob !== null) {
        this.vectorJob.finish(this.world);
        this.vectorJob = null;
        stage("news_vectors_join");
      } else if (embedder !== null && !vectorsBuilt) {
        buildNewsVectors(db, embedder);
        stage("news_vectors");
      }
      // over news_order: every news row's two times, in a table 20 times narrower than news
      const lag = db
        .prepare(
          "SELECT coalesce(max(published_at - visible_at), 0) AS pv, coalesce(max(visible_at - published_at), 0) AS vp FROM news_order",
        )
        .get() as { pv: number; vp: number };
      const meta = db.prepare("INSERT INTO world_meta (key, value) VALUES (?, ?)");
      meta.run(META_NEWS_LAG_PUB_OVER_VIS, String(lag.pv));
      meta.run(META_NEWS_LAG_VIS_OVER_PUB, String(lag.vp));
      db.pragma("analysis_limit = 2000");
      db.exec("ANALYZE");
      stage("analyze");
      if (this.wal) db.pragma("wal_checkpoint(TRUNCATE)");
      db.pragma("journal_mode = DELETE");
      this.truth.exec("ANALYZE");
      this.truth.pragma("wal_checkpoint(TRUNCATE)");
      this.truth.pragma("journal_mode = DELETE");

      const streams: Record<string, number> = {};
      for (const k of STREAM_KINDS) streams[k] = this.digest(k).rows;
      const hashed = (k: string) => !HASHED_WHEN_PRESENT.has(k) || this.digest(k).rows > 0;
      const hashedStreams: Record<string, number> = {};
      for (const k of STREAM_KINDS) if (hashed(k)) hashedStreams[k] = this.digest(k).rows;
      const truthCounts: Record<string, number> = {};
      const digests: Record<string, string> = {};
      for (const k of TRUTH_KINDS) truthCounts[k] = this.digest(`truth.${k}`).rows;
      for (const [k, d] of [...this.digests.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        if (hashed(k)) digests[k] = d.toString();
      }
      const hash = createHash("sha256")
        .update(JSON.stringify({ window: this.meta.window, streams: hashedStreams, truth: truthCounts, digests }))
        .digest("hex");
      const manifest: WorldManifest = {
        name: this.meta.name,
        window: { ...this.meta.window },
        streams,
        sources: this.sources.map((s) => ({ ...s })),
        builder: this.meta.builder,
        builder_version: this.meta.builder_version,
        built_at: new Date().toISOString(),
        hash,
      };
      const lint = this.digest("question").rows > 0 ? lintQuestions(db, this.truth) : null;
      this.world.close();
      this.truth.close();
      if (lint !== null) writeFileSync(join(this.tmpDir, QUESTION_LINT_JSON), `${JSON.stringify(lint, null, 2)}\n`);
      writeFileSync(join(this.tmpDir, WORLD_JSON), `${JSON.stringify(manifest, null, 2)}\n`);
      if (existsSync(this.targetDir)) {
        throw new WorldDirAppearedError(this.targetDir);
      }
      renameSync(this.tmpDir, this.targetDir);
      stage("close_and_rename");
      this.state = "finished";
      return manifest;
    } catch (e) {
      this.state = "failed";
      this.vectorJob?.abort();
      this.vectorJob = null;
      this.ftsStream?.abort();
      this.ftsStream = null;
      this.newsIndex.reset();
      throw e;
    }
  }

  /** Closes the databases and deletes the temp dir; the target dir is never created. */
  abort(): void {
    if (this.state === "finished" || this.state === "aborted") return;
    this.vectorJob?.abort();
    this.vectorJob = null;
    this.ftsStream?.abort();
    this.ftsStream = null;
    this.newsIndex.reset();
    if (this.world.open) this.world.close();
    if (this.truth.open) this.truth.close();
    rmSync(this.tmpDir, { recursive: true, force: true });
    this.state = "aborted";
  }

  /** The streamed FTS build, started on the first news insert when `streamNewsFts` is set. */
  private newsStream(): NewsFtsStream | null {
    if (!this.options.streamNewsFts) return null;
    if (this.ftsStream === null && this.digest("news").rows === 0) {
      this.ftsStream = new NewsFtsStream(join(this.tmpDir, FTS_SIDE_DB), NEWS_FTS_DDL, this.newsIndex);
    }
    return this.ftsStream;
  }

  /**
   * Adopts the streamed FTS index if its rows were released in exactly news_order's seq order:
   * creates news_fts here, replaces its shadow tables with the side database's (contentless FTS5:
   * data, idx, docsize, config fully define the index), then reopens the connection so no cached
   * FTS5 state survives. Returns false (caller builds the index) if the order differs.
   */
  private adoptStreamedFts(stream: NewsFtsStream, order: number[]): boolean {
    const db = this.world;
    let seq = 0;
    let same = true;
    for (const rid of db.prepare("SELECT rid FROM news_order ORDER BY seq").pluck().iterate() as Iterable<number>) {
      if (order[seq] !== rid) {
        same = false;
        break;
      }
      seq++;
    }
    if (!same || seq !== order.length) return false;
    db.exec(NEWS_FTS_DDL);
    db.prepare("ATTACH DATABASE ? AS fts_side").run(stream.path);
    db.unsafeMode(true);
    try {
      db.transaction(() => {
        for (const t of ["data", "idx", "docsize", "config"]) {
          db.exec(
            `DELETE FROM main.news_fts_${t}; INSERT INTO main.news_fts_${t} SELECT * FROM fts_side.news_fts_${t}`,
          );
        }
      })();
    } finally {
      db.unsafeMode(false);
    }
    db.exec("DETACH DATABASE fts_side");
    db.close();
    this.world = openForBuild(join(this.tmpDir, WORLD_DB), this.wal ? "WAL" : "MEMORY");
    return true;
  }

  /** Switches world.db to WAL (from then on until `finish` ends): other threads read it while this one writes. */
  private useWal(): void {
    if (this.wal) return;
    this.world.pragma("journal_mode = WAL");
    this.wal = true;
  }

  private digest(key: string): RowDigest {
    const d = this.digests.get(key);
    if (!d) throw new Error(`no digest for ${key}`);
    return d;
  }

  private assertOpen(): void {
    if (this.state !== "open") throw new Error(`world builder for ${this.targetDir} is ${this.state}`);
  }

  /**
   * Inserts rows as one savepoint inside the database's open load transaction (begun here, committed
   * every `COMMIT_ROWS` rows and by `finish()`: a page the load touches again and again, such as a
   * leaf of a unique index fed in random key order, is written once per commit instead of once per
   * call); on any error rolls back the savepoint, marks the builder failed and rethrows.
   */
  private load<R>(
    db: Database.Database,
    digestKey: string,
    kind: string,
    spec: KindSpec<R>,
    rows: Iterable<R>,
    validate: (row: unknown, index: number) => R,
  ): number {
    this.assertOpen();
    let stmt = this.stmts.get(digestKey);
    if (!stmt) {
      stmt = db.prepare(insertSql(spec));
      this.stmts.set(digestKey, stmt);
    }
    const insertStmt = stmt;
    const batch = new RowDigest();
    const stream = digestKey === "news" ? this.newsStream() : null;
    let index = 0;
    try {
      if (!db.inTransaction) db.exec("BEGIN");
      db.transaction(() => {
        for (const raw of rows) {
          const row = validate(raw, index);
          let rid: number | bigint;
          try {
            rid = insertStmt.run(spec.params(row)).lastInsertRowid;
          } catch (e) {
            const field = e instanceof Error ? constraintField(e.message) : null;
            if (field !== null) throw new WorldRowError(kind, index, field, "duplicate value (unique key)");
            throw e;
          }
          if (stream?.active) {
            const n = row as unknown as StreamRows["news"];
            stream.add(Number(rid), n.visible_at, n.id, n.title, n.text);
          }
          if (spec.digest) spec.digest(batch, row);
          else batch.add(spec.key(row));
          index++;
        }
      })();
    } catch (e) {
      this.state = "failed";
      this.vectorJob?.abort();
      this.vectorJob = null;
      this.ftsStream?.abort();
      this.ftsStream = null;
      this.newsIndex.reset();
      throw e;
    }
    this.digest(digestKey).merge(batch);
    const pending = (this.uncommitted.get(db) ?? 0) + index;
    this.uncommitted.set(db, pending);
    if (pending >= COMMIT_ROWS) this.commit(db);
    return index;
  }

  /** Commits the load transaction of `db`, if one is open. */
  private commit(db: Database.Database): void {
    if (db.inTransaction) db.exec("COMMIT");
    this.uncommitted.set(db, 0);
  }
}

function stageTimer(into: Record<string, number>, cpuInto: Record<string, number>): (name: string) => void {
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  return (name) => {
    const t = performance.now();
    const c = process.cpuUsage(lastCpu);
    into[name] = Math.round(t - last);
    cpuInto[name] = Math.round((c.user + c.system) / 1000);
    last = t;
    lastCpu = process.cpuUsage();
  };
}

function checkWindow(w: { start: number; end: number }): void {
  if (!Number.isInteger(w.start) || !Number.isInteger(w.end) || w.end < w.start) {
    throw new Error(`invalid world window ${JSON.stringify(w)}: need integer epoch ms with start <= end`);
  }
}

function rowError(
  kind: string,
  index: number,
  issues: readonly { path: PropertyKey[]; message: string }[],
): WorldRowError {
  const issue = issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join(".") : "(row)";
  return new WorldRowError(kind, index, field, issue?.message ?? "invalid row");
}
