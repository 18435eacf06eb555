import { bm25Tf } from "./bm25.js";
import { EMPTY_POSTINGS, type NewsIndex, type Positions, type Postings } from "./news-index.js";
import { NEWS_INDEX_BLOCK } from "./news-index-build.js";
import { gallop, leapfrogPair } from "./news-postings-merge.js";

/**
 * The postings of an FTS5 phrase (two or more terms at consecutive positions of one column),
 * materialized from the relive index's token positions so `news-top-k.ts` ranks phrases like
 * terms: per article containing the phrase its seq and weighted instance count (2 per instance in
 * the title, 1 in the body — what bm25(news_fts, 2.0, 1.0) sums over FTS5's phrase instances, one
 * per start position, overlapping ones included), with block bounds as the index writer computes
 * them for terms. Covers the whole corpus, since FTS5's phrase document frequency (bm25's IDF)
 * counts every row containing the phrase whatever the query's bounds.
 *
 * Driven by the rarest term's postings (the others galloped to each of its seqs), positions
 * compared only in the articles holding every term. Results are kept in a small LRU per index.
 */

const CACHE_BYTES = 32 * 1024 * 1024;
const caches = new WeakMap<NewsIndex, { map: Map<string, Postings>; bytes: number }>();

const sizeOf = (p: Postings) => p.seqs.byteLength + p.freqs.byteLength + p.blocks.byteLength + p.bmax.byteLength;

/**
 * The weighted phrase instance count in one article: term i's positions are those of its posting
 * at[i] (`ptr`, `end`: scratch of the same length).
 */
export function instances(pos: readonly Positions[], at: Int32Array, ptr: Int32Array, end: Int32Array): number {
  const m = pos.length;
  const p0 = pos[0] as Positions;
  const j0 = at[0] as number;
  for (let i = 1; i < m; i++) {
    const p = pos[i] as Positions;
    ptr[i] = p.offs[at[i] as number] as number;
    end[i] = p.offs[(at[i] as number) + 1] as number;
  }
  let f = 0;
  for (let o = p0.offs[j0] as number; o < (p0.offs[j0 + 1] as number); o++) {
    const v = p0.pos[o] as number;
    let all = true;
    for (let i = 1; i < m && all; i++) {
      const want = v + 2 * i;
      const p = (pos[i] as Positions).pos;
      let x = ptr[i] as number;
      const e = end[i] as number;
      while (x < e && (p[x] as number) < want) x++;
      ptr[i] = x;
      if (x >= e || p[x] !== want) all = false;
    }
    if (all) f += (v & 1) === 1 ? 2 : 1;
  }
  return f;
}

/** The weighted instance count of a two-term phrase in one article: positions of posting i of `pa`, j of `pb`. */
export function pairInstances(pa: Positions, i: number, pb: Positions, j: number): number {
  const va = pa.pos;
  const vb = pb.pos;
  let f = 0;
  let q = pb.offs[j] as number;
  const qe = pb.offs[j + 1] as number;
  const pe = pa.offs[i + 1] as number;
  for (let p = pa.offs[i] as number; p < pe && q < qe; p++) {
    const want = (va[p] as number) + 2;
    while (q < qe && (vb[q] as number) < want) q++;
    if (q < qe && vb[q] === want) f += (want & 1) === 1 ? 2 : 1;
  }
  return f;
}

/**
 * The weighted instance count of a phrase of one term repeated ("a a") in one article: the
 * positions of posting i of `pa` followed by the next position of the column (+2).
 */
export function repeatInstances(pa: Positions, i: number): number {
  const v = pa.pos;
  const e = (pa.offs[i + 1] as number) - 1;
  let f = 0;
  for (let p = pa.offs[i] as number; p < e; p++) {
    const x = v[p] as number;
    if (v[p + 1] === x + 2) f += (x & 1) === 1 ? 2 : 1;
  }
  return f;
}

