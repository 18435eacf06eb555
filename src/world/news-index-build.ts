import type Database from "better-sqlite3";
import { fmix32 } from "../common/random.js";
import { bm25Tf } from "./bm25.js";
import { getEmbedder } from "./embedder.js";
import { HASHING_EMBEDDER_ID, wordFeature } from "./embedder-hashing.js";
import { ftsIndexTextFast } from "./fts-build.js";
import { FtsTokenizer } from "./fts-tokens.js";
import { WordVectors } from "./news-vectors-words.js";

/**
 * Builds the relive-owned inverted index of news (`news-index.ts` reads it) from the same prepared
 * texts as `news_fts` (title and body with stopwords removed) and the same FTS5 tokens
 * (`FtsTokenizer`), so its postings, document lengths and corpus totals are exactly those FTS5's
 * bm25() sees.
 *
 * Tables (world.db):
 * - `news_postings(term, df, seqs, freqs, blocks)`: one row per FTS5 term; `seqs` = the ascending
 *   news_order seqs of the articles containing it (int32 LE), `freqs` = per posting the weighted
 *   frequency 2·(title occurrences) + 1·(body occurrences) (uint32 LE: bm25's column weights 2, 1),
 *   `blocks` = per block of `NEWS_INDEX_BLOCK` postings (last seq, max freq, min document length)
 *   as uint32 triples, and `bmax` = per block the largest bm25 term factor of its postings under the
 *   world's own average length (float64 LE): the block-max bounds of early termination (`bmax`
 *   with the global statistics, the triples with as-of statistics).
 * - `news_doclen(chunk, lens)`: the token count of every article (title + body) by seq, uint32 LE,
 *   in chunks of `NEWS_DOCLEN_CHUNK` seqs.
 * - `news_positions(term, counts, pos)`: the token positions of every posting (phrase queries):
 *   `counts` = per posting of `news_postings.seqs` its occurrence count, `pos` = the postings'
 *   positions one after the other, each ascending, as 2·p + 1 in the title (p its FTS5 position
 *   there) and 2·(T + p) in the body (T the title's token count): consecutive FTS5 positions of one
 *   column differ by 2, two columns never meet. Both uint16 LE when `news_index_pos_width` is 16
 *   (every value fits), else uint32 LE.
 * - world_meta `news_index_docs`, `news_index_tokens`, `news_index_block`, `news_index_pos_width`.
 */

export const NEWS_INDEX_BLOCK = 64;
export const NEWS_DOCLEN_CHUNK = 65_536;
export const META_NEWS_INDEX_DOCS = "news_index_docs";
export const META_NEWS_INDEX_TOKENS = "news_index_tokens";
export const META_NEWS_INDEX_BLOCK = "news_index_block";
export const META_NEWS_INDEX_POS_WIDTH = "news_index_pos_width";

export const NEWS_INDEX_DDL = `
CREATE TABLE news_postings (
  term TEXT PRIMARY KEY,
  df INTEGER NOT NULL,
  seqs BLOB NOT NULL,
  freqs BLOB NOT NULL,
  blocks BLOB NOT NULL,
  bmax BLOB NOT NULL
);
CREATE TABLE news_doclen (chunk INTEGER PRIMARY KEY, lens BLOB NOT NULL);
CREATE TABLE news_positions (term TEXT PRIMARY KEY, counts BLOB NOT NULL, pos BLOB NOT NULL);
`;

const READ_BATCH = 5000;

/** A growable uint32 buffer. */
class U32 {
  a = new Uint32Array(1 << 16);
  n = 0;
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Uint32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
  /** makes room for `total` values */
  reserve(total: number): void {
    if (total <= this.a.length) return;
    let size = this.a.length;
    while (size < total) size *= 2;
    const b = new Uint32Array(size);
    b.set(this.a.subarray(0, this.n));
    this.a = b;
  }
}

