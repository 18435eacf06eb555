import { createHash } from "node:crypto";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { Embedder } from "./embedder.js";
import { ENDPOINT_EMBEDDER_PREFIX, endpointEmbedderId } from "./embedder-endpoint-id.js";
import { l2Normalize } from "./embedder-hashing.js";
import { EmbeddingEndpoint, type EmbeddingEndpointOptions } from "./embedding-endpoint.js";
import {
  buildNewsVectors,
  META_NEWS_VEC_BLOCK,
  META_NEWS_VEC_DIM,
  META_NEWS_VEC_EMBEDDER,
  META_NEWS_VEC_ROWS,
} from "./news-vectors.js";

/** The cache of endpoint embeddings, beside world.db. */
export const EMBEDDINGS_DB = "embeddings.db";
export const META_NEWS_VEC_ENDPOINT = "news_vec_endpoint";
export const META_NEWS_VEC_MODEL = "news_vec_model";
export const META_NEWS_VEC_USD_PER_MTOK = "news_vec_usd_per_mtok";
/** the API key of the query endpoint, read from the environment (never stored in the world) */
export const EMBEDDINGS_API_KEY_ENV = "RELIVE_EMBEDDINGS_API_KEY";

const textKey = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * Endpoint embeddings cached in the world directory (`embeddings.db`: model, sha256 of the text,
 * float32 vector, tokens). A cached text is never sent again, so re-embedding a world and
 * repeating a query cost no request, and a re-run of an episode sees the very same vectors and
 * token counts (DESIGN invariant 6).
 */
export class EmbeddingCache {
  private readonly db: Database.Database;
  private readonly getStmt: Database.Statement;
  private readonly putStmt: Database.Statement;

  constructor(worldDir: string) {
    this.db = new Database(join(worldDir, EMBEDDINGS_DB));
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("busy_timeout = 5000");
    this.db.exec(
      "CREATE TABLE IF NOT EXISTS embedding (model TEXT NOT NULL, key TEXT NOT NULL, vec BLOB NOT NULL, tokens INTEGER NOT NULL, PRIMARY KEY (model, key))",
    );
    this.getStmt = this.db.prepare("SELECT vec, tokens FROM embedding WHERE model = ? AND key = ?");
    this.putStmt = this.db.prepare("INSERT OR REPLACE INTO embedding (model, key, vec, tokens) VALUES (?, ?, ?, ?)");
  }

  get(model: string, text: string): { vector: Float32Array; tokens: number } | null {
    const r = this.getStmt.get(model, textKey(text)) as { vec: Buffer; tokens: number } | undefined;
    if (!r) return null;
    const copy = new Uint8Array(r.vec);
    return { vector: new Float32Array(copy.buffer, 0, copy.byteLength / 4), tokens: r.tokens };
  }

