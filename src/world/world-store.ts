import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { z } from "zod";
import type { AsOfView } from "./as-of-view.js";
import { EMBEDDINGS_API_KEY_ENV, openQueryEmbedder, type QueryEmbedder } from "./endpoint-embedder.js";
import { NewsIndex } from "./news-index.js";
import { NewsVectors } from "./news-vectors.js";
import { META_NEWS_LAG_PUB_OVER_VIS, META_NEWS_LAG_VIS_OVER_PUB } from "./schema.js";
import { SqliteAsOfView, type ViewBackend, type ViewOptions } from "./sqlite-as-of-view.js";
import type { WorldManifest } from "./types.js";
import { WORLD_DB, WORLD_JSON } from "./world-builder.js";

export const WorldManifestSchema = z.object({
  name: z.string(),
  window: z.object({ start: z.number().int(), end: z.number().int() }),
  streams: z.record(z.string(), z.number().int().nonnegative()),
  sources: z.array(
    z.object({ path: z.string(), sha256: z.string(), rows: z.number().int(), rejected: z.number().int() }),
  ),
  builder: z.string(),
  builder_version: z.string(),
  built_at: z.string(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
});

/** rows `WorldStore.memoAll` keeps per world */
const MEMO_MAX_ROWS = 50_000;

/** what a world error tells the user to do */
export const WORLD_HOW_TO_FIX =
  "rebuild the world (e.g. `relive data build` / `relive data import`) into a fresh directory";

/** Reads and validates `<dir>/world.json`; errors name the directory and what to do. */
export function readWorldManifest(dir: string): WorldManifest {
  const path = join(dir, WORLD_JSON);
  if (!existsSync(dir)) throw new Error(`world directory ${dir} does not exist: ${WORLD_HOW_TO_FIX}`);
  if (!existsSync(path)) throw new Error(`world directory ${dir} has no ${WORLD_JSON}: ${WORLD_HOW_TO_FIX}`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new Error(
      `world directory ${dir}: ${WORLD_JSON} is not valid JSON (${(e as Error).message}): ${WORLD_HOW_TO_FIX}`,
    );
  }
  const parsed = WorldManifestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `world directory ${dir}: ${WORLD_JSON} is invalid at "${issue?.path.map(String).join(".") ?? ""}": ${issue?.message ?? ""}: ${WORLD_HOW_TO_FIX}`,
    );
  }
  return parsed.data;
}

/**
 * An opened world directory (scorer/environment side). `db` is the read-only world.db handle;
 * agents only ever see it through `at(now)`, an as-of view bound to the run's clock.
 */
export class WorldStore implements ViewBackend {
  readonly dir: string;
  readonly manifest: WorldManifest;
  readonly db: Database.Database;
  readonly newsLagPubOverVis: number;
  readonly newsLagVisOverPub: number;
  private readonly stmts = new Map<string, Database.Statement>();
  private vectors: NewsVectors | null | undefined;
  private index: NewsIndex | null | undefined;
  private queryEmb: QueryEmbedder | null | undefined;
  private published: Float64Array | undefined;
  private postLead: number | undefined;
  private readonly indexes = new Map<string, boolean>();
  /** `memoAll`'s rows by statement and parameters, least recently used first */
  private readonly memo = new Map<string, readonly object[]>();
  private memoRows = 0;
  /** `memoAll` answers from memory / from the database (diagnostics) */
  readonly memoCounts = { hits: 0, misses: 0 };

  private constructor(dir: string, manifest: WorldManifest, db: Database.Database) {
    this.dir = dir;
    this.manifest = manifest;
    this.db = db;
    const meta = new Map(
      (db.prepare("SELECT key, value FROM world_meta").all() as { key: string; value: string }[]).map((r) => [
        r.key,
        Number(r.value),
      ]),
    );
    this.newsLagPubOverVis = meta.get(META_NEWS_LAG_PUB_OVER_VIS) ?? 0;
    this.newsLagVisOverPub = meta.get(META_NEWS_LAG_VIS_OVER_PUB) ?? 0;
  }