/**
 * Word ids of the space-separated words of prepared texts, looked up in place: the caller hashes
 * each word while scanning (FNV-1a over UTF-16 code units, then `fmix32`) and an open-addressing
 * table compares the candidate's characters, so a known word costs no substring and no second
 * pass. A slot holds (hash, id + 1, offset, length) in one Int32Array and the words' characters
 * sit one after another in one Uint16Array, so a probe touches two flat arrays and no string
 * object. Ids are assigned in first-seen order.
 */
class WordIds {
  private pool = new Uint16Array(1 << 18);
  private poolN = 0;
  private tab = new Int32Array(4 << 16); // per slot: hash, id + 1 (0 = empty), pool offset, length
  private mask = (1 << 16) - 1;
  private n = 0;

  get size(): number {
    return this.n;
  }

  /** the id of `text[a, b)` (hash `h`), adding the word (and pushing it onto `fresh`) if new */
  id(text: string, a: number, b: number, h: number, fresh: string[]): number {
    const tab = this.tab;
    const pool = this.pool;
    const len = b - a;
    const mask = this.mask;
    let i = h & mask;
    for (;;) {
      const x = i << 2;
      const s = tab[x + 1] as number;
      if (s === 0) break;
      if (tab[x] === h && tab[x + 3] === len) {
        const off = tab[x + 2] as number;
        let k = 0;
        while (k < len && pool[off + k] === text.charCodeAt(a + k)) k++;
        if (k === len) return s - 1;
      }
      i = (i + 1) & mask;
    }
    const id = this.n++;
    fresh.push(text.slice(a, b));
    if (this.poolN + len > pool.length) {
      let size = pool.length * 2;
      while (size < this.poolN + len) size *= 2;
      const grown = new Uint16Array(size);
      grown.set(pool.subarray(0, this.poolN));
      this.pool = grown;
    }
    const off = this.poolN;
    const dst = this.pool;
    for (let k = 0; k < len; k++) dst[off + k] = text.charCodeAt(a + k);
    this.poolN = off + len;
    const x = i << 2;
    tab[x] = h;
    tab[x + 1] = id + 1;
    tab[x + 2] = off;
    tab[x + 3] = len;
    if (2 * this.n > mask) this.grow();
    return id;
  }

  private grow(): void {
    const size = 2 * (this.mask + 1);
    const tab = new Int32Array(4 * size);
    const mask = size - 1;
    const old = this.tab;
    for (let x = 0; x < old.length; x += 4) {
      if (old[x + 1] === 0) continue;
      let j = (old[x] as number) & mask;
      while (tab[(j << 2) + 1] !== 0) j = (j + 1) & mask;
      tab.set(old.subarray(x, x + 4), j << 2);
    }
    this.tab = tab;
    this.mask = mask;
  }
}

/** `NewsIndexBuilder.wordInfo` term values of a word without FTS5 tokens and of one with several */
const NO_TERM = -1;
const MANY_TERMS = -2;

const bytes = (a: Uint16Array | Uint32Array | Int32Array | Float64Array) =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** What the FTS build feeds (a `NewsIndexBuilder` here, or `NewsIndexJob` on a worker thread). */
export interface NewsIndexFeed {
  /** Articles added so far (the last seq). */
  readonly size: number;
  /**
   * Adds articles seq[i] (which must continue 1, 2, ...) with prepared title and body texts;
   * `joined` may carry the same texts newline-joined (prepared texts hold no newline), when the
   * caller has them anyway.
   */
  addBatch(
    seq: readonly number[],
    title: readonly string[],
    body: readonly string[],
    joined?: { title: string; body: string },
  ): void;
  /** Forgets everything added. */
  reset(): void;
}

/**
 * Accumulates the index from prepared texts (`ftsIndexTextFast` of title and body) given in seq
 * order 1, 2, ... — fed by the FTS build itself (`buildNewsFts`, `NewsFtsStream`) on the thread that
 * prepares the texts while the FTS worker inserts them, so the index costs little extra wall time —
 * then `write(db)` stores it.
 */
