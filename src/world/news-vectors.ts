import type Database from "better-sqlite3";
import type { Embedder } from "./embedder.js";
import { getEmbedder } from "./embedder.js";
import { endpointEmbedderDim } from "./embedder-endpoint-id.js";
import { l2Normalize } from "./embedder-hashing.js";

/**
 * News vectors for hybrid search, stored column-major in world.db and scanned exactly.
 *
 * Layout: rows are news_order seqs 1..N (monotone in visible_at), cut into blocks of
 * `NEWS_VEC_BLOCK` rows. For each block and dimension j, `news_vec` holds one BLOB of int8 values
 * (dimension j of every row of the block); `news_vec_scale` holds one float32 per row: each row is
 * L2-normalized, then quantized to int8 by its own max |value| (scale = max / 127). A query's score
 * for row i is Σ_j q_j · int8_ij · scale_i ≈ cos(q, row i).
 *
 * Why not a vec0 table: sqlite-vec 0.1.9's vec0 is exact brute force too, and its metadata columns
 * do filter *during* KNN (a `seq <= ?` metadata constraint fills k from the visible past; a rowid
 * range silently returns nothing), but every KNN query reads every chunk: about 1.4 µs per vector
 * from disk (0.3 µs in memory) at 256 dimensions, i.e. over a second per query at 1M articles. The
 * column layout reads only the dimensions where the query vector is non-zero (a query of a few
 * words touches ~10-40 of 256 hashed dimensions) and only the rows of the as-of seq range, so the
 * as-of bound is the scan range itself: applied before ranking, never after.
 */

export const NEWS_VEC_BLOCK = 65_536;
/** `news_vec.key` = dim · NEWS_VEC_KEY_STRIDE + block */
const KEY_STRIDE = 1 << 20;

export const META_NEWS_VEC_EMBEDDER = "news_vec_embedder";
export const META_NEWS_VEC_DIM = "news_vec_dim";
export const META_NEWS_VEC_ROWS = "news_vec_rows";
export const META_NEWS_VEC_BLOCK = "news_vec_block_rows";

export const NEWS_VEC_DDL = `
CREATE TABLE news_vec (key INTEGER PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE news_vec_scale (block INTEGER PRIMARY KEY, data BLOB NOT NULL);
`;

/** texts embedded per `embed` call during the build */
const EMBED_BATCH = 1024;

