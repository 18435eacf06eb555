import type Database from "better-sqlite3";
import { fmix32 } from "../common/random.js";
import { bm25Tf } from "./bm25.js";
import { ftsIndexTextFast } from "./fts-build.js";
import { FtsTokenizer } from "./fts-tokens.js";

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
 * pass (the Map<string, number> it replaces needed `split(" ")` and a hash per word). Ids are
 * assigned in first-seen order, as before.
 */
class WordIds {
  private words: string[] = [];
  private slots = new Int32Array(1 << 16); // word id + 1; 0 = empty
  private hashes = new Int32Array(1 << 16);
  private mask = (1 << 16) - 1;

  get size(): number {
    return this.words.length;
  }

  /** the id of `text[a, b)` (hash `h`), adding the word (and pushing it onto `fresh`) if new */
  id(text: string, a: number, b: number, h: number, fresh: string[]): number {
    const words = this.words;
    const slots = this.slots;
    const hashes = this.hashes;
    const len = b - a;
    let i = h & this.mask;
    for (;;) {
      const s = slots[i] as number;
      if (s === 0) break;
      if (hashes[i] === h) {
        const w = words[s - 1] as string;
        if (w.length === len) {
          let k = 0;
          while (k < len && w.charCodeAt(k) === text.charCodeAt(a + k)) k++;
          if (k === len) return s - 1;
        }
      }
      i = (i + 1) & this.mask;
    }
    const id = words.length;
    const w = text.slice(a, b);
    words.push(w);
    fresh.push(w);
    slots[i] = id + 1;
    hashes[i] = h;
    if (2 * words.length > this.mask) this.grow();
    return id;
  }

  private grow(): void {
    const size = 2 * (this.mask + 1);
    const slots = new Int32Array(size);
    const hashes = new Int32Array(size);
    const mask = size - 1;
    for (let i = 0; i <= this.mask; i++) {
      const s = this.slots[i] as number;
      if (s === 0) continue;
      const h = this.hashes[i] as number;
      let j = h & mask;
      while (slots[j] !== 0) j = (j + 1) & mask;
      slots[j] = s;
      hashes[j] = h;
    }
    this.slots = slots;
    this.hashes = hashes;
    this.mask = mask;
  }
}

const bytes = (a: Uint16Array | Uint32Array | Int32Array | Float64Array) =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** What the FTS build feeds (a `NewsIndexBuilder` here, or `NewsIndexJob` on a worker thread). */
export interface NewsIndexFeed {
  /** Articles added so far (the last seq). */
  readonly size: number;
  /** Adds articles seq[i] (which must continue 1, 2, ...) with prepared title and body texts. */
  addBatch(seq: readonly number[], title: readonly string[], body: readonly string[]): void;
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
  private tok: FtsTokenizer | null = null;
  private termOf = new Map<string, number>(); // FTS5 term -> term id
  private terms: string[] = [];
  private wordId = new WordIds(); // prepared word -> word id
  private wordTerms: (readonly number[])[] = []; // word id -> its term ids
  private batchWids = new U32();
  private docTerm = new U32(); // per (doc, term): term id
  private docFreq = new U32(); // per (doc, term): weighted frequency
  private docCount = new U32(); // per (doc, term): occurrences
  private docPos = new U32(); // per (doc, term) in that order: its encoded positions, ascending
  private occTerm = new U32(); // the current doc's token occurrences: term id
  private occPos = new U32(); // ... and encoded position
  private occAt = new Uint32Array(1024); // per term: its next slot in the current doc's positions
  private maxPos = 0;
  private docStart = new U32(); // per doc: offset into docTerm
  private lens = new U32();
  private acc = new Uint32Array(1024); // per term: weighted frequency in the current doc
  private touched: number[] = [];
  private totalTokens = 0;
  private docs = 0;
  /** wall-clock ms spent in addBatch (build diagnostics: this work overlaps the FTS worker's inserts) */
  feedMs = 0;

  /** Documents added so far (the last seq). */
  get size(): number {
    return this.docs;
  }