  putMany(model: string, rows: readonly { text: string; vector: Float32Array; tokens: number }[]): void {
    this.db.transaction(() => {
      for (const r of rows)
        this.putStmt.run(
          model,
          textKey(r.text),
          Buffer.from(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength),
          r.tokens,
        );
    })();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** Splits a request's token count over its texts by length (largest remainder), so the parts sum to it. */
function apportion(total: number, texts: readonly string[]): number[] {
  if (texts.length === 1) return [total];
  const len = texts.map((t) => Math.max(1, t.length));
  const sum = len.reduce((s, x) => s + x, 0);
  const raw = len.map((l) => (total * l) / sum);
  const out = raw.map(Math.floor);
  let left = total - out.reduce((s, x) => s + x, 0);
  const order = raw.map((r, i) => [r - Math.floor(r), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (left-- <= 0) break;
    out[i]!++;
  }
  return out;
}

/**
 * Endpoint embeddings through the cache: cached texts are read back, the others sent in batches
 * (asynchronously) and stored with their tokens (a request's count split over its texts by length;
 * a single-text request, e.g. a query, keeps its exact count).
 */
export class CachedEndpointEmbedder {
  readonly endpoint: EmbeddingEndpoint;
  private readonly cache: EmbeddingCache;
  /** requests sent so far */
  requests = 0;

  constructor(endpoint: EmbeddingEndpointOptions, cache: EmbeddingCache) {
    this.endpoint = new EmbeddingEndpoint(endpoint);
    this.cache = cache;
  }

  async embed(texts: readonly string[]): Promise<{ vector: Float32Array; tokens: number }[]> {
    const out: ({ vector: Float32Array; tokens: number } | null)[] = texts.map((t) =>
      this.cache.get(this.endpoint.model, t),
    );
    const missing = [...new Set(texts.filter((_, i) => out[i] === null))];
    if (missing.length > 0) {
      const byText = new Map<string, { vector: Float32Array; tokens: number }>();
      // one request per batch, each cached as soon as it is answered: a failure later keeps what was paid for
      for (let off = 0; off < missing.length; off += this.endpoint.batchSize) {
        const part = missing.slice(off, off + this.endpoint.batchSize);
        const [b] = await this.endpoint.embed(part);
        this.requests++;
        const tokens = apportion(b!.tokens, part);
        const rows = part.map((text, i) => ({ text, vector: b!.vectors[i]!, tokens: tokens[i]! }));
        this.cache.putMany(this.endpoint.model, rows);
        for (const r of rows) byText.set(r.text, r);
      }
      for (let i = 0; i < texts.length; i++) out[i] ??= byText.get(texts[i]!)!;
    }
    return out as { vector: Float32Array; tokens: number }[];
  }
}

/** A world's asynchronous query embedder (endpoint vectors): the L2-normalized vector, its tokens and their price. */
export interface QueryEmbedder {
  readonly id: string;
  readonly dim: number;
  /** USD per million query tokens (the price table's embeddings row, recorded when the world was embedded) */
  readonly usdPerMtok: number;
  embedQuery(q: string): Promise<{ vector: Float32Array; tokens: number; usd: number }>;
}

/** The query embedder of a world whose vectors came from an endpoint (meta of world.db), or null. */
export function openQueryEmbedder(
  worldDir: string,
  meta: ReadonlyMap<string, string>,
  apiKey: string | undefined,
): QueryEmbedder | null {
  const id = meta.get(META_NEWS_VEC_EMBEDDER);
  if (id === undefined || !id.startsWith(ENDPOINT_EMBEDDER_PREFIX)) return null;
  const baseURL = meta.get(META_NEWS_VEC_ENDPOINT);
  const model = meta.get(META_NEWS_VEC_MODEL);
  const usdPerMtok = Number(meta.get(META_NEWS_VEC_USD_PER_MTOK));
  if (baseURL === undefined || model === undefined || !Number.isFinite(usdPerMtok))
    throw new Error(`world ${worldDir}: endpoint vectors (${id}) without their endpoint, model or price in world_meta`);
  const dim = Number(meta.get(META_NEWS_VEC_DIM));
  let embedder: CachedEndpointEmbedder | null = null;
  return {
    id,
    dim,
    usdPerMtok,
    async embedQuery(q) {
      embedder ??= new CachedEndpointEmbedder(
        { baseURL, model, ...(apiKey ? { apiKey } : {}), batchSize: 1 },
        new EmbeddingCache(worldDir),
      );
      const [r] = await embedder.embed([q]);
      if (!r || r.vector.length !== dim)
        throw new Error(
          `embedding endpoint ${baseURL}: a query vector of ${r?.vector.length} dimensions, the world has ${dim}`,
        );
      return { vector: l2Normalize(Float32Array.from(r.vector)), tokens: r.tokens, usd: (r.tokens * usdPerMtok) / 1e6 };
    },
  };
}

/**
 * Replaces a built world's news vectors with endpoint embeddings (`title + "\n" + text` of every
 * article, in seq order): the texts are embedded asynchronously in batches through the world's
 * embedding cache, then the column blocks are rebuilt from the cache and world_meta records the
 * embedder (`endpoint:<model>:<dim>`), the endpoint URL, the model and the query price
 * (`usdPerMtok`, from the price table's embeddings row). The API key is never stored. Returns the
 * article count, the requests sent and the dimension.
 */
export async function embedWorldNews(
  worldDir: string,
  o: { endpoint: EmbeddingEndpointOptions; usdPerMtok: number },
): Promise<{ rows: number; requests: number; dim: number }> {
  if (!Number.isFinite(o.usdPerMtok) || o.usdPerMtok < 0) throw new Error("embedWorldNews: usdPerMtok must be ≥ 0");
  const db = new Database(join(worldDir, "world.db"), { fileMustExist: true });
  const cache = new EmbeddingCache(worldDir);
  try {
    const embedder = new CachedEndpointEmbedder(o.endpoint, cache);
    const read = db.prepare(
      "SELECT o.seq AS seq, n.title AS title, n.text AS text FROM news_order o JOIN news n ON n.rid = o.rid WHERE o.seq > ? ORDER BY o.seq LIMIT 4096",
    );
    let dim: number | null = null;
    for (let seq = 0; ; ) {
      const rows = read.all(seq) as { seq: number; title: string; text: string }[];
      if (rows.length === 0) break;
      const got = await embedder.embed(rows.map((r) => `${r.title}\n${r.text}`));
      for (const g of got) {
        if (dim !== null && g.vector.length !== dim)
          throw new Error(`embedding endpoint: vectors of ${dim} and ${g.vector.length} dimensions`);
        dim = g.vector.length;
      }
      seq = rows.at(-1)!.seq;
    }
    dim ??= (await embedder.embed(["dimension probe"]))[0]!.vector.length;
    const model = o.endpoint.model;
    const id = endpointEmbedderId(model, dim);
    const fromCache: Embedder = {
      id,
      dim,
      embed: (texts) =>
        texts.map((t) => {
          const c = cache.get(model, t);
          if (!c) throw new Error(`internal: ${t.slice(0, 40)} is not in the embedding cache`);
          return Float32Array.from(c.vector);
        }),
    };
    db.transaction(() => {
      db.exec("DROP TABLE IF EXISTS news_vec; DROP TABLE IF EXISTS news_vec_scale;");
      const del = db.prepare("DELETE FROM world_meta WHERE key = ?");
      for (const k of [
        META_NEWS_VEC_EMBEDDER,
        META_NEWS_VEC_DIM,
        META_NEWS_VEC_ROWS,
        META_NEWS_VEC_BLOCK,
        META_NEWS_VEC_ENDPOINT,
        META_NEWS_VEC_MODEL,
        META_NEWS_VEC_USD_PER_MTOK,
      ])
        del.run(k);
      const rows = buildNewsVectors(db, fromCache);
      const meta = db.prepare("INSERT INTO world_meta (key, value) VALUES (?, ?)");
      meta.run(META_NEWS_VEC_ENDPOINT, new EmbeddingEndpoint(o.endpoint).baseURL);
      meta.run(META_NEWS_VEC_MODEL, model);
      meta.run(META_NEWS_VEC_USD_PER_MTOK, String(o.usdPerMtok));
      return rows;
    })();
    const rows = Number(
      (db.prepare("SELECT value FROM world_meta WHERE key = ?").get(META_NEWS_VEC_ROWS) as { value: string }).value,
    );
    return { rows, requests: embedder.requests, dim };
  } finally {
    cache.close();
    db.close();
  }
}
