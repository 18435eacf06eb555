import type Database from "better-sqlite3";
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
 *   as uint32 triples: the block-max bounds of early termination.
 * - `news_doclen(chunk, lens)`: the token count of every article (title + body) by seq, uint32 LE,
 *   in chunks of `NEWS_DOCLEN_CHUNK` seqs.
 * - world_meta `news_index_docs`, `news_index_tokens`, `news_index_block`.
 */

export const NEWS_INDEX_BLOCK = 64;
export const NEWS_DOCLEN_CHUNK = 65_536;
export const META_NEWS_INDEX_DOCS = "news_index_docs";
export const META_NEWS_INDEX_TOKENS = "news_index_tokens";
export const META_NEWS_INDEX_BLOCK = "news_index_block";

export const NEWS_INDEX_DDL = `
CREATE TABLE news_postings (
  term TEXT PRIMARY KEY,
  df INTEGER NOT NULL,
  seqs BLOB NOT NULL,
  freqs BLOB NOT NULL,
  blocks BLOB NOT NULL
);
CREATE TABLE news_doclen (chunk INTEGER PRIMARY KEY, lens BLOB NOT NULL);
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
}

const bytes = (a: Uint32Array | Int32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** Builds the index tables into `db` (a world under construction: news_order and news exist). Returns the term count. */
export function buildNewsIndex(db: Database.Database): number {
  db.exec(NEWS_INDEX_DDL);
  const tok = new FtsTokenizer();
  const termOf = new Map<string, number>(); // FTS5 term -> term id
  const terms: string[] = [];
  const wordTerms = new Map<string, readonly number[]>(); // prepared word -> its term ids
  const docTerm = new U32(); // per (doc, term): term id
  const docFreq = new U32(); // per (doc, term): weighted frequency
  const docStart = new U32(); // per doc: offset into docTerm
  const lens = new U32();
  let acc = new Uint32Array(1024); // per term: weighted frequency in the current doc
  let touched: number[] = [];
  let totalTokens = 0;

  const termIds = (word: string): readonly number[] => {
    let ids = wordTerms.get(word);
    if (ids === undefined) {
      ids = tok.tokens(word).map((t) => {
        let id = termOf.get(t);
        if (id === undefined) {
          id = terms.length;
          termOf.set(t, id);
          terms.push(t);
          if (id >= acc.length) {
            const b = new Uint32Array(acc.length * 2);
            b.set(acc);
            acc = b;
          }
        }
        return id;
      });
      wordTerms.set(word, ids);
    }
    return ids;
  };
  const addText = (text: string, weight: number): number => {
    if (text === "") return 0;
    let n = 0;
    for (const w of text.split(" ")) {
      for (const id of termIds(w)) {
        if (acc[id] === 0) touched.push(id);
        acc[id] = (acc[id] as number) + weight;
        n++;
      }
    }
    return n;
  };

  const read = db.prepare(
    "SELECT o.seq AS seq, n.title AS title, n.text AS text FROM news_order o JOIN news n ON n.rid = o.rid" +
      " WHERE o.seq > ? ORDER BY o.seq LIMIT ?",
  );
  let docs = 0;
  for (;;) {
    const rows = read.all(docs, READ_BATCH) as { seq: number; title: string; text: string }[];
    if (rows.length === 0) break;
    const prepared = rows.map((r) => [ftsIndexTextFast(r.title), ftsIndexTextFast(r.text)] as const);
    const unknown: string[] = [];
    for (const [t, b] of prepared) {
      for (const text of [t, b]) {
        if (text === "") continue;
        for (const w of text.split(" ")) if (!wordTerms.has(w)) unknown.push(w);
      }
    }
    tok.resolve(unknown);
    for (let i = 0; i < rows.length; i++) {
      const seq = (rows[i] as { seq: number }).seq;
      if (seq !== docs + 1) throw new Error("news_order seqs are not contiguous");
      const [title, body] = prepared[i] as readonly [string, string];
      const len = addText(title, 2) + addText(body, 1);
      docStart.push(docTerm.n);
      touched.sort((x, y) => x - y);
      for (const id of touched) {
        docTerm.push(id);
        docFreq.push(acc[id] as number);
        acc[id] = 0;
      }
      touched = [];
      lens.push(len);
      totalTokens += len;
      docs = seq;
    }
  }
  tok.close();
  docStart.push(docTerm.n);

  // counting sort of the (doc, term) pairs by term: postings in seq order
  const df = new Uint32Array(terms.length);
  for (let p = 0; p < docTerm.n; p++) df[docTerm.a[p] as number] = (df[docTerm.a[p] as number] as number) + 1;
  const start = new Uint32Array(terms.length + 1);
  for (let t = 0; t < terms.length; t++) start[t + 1] = (start[t] as number) + (df[t] as number);
  const fill = start.slice(0, terms.length);
  const seqs = new Int32Array(docTerm.n);
  const freqs = new Uint32Array(docTerm.n);
  for (let d = 0; d < docs; d++) {
    for (let p = docStart.a[d] as number; p < (docStart.a[d + 1] as number); p++) {
      const t = docTerm.a[p] as number;
      const at = fill[t] as number;
      seqs[at] = d + 1;
      freqs[at] = docFreq.a[p] as number;
      fill[t] = at + 1;
    }
  }
  const put = db.prepare("INSERT INTO news_postings (term, df, seqs, freqs, blocks) VALUES (?, ?, ?, ?, ?)");
  const putLen = db.prepare("INSERT INTO news_doclen (chunk, lens) VALUES (?, ?)");
  const meta = db.prepare("INSERT INTO world_meta (key, value) VALUES (?, ?)");
  db.transaction(() => {
    for (let t = 0; t < terms.length; t++) {
      const a = start[t] as number;
      const b = start[t + 1] as number;
      const nb = Math.ceil((b - a) / NEWS_INDEX_BLOCK);
      const blocks = new Uint32Array(3 * nb);
      for (let k = 0; k < nb; k++) {
        const s = a + k * NEWS_INDEX_BLOCK;
        const e = Math.min(b, s + NEWS_INDEX_BLOCK);
        let maxF = 0;
        let minD = 0xffffffff;
        for (let p = s; p < e; p++) {
          maxF = Math.max(maxF, freqs[p] as number);
          minD = Math.min(minD, lens.a[(seqs[p] as number) - 1] as number);
        }
        blocks[3 * k] = seqs[e - 1] as number;
        blocks[3 * k + 1] = maxF;
        blocks[3 * k + 2] = minD;
      }
      put.run(terms[t], b - a, bytes(seqs.subarray(a, b)), bytes(freqs.subarray(a, b)), bytes(blocks));
    }
    for (let c = 0; c * NEWS_DOCLEN_CHUNK < docs; c++) {
      putLen.run(c, bytes(lens.a.subarray(c * NEWS_DOCLEN_CHUNK, Math.min(docs, (c + 1) * NEWS_DOCLEN_CHUNK))));
    }
    meta.run(META_NEWS_INDEX_DOCS, String(docs));
    meta.run(META_NEWS_INDEX_TOKENS, String(totalTokens));
    meta.run(META_NEWS_INDEX_BLOCK, String(NEWS_INDEX_BLOCK));
  })();
  return terms.length;
}
