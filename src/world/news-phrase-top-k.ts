import { bm25Tf as tf } from "./bm25.js";
import { lowerBound, type NewsIndex, type Positions, type Postings } from "./news-index.js";
import { instances, pairInstances } from "./news-phrase.js";
import { gallop, leapfrogPair, postingsInRange } from "./news-postings-merge.js";
import { TopHeap } from "./news-top-heap.js";

/**
 * The top k of a query that is one FTS5 phrase (two or more terms at consecutive positions of one
 * column), ranked by the phrase's bm25 term factor w = (f·(k1+1)) / (f + k1·(1 − b + b·D/avgdl))
 * without building the phrase's postings.
 *
 * A lone phrase's bm25 score is −(0 + idf·w) with one idf for every row, so rows rank by w (ties by
 * seq) — except where two distinct w round to one score once multiplied by idf (then FTS5 orders
 * them by seq). The idf needs the phrase's document frequency over the whole corpus, i.e. every
 * article holding all the terms checked against its positions (`news-phrase.ts`: ~60 ms for two
 * near-universal terms at 1M articles); this ranking needs neither: it returns null (the caller
 * then ranks exactly with the idf) when a kept w or one it dropped near the k-th lies within a
 * relative `SCALE_GAP` of another distinct one, which covers every such rounding.
 *
 * Candidates are the articles in [lo, hi] holding every term (a leapfrog of the term postings,
 * galloping), with a weighted phrase count f ≤ min over the terms of their weighted counts. Once k
 * results are held, a candidate whose bound tf(min fᵢ, D) is below the k-th w is dropped before
 * `accept` and before its positions are read. Broad ranges are cut into intervals (about one block
 * of the densest term each), bounded by tf(min over terms of their blocks' max count, max over
 * terms of their blocks' min length) and evaluated by decreasing bound until the next bound is
 * below the k-th w: k results whenever k visible matches exist, most intervals never merged.
 */

/** bounds are inflated by this factor: a margin over the rounding of the bound's own arithmetic */
const BOUND_SLACK = 1 + 1e-9;
/**
 * Two distinct term factors closer than this (relative) may round to one score once multiplied by
 * an idf (correct rounding moves a product by at most 2⁻⁵³ relative): the ranking by w is then
 * not trusted. Far below `BOUND_SLACK`, so candidates dropped by a bound never come this close.
 */
export const SCALE_GAP = 2 ** -40;
/** the intervals of largest bound evaluated first */
const SEED = 32;
/** at most this many postings of the rarest term in range: driven by it, no intervals */
const DRIVEN_POSTINGS = 2048;

export interface PhraseTopKRequest {
  /** the phrase's FTS5 terms (two or more; repeats allowed) */
  terms: readonly string[];
  /** inclusive seq range, within [1, index.docs] */
  lo: number;
  hi: number;
  k: number;
  accept?: (seq: number) => boolean;
  /** the average document length of the ranking's statistics */
  avgdl: number;
}

/** A hit: its seq and the phrase's bm25 term factor there. */
export interface PhraseHit {
  seq: number;
  w: number;
}

/**
 * Whether ranking by w (desc, then seq) equals ranking by any positive multiple c·w rounded to a
 * double (then seq): no two distinct factors among the kept ones (`sortedW`, descending), nor a
 * dropped one (`dropped`: each candidate that lost its place or never got one, with w at least
 * (1 − SCALE_GAP) times the k-th kept at the time) and the k-th, lie within SCALE_GAP of each other.
 */
export function scaleSafe(sortedW: ArrayLike<number>, dropped: readonly number[], full: boolean): boolean {
  for (let i = 1; i < sortedW.length; i++) {
    const x = sortedW[i - 1] as number;
    const y = sortedW[i] as number;
    if (x !== y && x - y <= x * SCALE_GAP) return false;
  }
  if (!full || sortedW.length === 0) return true;
  const theta = sortedW[sortedW.length - 1] as number;
  for (const x of dropped) if (x !== theta && x >= theta * (1 - SCALE_GAP)) return false;
  return true;
}

