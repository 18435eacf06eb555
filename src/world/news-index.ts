import type Database from "better-sqlite3";
import { FtsTokenizer } from "./fts-tokens.js";
import {
  META_NEWS_INDEX_BLOCK,
  META_NEWS_INDEX_DOCS,
  META_NEWS_INDEX_POS_WIDTH,
  META_NEWS_INDEX_TOKENS,
  NEWS_DOCLEN_CHUNK,
} from "./news-index-build.js";

/**
 * The reader of the relive-owned news index (built by `news-index-build.ts`): postings per FTS5
 * term in seq order with block-max bounds, document lengths and corpus totals. `news-top-k.ts`
 * ranks with it exactly like FTS5's bm25(news_fts, 2.0, 1.0); this file also derives the
 * **strict as-of statistics** (documents, tokens and term document frequencies of the articles
 * visible at a seq bound) by prefix sums and binary search over the time-ordered postings.
 */

/** One term's postings: ascending seqs, weighted frequencies, block bounds (last seq, max freq, min length). */
export interface Postings {
  readonly seqs: Int32Array;
  readonly freqs: Uint32Array;
  readonly blocks: Uint32Array;
  /** per block the largest bm25 term factor under the global average length */
  readonly bmax: Float64Array;
}

/**
 * One term's token positions (`news-index-build.ts`: 2·p + 1 in the title, 2·(T + p) in the body):
 * those of posting j are pos[offs[j], offs[j + 1]), ascending.
 */
export interface Positions {
  readonly offs: Uint32Array;
  readonly pos: Uint16Array | Uint32Array;
}

export const EMPTY_POSTINGS: Postings = {
  seqs: new Int32Array(0),
  freqs: new Uint32Array(0),
  blocks: new Uint32Array(0),
  bmax: new Float64Array(0),
};

/**
 * Decoded postings (and, apart, positions) kept in memory, at most this many bytes each (least
 * recently used dropped first): a 1M-article world's broad terms fit, so their blobs are not read
 * back from SQLite per query (6-27 ms for the broadest terms' postings at 1M, measured).
 */
const CACHE_BYTES = 256 * 1024 * 1024;

interface TypedCtor<T> {
  new (b: ArrayBuffer): T;
  new (b: ArrayBuffer, offset: number, length: number): T;
  readonly BYTES_PER_ELEMENT: number;
}

function view<T extends Int32Array | Uint16Array | Uint32Array | Float64Array>(ctor: TypedCtor<T>, b: Buffer): T {
  // better-sqlite3 hands each blob over as a Buffer of its own (the cache may keep it): a view
  // when aligned, else a copy
  if (b.byteOffset % ctor.BYTES_PER_ELEMENT === 0 && b.buffer instanceof ArrayBuffer) {
    return new ctor(b.buffer, b.byteOffset, b.byteLength / ctor.BYTES_PER_ELEMENT);
  }
  const ab = new ArrayBuffer(b.byteLength);
  new Uint8Array(ab).set(b);
  return new ctor(ab);
}

/** at most this many `lnOf` answers are kept (then they are dropped all at once) */
const LN_MEMO_MAX = 100_000;

const postingsBytes = (p: Postings) => p.seqs.byteLength + p.freqs.byteLength + p.blocks.byteLength + p.bmax.byteLength;
/** a cache entry's size: its arrays, or a nominal 64 bytes for a term the corpus lacks */
const entryBytes = (p: Postings) => (p === EMPTY_POSTINGS ? 64 : postingsBytes(p));

/** First index in `a[lo, hi)` with a[i] >= x. */
export function lowerBound(a: Int32Array, x: number, lo = 0, hi = a.length): number {
  let l = lo;
  let h = hi;
  while (l < h) {
    const m = (l + h) >>> 1;
    if ((a[m] as number) < x) l = m + 1;
    else h = m;
  }
  return l;
}

export class NewsIndex {
  readonly docs: number;
  readonly tokens: number;
  readonly block: number;
  /** token count per seq (index seq - 1) */
  readonly docLen: Uint32Array;
  private cumLen: Float64Array | null = null;
  private readonly get: Database.Statement;
  private readonly ln: Database.Statement;
  /** `lnOf`'s answers by argument (a query's idfs take one SQLite call per term otherwise) */
  private readonly lnMemo = new Map<number, number>();
  private readonly cache = new Map<string, Postings>();
  private cacheBytes = 0;
  private tokenizer: FtsTokenizer | null = null;
  private readonly getPos: Database.Statement | null;
  private readonly posWide: boolean;
  private readonly posCache = new Map<string, Positions>();
  private posCacheBytes = 0;