export class NewsIndexBuilder implements NewsIndexFeed {
  private readonly withVectors: boolean;
  /** the hashing embedder's vectors of the same articles (`opts.vectors`), from the same words */
  private vectors: WordVectors | null;
  private tok: FtsTokenizer | null = null;
  private termOf = new Map<string, number>(); // FTS5 term -> term id
  private terms: string[] = [];
  private wordId = new WordIds(); // prepared word -> word id
  /**
   * per word id w: [2w] its term id when the word is exactly one FTS5 token, else NO_TERM (none)
   * or MANY_TERMS (see wordTermsMany); [2w + 1] its feature hash for the vectors (`wordFeature`).
   * One cache line serves both passes over an article's words.
   */
  private wordInfo = new Int32Array(2 << 16);
  private wordTermsMany = new Map<number, readonly number[]>();
  private batchWids = new U32();
  private docTerm = new U32(); // per (doc, term): term id
  private docFreq = new U32(); // per (doc, term): weighted frequency
  private docCount = new U32(); // per (doc, term): occurrences
  private docPos = new U32(); // per (doc, term) in that order: its encoded positions, ascending
  private occTerm = new Uint32Array(1024); // the current doc's token occurrences: term id
  private occPos = new Uint32Array(1024); // ... and encoded position
  private touched = new Uint32Array(1024); // the current doc's distinct terms, in first-occurrence order
  private maxPos = 0;
  private docStart = new U32(); // per doc: offset into docTerm
  private lens = new U32();
  /** per term t: [2t] its weighted frequency in the current doc, [2t + 1] its occurrences there, then its next slot in docPos */
  private acc = new Uint32Array(2048);
  private totalTokens = 0;
  private docs = 0;
  /** the stored form computed by `prepareWrite`, until `store` */
  private prepared: {
    docs: number;
    start: Uint32Array;
    seqs: Int32Array;
    freqs: Uint32Array;
    blockAt: Uint32Array;
    blocks: Uint32Array;
    bmax: Float64Array;
    occ: Float64Array;
    counts: Uint16Array | Uint32Array;
    pos: Uint16Array | Uint32Array;
    wide: boolean;
  } | null = null;
  /** wall-clock ms spent in addBatch (build diagnostics: this work overlaps the FTS worker's inserts) */
  feedMs = 0;

  /**
   * With `vectors`, the builder also makes the news vectors of the offline hashing embedder
   * (`WordVectors`) and `write` stores them after the index tables.
   */
  constructor(opts: { vectors?: boolean } = {}) {
    this.withVectors = opts.vectors ?? false;
    this.vectors = this.withVectors ? new WordVectors() : null;
  }

  /** Documents added so far (the last seq). */
  get size(): number {
    return this.docs;
  }

  /** Forgets everything added (the FTS stream gave up; the index is rebuilt from the start). */
  reset(): void {
    this.vectors = this.withVectors ? new WordVectors() : null;
    this.tok?.close();
    this.tok = null;
    this.termOf = new Map();
    this.terms = [];
    this.wordId = new WordIds();
    this.wordInfo = new Int32Array(2 << 16);
    this.wordTermsMany = new Map();
    this.batchWids = new U32();
    this.docTerm = new U32();
    this.docFreq = new U32();
    this.docCount = new U32();
    this.docPos = new U32();
    this.occTerm = new Uint32Array(1024);
    this.occPos = new Uint32Array(1024);
    this.touched = new Uint32Array(1024);
    this.maxPos = 0;
    this.docStart = new U32();
    this.lens = new U32();
    this.acc = new Uint32Array(2048);
    this.totalTokens = 0;
    this.docs = 0;
    this.prepared = null;
    this.feedMs = 0;
  }