const asBuffer = (a: Int8Array | Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/**
 * Embeds `rows` (title + "\n" + text each), L2-normalizes and quantizes them: `q` is column-major
 * (dimension j of row r at `q[j * n + r]`), `scale` one float32 per row (0 for a zero vector, whose
 * int8 values stay 0). Embeds in batches of `EMBED_BATCH` texts. The one quantizer of both the
 * main-thread and the worker build, so both give the same bytes.
 */
export function embedRows(
  embedder: Embedder,
  rows: readonly { title: string; text: string }[],
): { q: Int8Array; scale: Float32Array } {
  const dim = embedder.dim;
  const n = rows.length;
  const q = new Int8Array(n * dim);
  const scale = new Float32Array(n);
  for (let off = 0; off < n; off += EMBED_BATCH) {
    const part = rows.slice(off, off + EMBED_BATCH);
    const vecs = embedder.embed(part.map((r) => `${r.title}\n${r.text}`));
    for (let k = 0; k < part.length; k++) {
      const v = vecs[k];
      if (!v || v.length !== dim) throw new Error(`embedder ${embedder.id} returned a vector of the wrong length`);
      quantizeRow(v, q, n, off + k, scale, off + k);
    }
  }
  return { q, scale };
}

/**
 * L2-normalizes `v` (in place), then stores it quantized to int8 by its max |value|: dimension j at
 * `q[at + j * stride]` (row r of a column-major block of n rows: at = r, stride = n; of a row-major
 * one: at = r · dim, stride = 1) and the scale max / 127 at `scale[scaleAt]` (a zero vector leaves
 * both untouched). The quantizer of every vector build.
 */
export function quantizeRow(
  v: Float32Array,
  q: Int8Array,
  stride: number,
  at: number,
  scale: Float32Array,
  scaleAt: number,
): void {
  const dim = v.length;
  l2Normalize(v);
  let max = 0;
  for (let j = 0; j < dim; j++) max = Math.max(max, Math.abs(v[j] as number));
  if (max === 0) return;
  const s = max / 127;
  scale[scaleAt] = s;
  for (let j = 0; j < dim; j++) q[at + j * stride] = Math.round((v[j] as number) / s);
}

/** The news rows with seq in (after, after + limit], in seq order (a world under construction: news_order exists). */
export const NEWS_VEC_READ_SQL =
  "SELECT o.seq AS seq, n.title AS title, n.text AS text FROM news_order o JOIN news n ON n.rid = o.rid" +
  " WHERE o.seq > ? ORDER BY o.seq LIMIT ?";

/** Throws unless `rows` are seqs after+1, after+2, ... */
export function checkContiguous(rows: readonly { seq: number }[], after: number): void {
  for (let k = 0; k < rows.length; k++)
    if ((rows[k] as { seq: number }).seq !== after + k + 1) throw new Error("news_order seqs are not contiguous");
}

/** Writes one block's columns (`q` column-major over the block's `n` rows) and scales. */
export function writeNewsVecBlock(
  db: Database.Database,
  dim: number,
  block: number,
  n: number,
  q: Int8Array,
  scale: Float32Array,
): void {
  const putCol = db.prepare("INSERT INTO news_vec (key, data) VALUES (?, ?)");
  const putScale = db.prepare("INSERT INTO news_vec_scale (block, data) VALUES (?, ?)");
  db.transaction(() => {
    for (let j = 0; j < dim; j++) putCol.run(j * KEY_STRIDE + block, asBuffer(q.subarray(j * n, (j + 1) * n)));
    putScale.run(block, asBuffer(scale));
  })();
}

/** Records the vectors' embedder, dimension, row count and block size in world_meta. */
export function writeNewsVecMeta(db: Database.Database, embedder: Embedder, rows: number): void {
  const meta = db.prepare("INSERT INTO world_meta (key, value) VALUES (?, ?)");
  meta.run(META_NEWS_VEC_EMBEDDER, embedder.id);
  meta.run(META_NEWS_VEC_DIM, String(embedder.dim));
  meta.run(META_NEWS_VEC_ROWS, String(rows));
  meta.run(META_NEWS_VEC_BLOCK, String(NEWS_VEC_BLOCK));
}

export function checkEmbedderDim(embedder: Embedder): void {
  const dim = embedder.dim;
  if (!Number.isInteger(dim) || dim < 1 || dim >= 4096) throw new Error(`embedder ${embedder.id}: bad dim ${dim}`);
}

/**
 * Embeds every article (title + "\n" + text) in seq order on this thread and writes the column
 * blocks and the embedder's id into `db` (a world under construction: news_order must exist).
 * Returns the row count. `news-vectors-parallel.ts` builds the same bytes in worker threads.
 */
export function buildNewsVectors(db: Database.Database, embedder: Embedder): number {
  checkEmbedderDim(embedder);
  db.exec(NEWS_VEC_DDL);
  const read = db.prepare(NEWS_VEC_READ_SQL);
  let rows = 0;
  for (let block = 0; ; block++) {
    const batch = read.all(rows, NEWS_VEC_BLOCK) as { seq: number; title: string; text: string }[];
    if (batch.length === 0) break;
    checkContiguous(batch, rows);
    const { q, scale } = embedRows(embedder, batch);
    writeNewsVecBlock(db, embedder.dim, block, batch.length, q, scale);
    rows += batch.length;
  }
  writeNewsVecMeta(db, embedder, rows);
  return rows;
}

export interface VectorHit {
  seq: number;
  score: number;
}

/**
 * A world's news vectors, opened read-only. Columns are loaded on first use and kept (at most
 * rows × dim bytes); the per-row scales are loaded at open. Not thread-safe (one scan buffer).
 */
export class NewsVectors {
  /**
   * the embedder that built the vectors and embeds queries; null for endpoint vectors
   * (`endpoint:<model>:<dim>`), whose queries are embedded asynchronously (WorldStore.queryEmbedder)
   */
  readonly embedder: Embedder | null;
  readonly rows: number;
  readonly dim: number;
  private readonly cols: (Int8Array | undefined)[];
  private readonly scale: Float32Array;
  private readonly acc: Float32Array;
  private readonly db: Database.Database;

  private constructor(
    db: Database.Database,
    readonly embedderId: string,
    embedder: Embedder | null,
    dim: number,
    rows: number,
  ) {
    this.db = db;
    this.embedder = embedder;
    this.rows = rows;
    this.dim = dim;
    this.cols = new Array(this.dim);
    this.scale = new Float32Array(rows);
    this.acc = new Float32Array(rows);
    const blocks = db.prepare("SELECT block, data FROM news_vec_scale ORDER BY block").all() as {
      block: number;
      data: Buffer;
    }[];
    for (const b of blocks) this.scale.set(floats(b.data), b.block * NEWS_VEC_BLOCK);
  }

  /** The vectors of a world, or null when it has none (built without an embedder, or before vectors existed). */
  static open(db: Database.Database, meta: ReadonlyMap<string, string>): NewsVectors | null {
    const id = meta.get(META_NEWS_VEC_EMBEDDER);
    if (id === undefined) return null;
    const endpointDim = endpointEmbedderDim(id);
    const embedder = endpointDim === null ? getEmbedder(id) : null;
    const dim = Number(meta.get(META_NEWS_VEC_DIM));
    const block = Number(meta.get(META_NEWS_VEC_BLOCK));
    if (dim !== (embedder?.dim ?? endpointDim) || block !== NEWS_VEC_BLOCK)
      throw new Error(`news vectors of this world (${id}, dim ${dim}, block ${block}) do not match this build`);
    return new NewsVectors(db, id, embedder, dim, Number(meta.get(META_NEWS_VEC_ROWS)));
  }

  /** The query's embedding, L2-normalized (a zero vector when it has no usable words). */
  embedQuery(q: string): Float32Array {
    if (this.embedder === null)
      throw new Error(
        `embedder ${this.embedderId}: query vectors come from the embedding endpoint (WorldStore.queryEmbedder)`,
      );
    const v = this.embedder.embed([q])[0];
    if (!v || v.length !== this.dim)
      throw new Error(`embedder ${this.embedderId} returned a vector of the wrong length`);
    return l2Normalize(v);
  }

  /**
   * The `limit` rows with seq in [lo, hi] (1-based, inclusive), not in `skip`, with the highest
   * score > 0 against `query`, best first; ties by seq ascending. Rows outside the range are never
   * read, so the range is the as-of filter and it is applied before ranking.
   */
  topK(query: Float32Array, lo: number, hi: number, limit: number, skip: ReadonlySet<number> = EMPTY): VectorHit[] {
    const a = Math.max(1, lo) - 1;
    const b = Math.min(this.rows, hi);
    if (b <= a || limit < 1) return [];
    const acc = this.acc;
    acc.fill(0, a, b);
    let any = false;
    for (let j = 0; j < this.dim; j++) {
      const w = query[j] as number;
      if (w === 0) continue;
      any = true;
      const col = this.col(j);
      for (let i = a; i < b; i++) acc[i] = (acc[i] as number) + w * (col[i] as number);
    }
    if (!any) return [];
    const heap = new TopHeap(limit);
    const scale = this.scale;
    for (let i = a; i < b; i++) {
      const s = (acc[i] as number) * (scale[i] as number);
      if (s > 1e-9 && heap.admits(s, i + 1) && !skip.has(i + 1)) heap.push(s, i + 1);
    }
    return heap.sorted();
  }

  private col(j: number): Int8Array {
    let c = this.cols[j];
    if (c === undefined) {
      c = new Int8Array(this.rows);
      const get = this.db.prepare("SELECT data FROM news_vec WHERE key = ?");
      const blocks = Math.ceil(this.rows / NEWS_VEC_BLOCK);
      for (let blk = 0; blk < blocks; blk++) {
        const r = get.get(j * KEY_STRIDE + blk) as { data: Buffer } | undefined;
        if (!r) throw new Error(`news vectors: block ${blk} of dimension ${j} is missing`);
        c.set(new Int8Array(r.data.buffer, r.data.byteOffset, r.data.byteLength), blk * NEWS_VEC_BLOCK);
      }
      this.cols[j] = c;
    }
    return c;
  }
}

const EMPTY: ReadonlySet<number> = new Set();

function floats(b: Buffer): Float32Array {
  // copy: a Buffer's offset need not be 4-aligned
  const out = new Float32Array(b.byteLength / 4);
  new Uint8Array(out.buffer).set(b);
  return out;
}

/** A bounded min-heap of (score, seq): keeps the best `k`; better = higher score, then lower seq. */
class TopHeap {
  private readonly s: number[] = [];
  private readonly q: number[] = [];
  constructor(private readonly k: number) {}

  /** worse(a, b): a ranks below b */
  private worse(i: number, j: number): boolean {
    const a = this.s[i] as number;
    const b = this.s[j] as number;
    return a < b || (a === b && (this.q[i] as number) > (this.q[j] as number));
  }

  admits(score: number, seq: number): boolean {
    if (this.s.length < this.k) return true;
    const ms = this.s[0] as number;
    return score > ms || (score === ms && seq < (this.q[0] as number));
  }

  push(score: number, seq: number): void {
    if (this.s.length < this.k) {
      this.s.push(score);
      this.q.push(seq);
      let i = this.s.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.worse(i, p)) break;
        this.swap(i, p);
        i = p;
      }
      return;
    }
    this.s[0] = score;
    this.q[0] = seq;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.s.length && this.worse(l, m)) m = l;
      if (r < this.s.length && this.worse(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }

  private swap(i: number, j: number): void {
    [this.s[i], this.s[j]] = [this.s[j] as number, this.s[i] as number];
    [this.q[i], this.q[j]] = [this.q[j] as number, this.q[i] as number];
  }

  sorted(): VectorHit[] {
    return this.s
      .map((score, i) => ({ seq: this.q[i] as number, score }))
      .sort((x, y) => y.score - x.score || x.seq - y.seq);
  }
}