  static open(dir: string): WorldStore {
    const manifest = readWorldManifest(dir);
    const path = join(dir, WORLD_DB);
    if (!existsSync(path)) throw new Error(`world directory ${dir} has no ${WORLD_DB}: ${WORLD_HOW_TO_FIX}`);
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      return new WorldStore(dir, manifest, db);
    } catch (e) {
      db.close();
      throw new Error(
        `world directory ${dir}: ${WORLD_DB} is not a relive world (${(e as Error).message}): ${WORLD_HOW_TO_FIX}`,
      );
    }
  }

  /** A cached prepared statement over world.db. */
  stmt(sql: string): Database.Statement {
    let s = this.stmts.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.stmts.set(sql, s);
    }
    return s;
  }

  /** The news vectors of hybrid search (opened on first use), or null when the world was built without them. */
  newsVectors(): NewsVectors | null {
    if (this.vectors === undefined) {
      const meta = new Map(
        (this.db.prepare("SELECT key, value FROM world_meta").all() as { key: string; value: string }[]).map((r) => [
          r.key,
          r.value,
        ]),
      );
      this.vectors = NewsVectors.open(this.db, meta);
    }
    return this.vectors;
  }

  /**
   * The asynchronous query embedder of a world whose news vectors came from an embedding endpoint
   * (`embedWorldNews`), or null (the hashing embedder, or no vectors). The API key comes from
   * RELIVE_EMBEDDINGS_API_KEY when set.
   */
  queryEmbedder(): QueryEmbedder | null {
    if (this.queryEmb === undefined) {
      const meta = new Map(
        (this.db.prepare("SELECT key, value FROM world_meta").all() as { key: string; value: string }[]).map((r) => [
          r.key,
          r.value,
        ]),
      );
      this.queryEmb = openQueryEmbedder(this.dir, meta, process.env[EMBEDDINGS_API_KEY_ENV]);
    }
    return this.queryEmb;
  }

  /** The relive-owned news index (opened on first use), or null when the world was built without one. */
  newsIndex(): NewsIndex | null {
    if (this.index === undefined) {
      const meta = new Map(
        (this.db.prepare("SELECT key, value FROM world_meta").all() as { key: string; value: string }[]).map((r) => [
          r.key,
          r.value,
        ]),
      );
      this.index = NewsIndex.open(this.db, meta);
    }
    return this.index;
  }

  /**
   * The rows of a view's statement with its parameters (the as-of bound among them), kept in
   * memory for the next view over this world asking the same (a grid job process's runs of one
   * world and policy repeat their queries); each call gets copies, so no caller can change what
   * another reads. At most MEMO_MAX_ROWS rows are kept (least recently used dropped first).
   */
  memoAll<R extends object>(sql: string, params: Record<string, number | string>): R[] {
    const key = `${sql}\u0000${JSON.stringify(params)}`;
    let rows = this.memo.get(key);
    if (rows) {
      this.memoCounts.hits++;
      this.memo.delete(key);
    } else {
      this.memoCounts.misses++;
      rows = this.stmt(sql).all(params) as object[];
      this.memoRows += rows.length;
      while (this.memoRows > MEMO_MAX_ROWS && this.memo.size > 0) {
        const [oldest, dropped] = this.memo.entries().next().value!;
        this.memo.delete(oldest);
        this.memoRows -= dropped.length;
      }
    }
    this.memo.set(key, rows);
    return rows.map((r) => ({ ...r }) as R);
  }

  /** whether world.db has the named index (asked once per name) */
  hasIndex(name: string): boolean {
    let has = this.indexes.get(name);
    if (has === undefined) {
      has = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").get(name) !== undefined;
      this.indexes.set(name, has);
    }
    return has;
  }

  /** max(created_utc - visible_at) over the Reddit posts (0 when none), read on first use. */
  redditPostLead(): number {
    this.postLead ??= (
      this.db.prepare("SELECT coalesce(max(created_utc - visible_at), 0) AS d FROM reddit_post").get() as { d: number }
    ).d;
    return this.postLead;
  }

  /** published_at of every article by seq (index seq - 1), read on first use. */
  newsPublished(): Float64Array {
    if (this.published === undefined) {
      const n = (this.db.prepare("SELECT coalesce(max(seq), 0) AS n FROM news_order").get() as { n: number }).n;
      const pub = new Float64Array(n);
      for (const r of this.db
        .prepare("SELECT seq, published_at FROM news_order ORDER BY seq")
        .raw()
        .iterate() as Iterable<[number, number]>) {
        pub[r[0] - 1] = r[1];
      }
      this.published = pub;
    }
    return this.published;
  }

  /**
   * An as-of view bound to a live clock: every call reads `now()`. `opts.search`: the BM25 corpus
   * statistics of news search (`global`, the default, or `strict`: as of now; see SearchStats).
   */
  at(now: () => number, opts: ViewOptions = {}): AsOfView {
    return new SqliteAsOfView(this, now, opts);
  }

  close(): void {
    this.index?.close();
    this.index = undefined;
    this.stmts.clear();
    this.memo.clear();
    this.memoRows = 0;
    if (this.db.open) this.db.close();
  }
}