  /** Adds articles seq[i] (which must continue 1, 2, ...) with prepared title and body texts. */
  addBatch(seq: readonly number[], title: readonly string[], body: readonly string[]): void {
    const t0 = performance.now();
    this.tok ??= new FtsTokenizer();
    // pass 1: every word to its word id (one table probe per token); new words are resolved together
    const wids = this.batchWids;
    wids.n = 0;
    const cuts = new Int32Array(2 * seq.length + 1);
    const fresh: string[] = [];
    const wordId = this.wordId;
    for (let i = 0; i < seq.length; i++) {
      for (let c = 0; c < 2; c++) {
        const text = (c === 0 ? title[i] : body[i]) as string;
        if (text !== "") {
          // the words of text.split(" "), each hashed while scanning; an empty word (never in a
          // prepared text) has no FTS5 token and no feature, so it is left out
          const n = text.length;
          let a = 0;
          let h = 0x811c9dc5 | 0;
          for (let p = 0; p <= n; p++) {
            const ch = p < n ? text.charCodeAt(p) : 32;
            if (ch === 32) {
              if (p > a) wids.push(wordId.id(text, a, p, fmix32(h) | 0, fresh));
              a = p + 1;
              h = 0x811c9dc5 | 0;
            } else h = Math.imul(h ^ ch, 0x01000193);
          }
        }
        cuts[2 * i + c + 1] = wids.n;
      }
    }
    if (fresh.length > 0) {
      this.tok.resolve(fresh);
      let wid = wordId.size - fresh.length;
      if (2 * wordId.size > this.wordInfo.length) {
        let size = this.wordInfo.length * 2;
        while (size < 2 * wordId.size) size *= 2;
        const grown = new Int32Array(size);
        grown.set(this.wordInfo);
        this.wordInfo = grown;
      }
      const info = this.wordInfo;
      for (const w of fresh) {
        const ids = this.tok.tokens(w).map(this.termId);
        if (ids.length === 1) info[2 * wid] = ids[0] as number;
        else {
          info[2 * wid] = ids.length === 0 ? NO_TERM : MANY_TERMS;
          if (ids.length > 1) this.wordTermsMany.set(wid, ids);
        }
        if (this.vectors !== null) info[2 * wid + 1] = wordFeature(w);
        wid++;
      }
    }
    // pass 2: per article, the weighted frequency of each term (title 2, body 1) and its length
    const info = this.wordInfo;
    const wa = wids.a;
    for (let i = 0; i < seq.length; i++) {
      if (seq[i] !== this.docs + 1) throw new Error(`news index: seq ${String(seq[i])} after ${this.docs}`);
      const acc = this.acc;
      let no = 0; // occurrences so far
      let nt = 0; // distinct terms so far
      let len = 0;
      for (let c = 0; c < 2; c++) {
        const weight = c === 0 ? 2 : 1;
        const odd = c === 0 ? 1 : 0;
        const end = cuts[2 * i + c + 1] as number;
        for (let p = cuts[2 * i + c] as number; p < end; p++) {
          const w = wa[p] as number;
          const t = info[w << 1] as number;
          if (t >= 0) {
            if (no === this.occTerm.length) this.growOcc();
            const x = t << 1;
            const f = acc[x] as number;
            if (f === 0) this.touched[nt++] = t;
            acc[x] = f + weight;
            acc[x + 1] = (acc[x + 1] as number) + 1;
            this.occTerm[no] = t;
            // FTS5 positions count tokens per column; len counts title then body tokens
            this.occPos[no++] = 2 * len + odd;
            len++;
          } else if (t === MANY_TERMS) {
            const ids = this.wordTermsMany.get(w) as readonly number[];
            for (let k = 0; k < ids.length; k++) {
              if (no === this.occTerm.length) this.growOcc();
              const id = ids[k] as number;
              const x = id << 1;
              const f = acc[x] as number;
              if (f === 0) this.touched[nt++] = id;
              acc[x] = f + weight;
              acc[x + 1] = (acc[x + 1] as number) + 1;
              this.occTerm[no] = id;
              this.occPos[no++] = 2 * len + odd;
              len++;
            }
          }
        }
      }
      if (2 * len + 1 > this.maxPos) this.maxPos = 2 * len + 1;
      this.vectors?.addDoc(info, wa, cuts[2 * i] as number, cuts[2 * i + 2] as number);
      const { docTerm, docFreq, docCount, docPos, touched, occTerm, occPos } = this;
      this.docStart.push(docTerm.n);
      // positions grouped by term in touched order (acc[2t + 1]: count, then the term's next slot)
      const d0 = docTerm.n;
      docTerm.reserve(d0 + nt);
      docFreq.reserve(d0 + nt);
      docCount.reserve(d0 + nt);
      const dT = docTerm.a;
      const dF = docFreq.a;
      const dC = docCount.a;
      let at = docPos.n;
      for (let j = 0; j < nt; j++) {
        const t = touched[j] as number;
        const x = t << 1;
        const cnt = acc[x + 1] as number;
        dT[d0 + j] = t;
        dF[d0 + j] = acc[x] as number;
        dC[d0 + j] = cnt;
        acc[x] = 0;
        acc[x + 1] = at;
        at += cnt;
      }
      docTerm.n = docFreq.n = docCount.n = d0 + nt;
      docPos.reserve(at);
      docPos.n = at;
      const dp = docPos.a;
      for (let o = 0; o < no; o++) {
        const x = ((occTerm[o] as number) << 1) + 1;
        const slot = acc[x] as number;
        dp[slot] = occPos[o] as number;
        acc[x] = slot + 1;
      }
      for (let j = 0; j < nt; j++) acc[((touched[j] as number) << 1) + 1] = 0;
      this.lens.push(len);
      this.totalTokens += len;
      this.docs++;
    }
    this.feedMs += performance.now() - t0;
  }

