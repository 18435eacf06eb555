import { BM25_K1, bm25Norm, bm25Tf as tf } from "./bm25.js";
import { lowerBound, type NewsIndex, type Positions, type Postings } from "./news-index.js";
import { instances, pairInstances, repeatInstances } from "./news-phrase.js";
import { gallop, postingsInRange } from "./news-postings-merge.js";
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
 * Candidates are the articles in [lo, hi] holding every term, with a weighted phrase count
 * f ≤ min over the terms of their weighted counts (one term repeated, "a a": f ≤ its count − 1, an
 * instance starting at every occurrence but a column's last). Once k results are held, a candidate
 * whose bound tf(that count, D) is below the k-th w is dropped before `accept` and before its
 * positions are read. Two terms (the common case): the rarer term's postings are scanned, the
 * other's list searched for each; when the other term is dense each posting is first dropped by
 * its own count's bound (two terms in most articles meet almost everywhere; their phrase is far
 * rarer); the bounds are tested without a division. More terms: a leapfrog of the term postings,
 * galloping. Broad ranges are cut into intervals (about one block of the densest term each),
 * bounded by tf(min over terms of their blocks' max count (one repeated term: − 1), max over terms
 * of their blocks' min length) and evaluated by decreasing bound until the next bound is below the
 * k-th w: k results whenever k visible matches exist.
 */

/** bounds are inflated by this factor: a margin over the rounding of the bound's own arithmetic */
const BOUND_SLACK = 1 + 1e-9;
/**
 * Two distinct term factors closer than this (relative) may round to one score once multiplied by
 * an idf (correct rounding moves a product by at most 2⁻⁵³ relative): the ranking by w is then
 * not trusted. Far below `BOUND_SLACK`, so candidates dropped by a bound never come this close.
 */
export const SCALE_GAP = 2 ** -40;
/** (k1 + 1)·BOUND_SLACK: the numerator factor of the division-free bound tests */
const SLACK_K1 = (BM25_K1 + 1.0) * BOUND_SLACK;
/** lengths up to this have their `bm25Norm` in a table */
const NORM_TABLE_MAX = 1 << 16;
const EMPTY_NORMS = new Float64Array(0);
const norms = new WeakMap<NewsIndex, { avgdl: number; norm: Float64Array }>();

/** `bm25Norm(D, avgdl)` for D = 0 … min(longest article, NORM_TABLE_MAX), kept per index for its last avgdl. */
function lengthNorms(index: NewsIndex, avgdl: number): Float64Array {
  const hit = norms.get(index);
  if (hit !== undefined && hit.avgdl === avgdl) return hit.norm;
  let longest = 0;
  for (const d of index.docLen) if (d > longest) longest = d;
  const norm = new Float64Array(Math.min(longest, NORM_TABLE_MAX) + 1);
  for (let d = 0; d < norm.length; d++) norm[d] = bm25Norm(d, avgdl);
  norms.set(index, { avgdl, norm });
  return norm;
}

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
  // one term repeated ("a a"): an instance starts at every occurrence but the column's last, so
  // f ≤ (weighted count) − 1
  const repeat = m === 2 && terms[0] === terms[1];

  /** candidate d (length dl, its bound not below the k-th w): every term's cursor is at its posting of d */
  const consider = (d: number, dl: number): void => {
    if (accept !== undefined && !accept(d)) return;
    let f: number;
    if (repeat) f = repeatInstances(positions(0), cur[0] as number);
    else if (m === 2) f = pairInstances(positions(0), cur[0] as number, positions(1), cur[1] as number);
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

  const P = lists[rare] as Postings;
  const Q = lists[dense] as Postings;
  const ap = a[rare] as number;
  const aq = a[dense] as number;
  const np = b[rare] as number;
  const nq = b[dense] as number;
  const norm = m === 2 ? lengthNorms(index, avgdl) : EMPTY_NORMS;
  const nn = norm.length;
  // the other term in over a quarter of the range's articles: most postings are common, so each is
  // first dropped by its own count's bound (no search in the other list); else the other list is
  // searched first and only common seqs read their length (scattered reads of a sparse term's)
  const ownBoundFirst = (nq - aq) * 4 > hi - lo + 1;
  let ci = ap;
  let cj = aq;
  /**
   * Two terms (the common case): the rarer list's postings in order, the other list's cursor
   * stepped to each (galloping over long gaps), a common seq dropped by its bound tf(min of the
   * counts, D) (a repeated term: tf(count − 1, D), no other list), else `consider`; with
   * `ownBoundFirst` each posting is first dropped by its own count's bound. The bounds are tested
   * without a division: f·(k1 + 1)·BOUND_SLACK < θ·(f + norm(D)) means tf(f, D)·BOUND_SLACK < θ
   * but for a few roundings, far inside BOUND_SLACK.
   */
  const evaluate2 = (s0: number, s1: number): void => {
    const sp = P.seqs;
    const fp = P.freqs;
    const sq = Q.seqs;
    const fq = Q.freqs;
    // from the last interval's cursors when they are not past s0 (sequential scans), else searched
    let i = ci === ap || (sp[ci - 1] as number) < s0 ? gallop(sp, s0, ci, np) : lowerBound(sp, s0, ap, np);
    let j = cj === aq || (sq[cj - 1] as number) < s0 ? gallop(sq, s0, cj, nq) : lowerBound(sq, s0, aq, nq);
    let theta = heap.full ? heap.worst : Number.NEGATIVE_INFINITY;
    for (; i < np; i++) {
      const d = sp[i] as number;
      if (d > s1) break;
      let f = fp[i] as number;
      if (repeat) {
        f -= 1;
        cur[0] = i;
      } else {
        if (ownBoundFirst) {
          const dl = docLen[d - 1] as number;
          if (f * SLACK_K1 < theta * (f + (dl < nn ? (norm[dl] as number) : bm25Norm(dl, avgdl)))) continue;
        }
        if (j < nq && (sq[j] as number) < d) {
          if (nq - j > 8 && (sq[j + 8] as number) < d) j = gallop(sq, d, j + 8, nq);
          else
            do j++;
            while (j < nq && (sq[j] as number) < d);
        }
        if (j >= nq) break;
        if (sq[j] !== d) continue;
        const g = fq[j] as number;
        if (g < f) f = g;
        cur[rare] = i;
        cur[dense] = j;
      }
      const dl = docLen[d - 1] as number;
      if (f * SLACK_K1 < theta * (f + (dl < nn ? (norm[dl] as number) : bm25Norm(dl, avgdl)))) continue;
      consider(d, dl);
      if (heap.full) theta = heap.worst;
    }
    ci = i;
    cj = j;
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
      const dl = docLen[d - 1] as number;
      if (heap.full) {
        let fmin = Number.POSITIVE_INFINITY;
        for (let i = 0; i < m; i++) {
          const f = (lists[i] as Postings).freqs[cur[i] as number] as number;
          if (f < fmin) fmin = f;
        }
        if (tf(fmin, dl, avgdl) * BOUND_SLACK >= heap.worst) consider(d, dl);
      } else consider(d, dl);
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
    ub[g] = tf(repeat ? f - 1 : f, dl, avgdl) * BOUND_SLACK;
    cand.push(g);
  }
  // the SEED intervals of largest bound first (in seq order): a k-th score early; then every other
  // interval in seq order (cursors move forward only) unless its bound is below the k-th score
  const done = new Uint8Array(G);
  if (cand.length > SEED) {
    const top = new TopHeap(SEED);
    for (const g of cand) top.offer(ub[g] as number, g);
    const c = top.worst;
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