  /** Forgets everything added (the FTS stream gave up; the index is rebuilt from the start). */
  reset(): void {
    this.tok?.close();
    this.tok = null;
    this.termOf = new Map();
    this.terms = [];
    this.wordId = new WordIds();
    this.wordTerms = [];
    this.batchWids = new U32();
    this.docTerm = new U32();
    this.docFreq = new U32();
    this.docCount = new U32();
    this.docPos = new U32();
    this.occTerm = new U32();
    this.occPos = new U32();
    this.occAt = new Uint32Array(1024);
    this.maxPos = 0;
    this.docStart = new U32();
    this.lens = new U32();
    this.acc = new Uint32Array(1024);
    this.touched = [];
    this.totalTokens = 0;
    this.docs = 0;
    this.feedMs = 0;
  }

  /** Adds articles seq[i] (which must continue 1, 2, ...) with prepared title and body texts. */
  addBatch(seq: readonly number[], title: readonly string[], body: readonly string[]): void {
    const t0 = performance.now();
    this.tok ??= new FtsTokenizer();
    // pass 1: every word to its word id (one map lookup per token); new words are resolved together
    const wids = this.batchWids;
    wids.n = 0;
    const cuts = new Int32Array(2 * seq.length + 1);
    const fresh: string[] = [];
    const wordId = this.wordId;
    for (let i = 0; i < seq.length; i++) {
      for (let c = 0; c < 2; c++) {
        const text = (c === 0 ? title[i] : body[i]) as string;
        if (text !== "") {
          // the words of text.split(" "), empty ones included, each hashed while scanning
          const n = text.length;
          let a = 0;
          let h = 0x811c9dc5 | 0;
          for (let p = 0; p <= n; p++) {
            const ch = p < n ? text.charCodeAt(p) : 32;
            if (ch === 32) {
              wids.push(wordId.id(text, a, p, fmix32(h) | 0, fresh));
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
      for (const w of fresh) this.wordTerms.push(this.tok.tokens(w).map(this.termId));
    }
    // pass 2: per article, the weighted frequency of each term (title 2, body 1) and its length
    const wordTerms = this.wordTerms;
    for (let i = 0; i < seq.length; i++) {
      if (seq[i] !== this.docs + 1) throw new Error(`news index: seq ${String(seq[i])} after ${this.docs}`);
      const acc = this.acc;
      const touched = this.touched;
      const occTerm = this.occTerm;
      const occPos = this.occPos;
      const occAt = this.occAt;
      occTerm.n = 0;
      occPos.n = 0;
      let len = 0;
      for (let c = 0; c < 2; c++) {
        const weight = c === 0 ? 2 : 1;
        for (let p = cuts[2 * i + c] as number; p < (cuts[2 * i + c + 1] as number); p++) {
          const ids = wordTerms[wids.a[p] as number] as readonly number[];
          for (let k = 0; k < ids.length; k++) {
            const id = ids[k] as number;
            if (acc[id] === 0) touched.push(id);
            acc[id] = (acc[id] as number) + weight;
            occAt[id] = (occAt[id] as number) + 1;
            occTerm.push(id);
            // FTS5 positions count tokens per column; len counts title then body tokens
            occPos.push(2 * (len + k) + (c === 0 ? 1 : 0));
          }
          len += ids.length;
        }
      }
      if (2 * len + 1 > this.maxPos) this.maxPos = 2 * len + 1;
      this.docStart.push(this.docTerm.n);
      // positions grouped by term in touched order (occAt: count, then the term's next slot)
      const base = this.docPos.n;
      let at = base;
      for (const id of touched) {
        this.docTerm.push(id);
        this.docFreq.push(acc[id] as number);
        this.docCount.push(occAt[id] as number);
        const cnt = occAt[id] as number;
        occAt[id] = at;
        at += cnt;
        acc[id] = 0;
      }
      const docPos = this.docPos;
      docPos.reserve(at);
      docPos.n = at;
      for (let o = 0; o < occTerm.n; o++) {
        const id = occTerm.a[o] as number;
        const slot = occAt[id] as number;
        docPos.a[slot] = occPos.a[o] as number;
        occAt[id] = slot + 1;
      }
      for (const id of touched) occAt[id] = 0;
      touched.length = 0;
      this.lens.push(len);
      this.totalTokens += len;
      this.docs++;
    }
    this.feedMs += performance.now() - t0;
  }

  private readonly termId = (t: string): number => {
    let id = this.termOf.get(t);
    if (id === undefined) {
      id = this.terms.length;
      this.termOf.set(t, id);
      this.terms.push(t);
      if (id >= this.acc.length) {
        const b = new Uint32Array(this.acc.length * 2);
        b.set(this.acc);
        this.acc = b;
        const o = new Uint32Array(this.occAt.length * 2);
        o.set(this.occAt);
        this.occAt = o;
      }
    }
    return id;
  };

  /** Writes the index tables into `db` (checks that it saw exactly the `docs` articles of news_order). */
  write(db: Database.Database, docs: number): number {
    this.tok?.close();
    this.tok = null;
    if (docs !== this.docs) throw new Error(`news index: built from ${this.docs} articles, the world has ${docs}`);
    const { terms, docTerm, docFreq, lens } = this;
    const docStart = this.docStart;
    docStart.push(docTerm.n);
    db.exec(NEWS_INDEX_DDL);
    // counting sort of the (doc, term) pairs by term: postings in seq order
    const df = new Uint32Array(terms.length);
    for (let p = 0; p < docTerm.n; p++) df[docTerm.a[p] as number] = (df[docTerm.a[p] as number] as number) + 1;
    const start = new Uint32Array(terms.length + 1);
    for (let t = 0; t < terms.length; t++) start[t + 1] = (start[t] as number) + (df[t] as number);
    const fill = start.slice(0, terms.length);
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
    const occFill = occ.slice(0, terms.length);
    const counts = wide ? new Uint32Array(docTerm.n) : new Uint16Array(docTerm.n);
    const pos = wide ? new Uint32Array(docPos.n) : new Uint16Array(docPos.n);
    let src = 0;
    for (let d = 0; d < docs; d++) {
      for (let p = docStart.a[d] as number; p < (docStart.a[d + 1] as number); p++) {
        const t = docTerm.a[p] as number;
        const at = fill[t] as number;
        seqs[at] = d + 1;
        freqs[at] = docFreq.a[p] as number;
        fill[t] = at + 1;
        const cnt = docCount.a[p] as number;
        counts[at] = cnt;
        const o = occFill[t] as number;
        const dp = docPos.a;
        for (let x = 0; x < cnt; x++) pos[o + x] = dp[src + x] as number;
        occFill[t] = o + cnt;
        src += cnt;
      }
    }
    const put = db.prepare("INSERT INTO news_postings (term, df, seqs, freqs, blocks, bmax) VALUES (?, ?, ?, ?, ?, ?)");
    const avgdl = this.totalTokens / docs;
    const putLen = db.prepare("INSERT INTO news_doclen (chunk, lens) VALUES (?, ?)");
    const putPos = db.prepare("INSERT INTO news_positions (term, counts, pos) VALUES (?, ?, ?)");
    const meta = db.prepare("INSERT INTO world_meta (key, value) VALUES (?, ?)");
    db.transaction(() => {
      for (let t = 0; t < terms.length; t++) {
        const a = start[t] as number;
        const b = start[t + 1] as number;
        const nb = Math.ceil((b - a) / NEWS_INDEX_BLOCK);
        const blocks = new Uint32Array(3 * nb);
        const bmax = new Float64Array(nb);
        for (let k = 0; k < nb; k++) {
          const s = a + k * NEWS_INDEX_BLOCK;
          const e = Math.min(b, s + NEWS_INDEX_BLOCK);
          let maxF = 0;
          let minD = 0xffffffff;
          let maxTf = 0;
          for (let p = s; p < e; p++) {
            const f = freqs[p] as number;
            const d = lens.a[(seqs[p] as number) - 1] as number;
            maxF = Math.max(maxF, f);
            minD = Math.min(minD, d);
            maxTf = Math.max(maxTf, bm25Tf(f, d, avgdl));
          }
          bmax[k] = maxTf;
          blocks[3 * k] = seqs[e - 1] as number;
          blocks[3 * k + 1] = maxF;
          blocks[3 * k + 2] = minD;
        }
        put.run(terms[t], b - a, bytes(seqs.subarray(a, b)), bytes(freqs.subarray(a, b)), bytes(blocks), bytes(bmax));
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
    const n = terms.length;
    this.reset();
    return n;
  }
}

/** Builds the index from `news` in seq order (a world under construction: news_order exists). Returns the term count. */
export function buildNewsIndex(db: Database.Database): number {
  const builder = new NewsIndexBuilder();
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