  private growOcc(): void {
    const size = this.occTerm.length * 2;
    const t = new Uint32Array(size);
    t.set(this.occTerm);
    this.occTerm = t;
    const p = new Uint32Array(size);
    p.set(this.occPos);
    this.occPos = p;
    const u = new Uint32Array(size);
    u.set(this.touched);
    this.touched = u;
  }

  private readonly termId = (t: string): number => {
    let id = this.termOf.get(t);
    if (id === undefined) {
      id = this.terms.length;
      this.termOf.set(t, id);
      this.terms.push(t);
      if (2 * id + 1 >= this.acc.length) {
        const b = new Uint32Array(this.acc.length * 2);
        b.set(this.acc);
        this.acc = b;
      }
    }
    return id;
  };

  /** Writes the index tables into `db` (checks that it saw exactly the `docs` articles of news_order). */
  write(db: Database.Database, docs: number): number {
    this.prepareWrite(docs);
    return this.store(db);
  }

  /**
   * The CPU part of `write`, before any database is touched: checks that it saw exactly the `docs`
   * articles of news_order, sorts the (article, term) pairs by term into postings and positions and
   * computes every term's block bounds. `store` then writes them.
   */
  prepareWrite(docs: number): void {
    this.tok?.close();
    this.tok = null;
    if (docs !== this.docs) throw new Error(`news index: built from ${this.docs} articles, the world has ${docs}`);
    const { terms, docTerm, docFreq, lens } = this;
    const docStart = this.docStart;
    docStart.push(docTerm.n);
    // counting sort of the (doc, term) pairs by term: postings in seq order
    const df = new Uint32Array(terms.length);
    for (let p = 0; p < docTerm.n; p++) df[docTerm.a[p] as number] = (df[docTerm.a[p] as number] as number) + 1;
    const start = new Uint32Array(terms.length + 1);
    for (let t = 0; t < terms.length; t++) start[t + 1] = (start[t] as number) + (df[t] as number);
    const seqs = new Int32Array(docTerm.n);
    const freqs = new Uint32Array(docTerm.n);
    // the positions alike: per term its occurrences, in posting order
    const { docCount, docPos } = this;
    const wide = this.maxPos > 0xffff;
    const occ = new Float64Array(terms.length + 1);
    for (let p = 0; p < docTerm.n; p++) {
      const t = docTerm.a[p] as number;
      occ[t + 1] = (occ[t + 1] as number) + (docCount.a[p] as number);
    }
    for (let t = 0; t < terms.length; t++) occ[t + 1] = (occ[t + 1] as number) + (occ[t] as number);
    const counts = wide ? new Uint32Array(docTerm.n) : new Uint16Array(docTerm.n);
    const pos = wide ? new Uint32Array(docPos.n) : new Uint16Array(docPos.n);
    transposeByTerm(
      { docs, docStart: docStart.a, docTerm: docTerm.a, docFreq: docFreq.a, docCount: docCount.a, docPos: docPos.a },
      { df, start, occ },
      { seqs, freqs, counts, pos },
    );
    // per term, per block of NEWS_INDEX_BLOCK postings: (last seq, max freq, min length) and the max term factor
    const avgdl = this.totalTokens / docs;
    const blockAt = new Uint32Array(terms.length + 1);
    for (let t = 0; t < terms.length; t++) {
      blockAt[t + 1] = (blockAt[t] as number) + Math.ceil((df[t] as number) / NEWS_INDEX_BLOCK);
    }
    const nBlocks = blockAt[terms.length] as number;
    const blocks = new Uint32Array(3 * nBlocks);
    const bmax = new Float64Array(nBlocks);
    const la = lens.a;
    for (let t = 0; t < terms.length; t++) {
      const a = start[t] as number;
      const b = start[t + 1] as number;
      let k = blockAt[t] as number;
      for (let s = a; s < b; s += NEWS_INDEX_BLOCK, k++) {
        const e = Math.min(b, s + NEWS_INDEX_BLOCK);
        let maxF = 0;
        let minD = 0xffffffff;
        let maxTf = 0;
        for (let p = s; p < e; p++) {
          const f = freqs[p] as number;
          const d = la[(seqs[p] as number) - 1] as number;
          maxF = Math.max(maxF, f);
          minD = Math.min(minD, d);
          maxTf = Math.max(maxTf, bm25Tf(f, d, avgdl));
        }
        bmax[k] = maxTf;
        blocks[3 * k] = seqs[e - 1] as number;
        blocks[3 * k + 1] = maxF;
        blocks[3 * k + 2] = minD;
      }
    }
    this.prepared = { docs, start, seqs, freqs, blockAt, blocks, bmax, occ, counts, pos, wide };
    // the per-article pairs are no longer needed (the largest arrays before the sort)
    this.docTerm = new U32();
    this.docFreq = new U32();
    this.docCount = new U32();
    this.docPos = new U32();
    this.docStart = new U32();
  }