/** Two-term phrases (the common case), specialized: one merge of the two lists, one of each article's positions. */
function pairs(a: Postings, b: Postings, pa: Positions, pb: Positions, seqs: Int32Array, freqs: Uint32Array): number {
  let n = 0;
  leapfrogPair(a.seqs, a.seqs.length, b.seqs, b.seqs.length, { i: 0, j: 0 }, 0x7fffffff, (x, i, j) => {
    const f = pairInstances(pa, i, pb, j);
    if (f > 0) {
      seqs[n] = x;
      freqs[n] = f;
      n++;
    }
  });
  return n;
}

function materialize(index: NewsIndex, terms: readonly string[]): Postings {
  const m = terms.length;
  const lists = terms.map((t) => index.postings(t));
  let rare = 0;
  for (let i = 0; i < m; i++) {
    if ((lists[i] as Postings).seqs.length < (lists[rare] as Postings).seqs.length) rare = i;
  }
  const drive = (lists[rare] as Postings).seqs;
  if (drive.length === 0) return EMPTY_POSTINGS;
  const pos = terms.map((t) => index.positions(t));
  const cur = new Int32Array(m);
  const ptr = new Int32Array(m);
  const end = new Int32Array(m);
  const seqs = new Int32Array(drive.length);
  const freqs = new Uint32Array(drive.length);
  let n = 0;
  if (m === 2)
    n = pairs(lists[0] as Postings, lists[1] as Postings, pos[0] as Positions, pos[1] as Positions, seqs, freqs);
  else
    outer: for (let j = 0; j < drive.length; j++) {
      const d = drive[j] as number;
      for (let i = 0; i < m; i++) {
        const s = (lists[i] as Postings).seqs;
        const c = i === rare ? j : gallop(s, d, cur[i] as number, s.length);
        cur[i] = c;
        if (c >= s.length) break outer;
        if (s[c] !== d) continue outer;
      }
      const f = instances(pos, cur, ptr, end);
      if (f > 0) {
        seqs[n] = d;
        freqs[n] = f;
        n++;
      }
    }
  // block bounds exactly as news-index-build.ts writes them for a term
  const avgdl = index.tokens / index.docs;
  const nb = Math.ceil(n / NEWS_INDEX_BLOCK);
  const blocks = new Uint32Array(3 * nb);
  const bmax = new Float64Array(nb);
  const docLen = index.docLen;
  for (let k = 0; k < nb; k++) {
    const s = k * NEWS_INDEX_BLOCK;
    const e = Math.min(n, s + NEWS_INDEX_BLOCK);
    let maxF = 0;
    let minD = 0xffffffff;
    let maxTf = 0;
    for (let p = s; p < e; p++) {
      const f = freqs[p] as number;
      const dl = docLen[(seqs[p] as number) - 1] as number;
      maxF = Math.max(maxF, f);
      minD = Math.min(minD, dl);
      maxTf = Math.max(maxTf, bm25Tf(f, dl, avgdl));
    }
    bmax[k] = maxTf;
    blocks[3 * k] = seqs[e - 1] as number;
    blocks[3 * k + 1] = maxF;
    blocks[3 * k + 2] = minD;
  }
  return { seqs: seqs.slice(0, n), freqs: freqs.slice(0, n), blocks, bmax };
}

/** The postings of the phrase `terms` (≥ 2 FTS5 terms; the index must hold positions). */
export function phrasePostings(index: NewsIndex, terms: readonly string[]): Postings {
  if (terms.length < 2) throw new RangeError("phrasePostings: a phrase has two or more terms");
  if (!index.hasPositions) throw new Error("phrasePostings: this world's news index holds no positions");
  let c = caches.get(index);
  if (c === undefined) {
    c = { map: new Map(), bytes: 0 };
    caches.set(index, c);
  }
  const key = terms.join("\u0000");
  const hit = c.map.get(key);
  if (hit !== undefined) {
    c.map.delete(key);
    c.map.set(key, hit);
    return hit;
  }
  const p = materialize(index, terms);
  c.map.set(key, p);
  c.bytes += sizeOf(p);
  for (const [k, v] of c.map) {
    if (c.bytes <= CACHE_BYTES || k === key) break;
    c.map.delete(k);
    c.bytes -= sizeOf(v);
  }
  return p;
}