  private constructor(db: Database.Database, meta: Map<string, string>) {
    this.docs = Number(meta.get(META_NEWS_INDEX_DOCS));
    this.tokens = Number(meta.get(META_NEWS_INDEX_TOKENS));
    this.block = Number(meta.get(META_NEWS_INDEX_BLOCK));
    this.docLen = new Uint32Array(this.docs);
    for (const r of db.prepare("SELECT chunk, lens FROM news_doclen ORDER BY chunk").iterate() as Iterable<{
      chunk: number;
      lens: Buffer;
    }>) {
      this.docLen.set(view(Uint32Array, r.lens), r.chunk * NEWS_DOCLEN_CHUNK);
    }
    this.get = db.prepare("SELECT seqs, freqs, blocks, bmax FROM news_postings WHERE term = ?");
    // worlds built before positions were indexed rank phrases by FTS5
    const width = meta.get(META_NEWS_INDEX_POS_WIDTH);
    this.getPos = width === undefined ? null : db.prepare("SELECT counts, pos FROM news_positions WHERE term = ?");
    this.posWide = width === "32";
    // FTS5 takes the natural log from the C library; JS Math.log differs from it in the last bit for
    // about 2% of arguments, so bm25's IDF is computed by SQLite's ln() (the same libm call)
    this.ln = db.prepare("SELECT ln(?) AS v");
  }

  /** The index of a world, or null when the world was built without one. */
  static open(db: Database.Database, meta: Map<string, string>): NewsIndex | null {
    if (!meta.has(META_NEWS_INDEX_DOCS)) return null;
    return new NewsIndex(db, meta);
  }

  /** The postings of an FTS5 term (empty when the corpus lacks it). */
  postings(term: string): Postings {
    const hit = this.cache.get(term);
    if (hit !== undefined) {
      // least recently used order matters only once the cache can fill
      if (this.cacheBytes > CACHE_BYTES / 2) {
        this.cache.delete(term);
        this.cache.set(term, hit);
      }
      return hit;
    }
    const r = this.get.get(term) as { seqs: Buffer; freqs: Buffer; blocks: Buffer; bmax: Buffer } | undefined;
    if (r === undefined) {
      // remembered too (counted as a small entry): agents repeat queries with words the corpus lacks
      this.cache.set(term, EMPTY_POSTINGS);
      this.cacheBytes += entryBytes(EMPTY_POSTINGS);
      return EMPTY_POSTINGS;
    }
    const p: Postings = {
      seqs: view(Int32Array, r.seqs),
      freqs: view(Uint32Array, r.freqs),
      blocks: view(Uint32Array, r.blocks),
      bmax: view(Float64Array, r.bmax),
    };
    this.cache.set(term, p);
    this.cacheBytes += entryBytes(p);
    for (const [k, v] of this.cache) {
      if (this.cacheBytes <= CACHE_BYTES || k === term) break;
      this.cache.delete(k);
      this.cacheBytes -= entryBytes(v);
    }
    return p;
  }

  /** Whether the index holds token positions (phrase queries). */
  get hasPositions(): boolean {
    return this.getPos !== null;
  }

  /** The positions of an FTS5 term's postings (`hasPositions` must hold; empty when the corpus lacks the term). */
  positions(term: string): Positions {
    if (this.getPos === null) throw new Error("news index: this world's index holds no positions");
    const hit = this.posCache.get(term);
    if (hit !== undefined) {
      this.posCache.delete(term);
      this.posCache.set(term, hit);
      return hit;
    }
    const r = this.getPos.get(term) as { counts: Buffer; pos: Buffer } | undefined;
    if (r === undefined) return { offs: new Uint32Array(1), pos: new Uint16Array(0) };
    const counts = this.posWide ? view(Uint32Array, r.counts) : view(Uint16Array, r.counts);
    const offs = new Uint32Array(counts.length + 1);
    for (let j = 0; j < counts.length; j++) offs[j + 1] = (offs[j] as number) + (counts[j] as number);
    const p: Positions = { offs, pos: this.posWide ? view(Uint32Array, r.pos) : view(Uint16Array, r.pos) };
    this.posCache.set(term, p);
    this.posCacheBytes += p.offs.byteLength + p.pos.byteLength;
    for (const [k, v] of this.posCache) {
      if (this.posCacheBytes <= CACHE_BYTES || k === term) break;
      this.posCache.delete(k);
      this.posCacheBytes -= v.offs.byteLength + v.pos.byteLength;
    }
    return p;
  }

  /** Total tokens of the articles with seq <= `hi` (prefix sums built on first use). */
  tokensUpTo(hi: number): number {
    if (this.cumLen === null) {
      const c = new Float64Array(this.docs + 1);
      for (let i = 0; i < this.docs; i++) c[i + 1] = (c[i] as number) + (this.docLen[i] as number);
      this.cumLen = c;
    }
    return this.cumLen[Math.max(0, Math.min(hi, this.docs))] as number;
  }

  /** The FTS5 terms of a query phrase (its content words, one for a single word), in order. */
  queryTerms(words: readonly string[]): string[] {
    this.tokenizer ??= new FtsTokenizer({ maxCache: 100_000 });
    const out: string[] = [];
    for (const w of words) for (const t of this.tokenizer.tokens(w)) out.push(t);
    return out;
  }

  close(): void {
    this.tokenizer?.close();
    this.tokenizer = null;
    this.cache.clear();
    this.posCache.clear();
  }

  /** SQLite's ln(x): the natural log FTS5's bm25 uses. */
  lnOf(x: number): number {
    let v = this.lnMemo.get(x);
    if (v === undefined) {
      v = (this.ln.get(x) as { v: number }).v;
      // an idf's argument depends on the term's document count only (global statistics): few distinct
      if (this.lnMemo.size >= LN_MEMO_MAX) this.lnMemo.clear();
      this.lnMemo.set(x, v);
    }
    return v;
  }
}