  /** Writes what `prepareWrite` computed into `db` (the index tables, their world_meta rows, then the vectors); returns the term count. */
  store(db: Database.Database): number {
    const w = this.prepared;
    if (w === null) throw new Error("news index: store before prepareWrite");
    const { docs, start, seqs, freqs, blockAt, blocks, bmax, occ, counts, pos, wide } = w;
    const { terms, lens } = this;
    db.exec(NEWS_INDEX_DDL);
    const put = db.prepare("INSERT INTO news_postings (term, df, seqs, freqs, blocks, bmax) VALUES (?, ?, ?, ?, ?, ?)");
    const putLen = db.prepare("INSERT INTO news_doclen (chunk, lens) VALUES (?, ?)");
    const putPos = db.prepare("INSERT INTO news_positions (term, counts, pos) VALUES (?, ?, ?)");
    const meta = db.prepare("INSERT INTO world_meta (key, value) VALUES (?, ?)");
    db.transaction(() => {
      for (let t = 0; t < terms.length; t++) {
        const a = start[t] as number;
        const b = start[t + 1] as number;
        const ka = blockAt[t] as number;
        const kb = blockAt[t + 1] as number;
        put.run(
          terms[t],
          b - a,
          bytes(seqs.subarray(a, b)),
          bytes(freqs.subarray(a, b)),
          bytes(blocks.subarray(3 * ka, 3 * kb)),
          bytes(bmax.subarray(ka, kb)),
        );
        putPos.run(terms[t], bytes(counts.subarray(a, b)), bytes(pos.subarray(occ[t] as number, occ[t + 1] as number)));
      }
      for (let c = 0; c * NEWS_DOCLEN_CHUNK < docs; c++) {
        putLen.run(c, bytes(lens.a.subarray(c * NEWS_DOCLEN_CHUNK, Math.min(docs, (c + 1) * NEWS_DOCLEN_CHUNK))));
      }
      meta.run(META_NEWS_INDEX_DOCS, String(docs));
      meta.run(META_NEWS_INDEX_TOKENS, String(this.totalTokens));
      meta.run(META_NEWS_INDEX_BLOCK, String(NEWS_INDEX_BLOCK));
      meta.run(META_NEWS_INDEX_POS_WIDTH, wide ? "32" : "16");
    })();
    if (this.vectors !== null) {
      if (this.vectors.size !== docs)
        throw new Error(`news vectors: ${this.vectors.size} articles, the world has ${docs}`);
      this.vectors.write(db, getEmbedder(HASHING_EMBEDDER_ID));
    }
    const n = terms.length;
    this.reset();
    return n;
  }
}