/** The phrase's top k by w, best first; null when that order might differ from the bm25 score's (see above). */
export function phraseTopK(index: NewsIndex, req: PhraseTopKRequest): PhraseHit[] | null {
  const { terms, lo, hi, k, accept, avgdl } = req;
  const m = terms.length;
  if (m < 2) throw new RangeError("phraseTopK: a phrase has two or more terms");
  if (k < 1 || lo > hi) return [];
  const lists: Postings[] = terms.map((t) => index.postings(t));
  const { a, b } = postingsInRange(lists, lo, hi);
  for (let i = 0; i < m; i++) if (b[i] === a[i]) return [];
  // terms by ascending count in range: the leapfrog proposes from the rarest
  const count = (i: number) => (b[i] as number) - (a[i] as number);
  const order = Array.from({ length: m }, (_, i) => i).sort((x, y) => count(x) - count(y) || x - y);
  const rare = order[0] as number;
  const dense = order[m - 1] as number;

  const pos: (Positions | null)[] = new Array(m).fill(null);
  const positions = (i: number): Positions => {
    let p = pos[i] as Positions | null;
    if (p === null) {
      p = index.positions(terms[i] as string);
      pos[i] = p;
    }
    return p;
  };
  const docLen = index.docLen;
  const heap = new TopHeap(k);
  const dropped: number[] = [];
  const cur = new Int32Array(m);
  const ptr = new Int32Array(m);
  const end = new Int32Array(m);
  const allPos: Positions[] = [];

  /** candidate d: every term's cursor is at its posting of d */
  const consider = (d: number): void => {
    const dl = docLen[d - 1] as number;
    if (heap.full) {
      let fmin = Number.POSITIVE_INFINITY;
      for (let i = 0; i < m; i++) {
        const f = (lists[i] as Postings).freqs[cur[i] as number] as number;
        if (f < fmin) fmin = f;
      }
      if (tf(fmin, dl, avgdl) * BOUND_SLACK < heap.worst) return;
    }
    if (accept !== undefined && !accept(d)) return;
    let f: number;
    if (m === 2) f = pairInstances(positions(0), cur[0] as number, positions(1), cur[1] as number);
    else {
      if (allPos.length === 0) for (let i = 0; i < m; i++) allPos.push(positions(i));
      f = instances(allPos, cur, ptr, end);
    }
    if (f === 0) return;
    const w = tf(f, dl, avgdl);
    if (!heap.full) {
      heap.offer(w, d);
      return;
    }
    const worst = heap.worst;
    let out = w;
    if (w > worst || (w === worst && d < (heap.q[0] as number))) {
      out = worst;
      heap.offer(w, d);
    }
    if (out >= heap.worst * (1 - SCALE_GAP)) dropped.push(out);
  };

  const a0 = a[0] as number;
  const a1 = a[1] as number;
  let ci = a0;
  let cj = a1;
  /** two terms (the common case): one merge of the two lists, bound and offer inline */
  const evaluate2 = (s0: number, s1: number): void => {
    const A = lists[0] as Postings;
    const B = lists[1] as Postings;
    const sa = A.seqs;
    const sb = B.seqs;
    const fa = A.freqs;
    const fb = B.freqs;
    const na = b[0] as number;
    const nb = b[1] as number;
    // from the last interval's cursors when they are not past s0 (sequential scans), else searched
    const i = ci === a0 || (sa[ci - 1] as number) < s0 ? gallop(sa, s0, ci, na) : lowerBound(sa, s0, a0, na);
    const j = cj === a1 || (sb[cj - 1] as number) < s0 ? gallop(sb, s0, cj, nb) : lowerBound(sb, s0, a1, nb);
    let theta = heap.full ? heap.worst : Number.NEGATIVE_INFINITY;
    const c = { i, j };
    leapfrogPair(sa, na, sb, nb, c, s1, (x, i, j) => {
      const f0 = fa[i] as number;
      const f1 = fb[j] as number;
      if (tf(Math.min(f0, f1), docLen[x - 1] as number, avgdl) * BOUND_SLACK >= theta) {
        cur[0] = i;
        cur[1] = j;
        consider(x);
        if (heap.full) theta = heap.worst;
      }
    });
    ci = c.i;
    cj = c.j;
  };

  /** every candidate with seq in [s0, s1] */
  const evaluate = (s0: number, s1: number): void => {
    if (m === 2) {
      evaluate2(s0, s1);
      return;
    }
    for (let i = 0; i < m; i++) cur[i] = lowerBound((lists[i] as Postings).seqs, s0, a[i] as number, b[i] as number);
    const r = lists[rare] as Postings;
    if ((cur[rare] as number) >= (b[rare] as number)) return;
    let d = r.seqs[cur[rare] as number] as number;
    for (;;) {
      if (d > s1) return;
      let agreed = true;
      for (const i of order) {
        const s = (lists[i] as Postings).seqs;
        const c = gallop(s, d, cur[i] as number, b[i] as number);
        cur[i] = c;
        if (c >= (b[i] as number)) return;
        const v = s[c] as number;
        if (v !== d) {
          d = v;
          agreed = false;
          break;
        }
      }
      if (!agreed) continue;
      consider(d);
      const c = (cur[rare] as number) + 1;
      if (c >= (b[rare] as number)) return;
      cur[rare] = c;
      d = r.seqs[c] as number;
    }
  };

  const finish = (): PhraseHit[] | null => {
    const hits: PhraseHit[] = [];
    for (let i = 0; i < heap.n; i++) hits.push({ seq: heap.q[i] as number, w: heap.s[i] as number });
    hits.sort((x, y) => y.w - x.w || x.seq - y.seq);
    return scaleSafe(
      hits.map((h) => h.w),
      dropped,
      heap.full,
    )
      ? hits
      : null;
  };

  if (count(rare) <= DRIVEN_POSTINGS) {
    evaluate(lo, hi);
    return finish();
  }

  // intervals of equal seq width, about one block of the densest term each; per interval and term
  // the largest count and smallest length of the term's blocks holding a posting there
  const blk = index.block;
  const G = Math.max(1, Math.ceil(count(dense) / blk));
  const W = Math.ceil((hi - lo + 1) / G);
  const fmax = new Uint32Array(m * G);
  const dmin = new Uint32Array(m * G).fill(0xffffffff);
  const present = new Uint8Array(G);
  for (let i = 0; i < m; i++) {
    const p = lists[i] as Postings;
    const first = Math.floor((a[i] as number) / blk);
    const last = Math.floor(((b[i] as number) - 1) / blk);
    const row = i * G;
    for (let x = first; x <= last; x++) {
      const s = Math.max(x * blk, a[i] as number);
      const e = Math.min((x + 1) * blk, b[i] as number);
      const maxF = p.blocks[3 * x + 1] as number;
      const minD = p.blocks[3 * x + 2] as number;
      const g0 = Math.floor(((p.seqs[s] as number) - lo) / W);
      const g1 = Math.floor(((p.seqs[e - 1] as number) - lo) / W);
      // a block spanning many intervals marks only those that hold one of its postings
      const sparse = g1 - g0 > 4;
      const n = sparse ? e - s : g1 - g0 + 1;
      for (let y = 0; y < n; y++) {
        const g = sparse ? Math.floor(((p.seqs[s + y] as number) - lo) / W) : g0 + y;
        if (dmin[row + g] === 0xffffffff) present[g] = (present[g] as number) + 1;
        if (maxF > (fmax[row + g] as number)) fmax[row + g] = maxF;
        if (minD < (dmin[row + g] as number)) dmin[row + g] = minD;
      }
    }
  }
  const cand: number[] = [];
  const ub = new Float64Array(G);
  for (let g = 0; g < G; g++) {
    if (present[g] !== m) continue;
    let f = Number.POSITIVE_INFINITY;
    let dl = 0;
    for (let i = 0; i < m; i++) {
      f = Math.min(f, fmax[i * G + g] as number);
      dl = Math.max(dl, dmin[i * G + g] as number);
    }
    ub[g] = tf(f, dl, avgdl) * BOUND_SLACK;
    cand.push(g);
  }
  // the SEED intervals of largest bound first (in seq order): a k-th score early; then every other
  // interval in seq order (cursors move forward only) unless its bound is below the k-th score
  const done = new Uint8Array(G);
  if (cand.length > SEED) {
    const top = Float64Array.from(cand, (g) => ub[g] as number).sort();
    const c = top[top.length - SEED] as number;
    for (const g of cand) {
      if ((ub[g] as number) < c) continue;
      done[g] = 1;
      evaluate(lo + g * W, Math.min(hi, lo + (g + 1) * W - 1));
    }
  }
  for (const g of cand) {
    if (done[g] === 1 || (heap.full && (ub[g] as number) < heap.worst)) continue;
    evaluate(lo + g * W, Math.min(hi, lo + (g + 1) * W - 1));
  }
  return finish();
}