/** Pairs per bucket of `transposeByTerm` (about 1.5 MiB of pairs: a bucket is sorted within the cache). */
const BUCKET_PAIRS = 1 << 17;

/**
 * The counting sort of `prepareWrite`: the (article, term) pairs, grouped by article in seq order
 * (`docStart`, `docTerm`, `docFreq`, `docCount`, and each pair's positions one after another in
 * `docPos`), regrouped by term into `seqs`, `freqs`, `counts` (term t at `[start[t], start[t + 1])`,
 * in seq order) and `pos` (term t's at `[occ[t], occ[t + 1])`, in posting order). One scatter by
 * term writes to as many places as there are terms, each a cache (and TLB) miss at a million
 * articles; here pass A moves every pair to its bucket (consecutive terms holding about
 * `BUCKET_PAIRS` pairs; a term with more has a bucket of its own) through one sequential stream
 * per bucket, and pass B orders each bucket by term within a copy that fits the cache. Both
 * passes keep seq order within a term, so the result is the single scatter's, element for element.
 */
export function transposeByTerm(
  by: {
    docs: number;
    docStart: Uint32Array;
    docTerm: Uint32Array;
    docFreq: Uint32Array;
    docCount: Uint32Array;
    docPos: Uint32Array;
  },
  at: { df: Uint32Array; start: Uint32Array; occ: Float64Array },
  out: { seqs: Int32Array; freqs: Uint32Array; counts: Uint16Array | Uint32Array; pos: Uint16Array | Uint32Array },
  bucketPairs = BUCKET_PAIRS,
): void {
  const { docs, docStart, docTerm, docFreq, docCount, docPos } = by;
  const { df, start, occ } = at;
  const { seqs, freqs, counts, pos } = out;
  const nTerms = df.length;
  // buckets: consecutive term ranges [first[b], first[b + 1])
  const first: number[] = [0];
  const bucketOf = new Uint32Array(nTerms);
  let inBucket = 0;
  for (let t = 0; t < nTerms; t++) {
    const d = df[t] as number;
    if (inBucket > 0 && (inBucket + d > bucketPairs || t - (first[first.length - 1] as number) >= 0xffff)) {
      first.push(t);
      inBucket = 0;
    }
    bucketOf[t] = first.length - 1;
    inBucket += d;
  }
  first.push(nTerms);
  const nb = first.length - 1;
  // pass A: each pair to the next free place of its bucket's region, in seq order
  const pairAt = new Float64Array(nb);
  const posAt = new Float64Array(nb);
  for (let b = 0; b < nb; b++) {
    pairAt[b] = start[first[b] as number] as number;
    posAt[b] = occ[first[b] as number] as number;
  }
  const low = new Uint16Array(start[nTerms] as number); // per pair: its term minus its bucket's first term
  let src = 0;
  for (let d = 0; d < docs; d++) {
    const end = docStart[d + 1] as number;
    for (let p = docStart[d] as number; p < end; p++) {
      const t = docTerm[p] as number;
      const b = bucketOf[t] as number;
      const a = pairAt[b] as number;
      pairAt[b] = a + 1;
      seqs[a] = d + 1;
      freqs[a] = docFreq[p] as number;
      const cnt = docCount[p] as number;
      counts[a] = cnt;
      low[a] = t - (first[b] as number);
      const o = posAt[b] as number;
      for (let x = 0; x < cnt; x++) pos[o + x] = docPos[src + x] as number;
      posAt[b] = o + cnt;
      src += cnt;
    }
  }
  // pass B: each bucket of several terms sorted by term (stable) through a copy of its region
  let cap = 0;
  let posCap = 0;
  for (let b = 0; b < nb; b++) {
    if ((first[b + 1] as number) - (first[b] as number) < 2) continue;
    cap = Math.max(cap, (start[first[b + 1] as number] as number) - (start[first[b] as number] as number));
    posCap = Math.max(posCap, (occ[first[b + 1] as number] as number) - (occ[first[b] as number] as number));
  }
  const tSeq = new Int32Array(cap);
  const tFreq = new Uint32Array(cap);
  const tCount = new Uint32Array(cap);
  const tLow = new Uint16Array(cap);
  const tPos = new Uint32Array(posCap);
  const fill = new Float64Array(0x10000);
  const posFill = new Float64Array(0x10000);
  for (let b = 0; b < nb; b++) {
    const t0 = first[b] as number;
    const t1 = first[b + 1] as number;
    if (t1 - t0 < 2) continue; // one term: already in seq order
    const a0 = start[t0] as number;
    const n = (start[t1] as number) - a0;
    const o0 = occ[t0] as number;
    const m = (occ[t1] as number) - o0;
    tSeq.set(seqs.subarray(a0, a0 + n));
    tFreq.set(freqs.subarray(a0, a0 + n));
    tCount.set(counts.subarray(a0, a0 + n));
    tLow.set(low.subarray(a0, a0 + n));
    tPos.set(pos.subarray(o0, o0 + m));
    for (let t = t0; t < t1; t++) {
      fill[t - t0] = start[t] as number;
      posFill[t - t0] = occ[t] as number;
    }
    let so = 0;
    for (let e = 0; e < n; e++) {
      const k = tLow[e] as number;
      const a = fill[k] as number;
      fill[k] = a + 1;
      seqs[a] = tSeq[e] as number;
      freqs[a] = tFreq[e] as number;
      const cnt = tCount[e] as number;
      counts[a] = cnt;
      const o = posFill[k] as number;
      for (let x = 0; x < cnt; x++) pos[o + x] = tPos[so + x] as number;
      posFill[k] = o + cnt;
      so += cnt;
    }
  }
}

/**
 * Builds the index from `news` in seq order (a world under construction: news_order exists), with
 * `vectors` also the hashing embedder's news vectors (see `NewsIndexBuilder`). Returns the term count.
 */
export function buildNewsIndex(db: Database.Database, opts: { vectors?: boolean } = {}): number {
  const builder = new NewsIndexBuilder(opts);
  const read = db.prepare(
    "SELECT o.seq AS seq, n.title AS title, n.text AS text FROM news_order o JOIN news n ON n.rid = o.rid" +
      " WHERE o.seq > ? ORDER BY o.seq LIMIT ?",
  );
  for (;;) {
    const rows = read.all(builder.size, READ_BATCH) as { seq: number; title: string; text: string }[];
    if (rows.length === 0) break;
    builder.addBatch(
      rows.map((r) => r.seq),
      rows.map((r) => ftsIndexTextFast(r.title)),
      rows.map((r) => ftsIndexTextFast(r.text)),
    );
  }
  return builder.write(db, builder.size);
}
