import { bm25Tf as tf } from "./bm25.js";
import { lowerBound, type Postings } from "./news-index.js";
import { gallop } from "./news-postings-merge.js";
import type { TopHeap } from "./news-top-heap.js";

/**
 * Block-max MaxScore for the OR of a query's phrases, evaluated window by window (`news-top-k.ts`
 * cuts the seq range into windows, bounds each from the blocks overlapping it and calls `orWindow`
 * best windows first).
 *
 * - **Window bounds**: in each window the phrases are ordered by their bounds *there* (the largest
 *   term factor of their blocks overlapping it, × idf), not by their bounds over the whole range.
 *   Once k results are held, the phrases whose window bounds sum below the k-th score
 *   (non-essential there) cannot make a result alone; a phrase whose blocks are low in a window is
 *   non-essential there even where it is essential over the range.
 * - **Accumulators, phrase at a time**: every posting of the essential phrases in the window adds
 *   its factor to its row's accumulator (a sequential loop per phrase, no merge of cursors); rows
 *   whose sum plus the non-essential bounds fall below the k-th score are dropped; then each
 *   non-essential phrase, largest bound first, adds its factor to the rows still alive (by scanning
 *   its postings in the window, or by binary search per row when few are alive) and the cut is
 *   applied again with the bounds left.
 * - **Exactness**: a survivor's score is summed again in query order over every phrase it holds, as
 *   FTS5 sums it (the accumulators sum in another order, so every cut compares against the k-th
 *   score lowered by a relative 2⁻⁴⁰, far above the rounding of a few additions, and bounds carry
 *   `BOUND_SLACK`); the visibility test (`accept`) runs only for a row whose exact score can enter
 *   the top k, so nothing beyond the as-of bound is ranked. Property-tested against the FTS5
 *   statement, the paths asserted by `orTopKCounts`.
 */

/** bounds are inflated by this factor: a margin over the rounding of the bound's own arithmetic */
export const BOUND_SLACK = 1 + 1e-9;
/** pruning compares against the k-th score lowered by this relative margin (sums in another order) */
const CUT = 1 - 2 ** -40;
/** windows are evaluated in pieces at most this many seqs wide (the accumulators' size) */
export const OR_PIECE = 8192;
/** a non-essential phrase is looked up per row alive when it has more than this many postings per row in the window */
const PROBE_COST = 12;

/** What the OR path did, summed over every query of the process (the tests assert the paths were taken). */
export const orTopKCounts = {
  /** windows evaluated */
  windows: 0,
  /** windows where a phrase essential by its bound over the whole range was non-essential by its window bound */
  demoted: 0,
  /** rows dropped by a bound before every phrase was looked at */
  dropped: 0,
  /** non-essential phrases looked up per row alive (not scanned) in a window */
  probed: 0,
  /** windows evaluated in more than one piece */
  split: 0,
  /** queries of more than 31 phrases (the ones past the 31st share the sign bit of `held`) */
  wide: 0,
};

/** The OR evaluation's state for one query: lists in range, idf, cursors, the heap. */
export interface OrState {
  readonly m: number;
  readonly seqs: readonly Int32Array[];
  readonly freqs: readonly Uint32Array[];
  /** [start, end) of each phrase's postings in the query's range */
  readonly start: Int32Array;
  readonly end: Int32Array;
  readonly w: Float64Array;
  readonly docLen: Uint32Array;
  readonly avgdl: number;
  readonly heap: TopHeap;
  readonly accept: ((seq: number) => boolean) | undefined;
  /** the prefix sums of the phrases' bounds over the whole range, ascending (inflated) */
  readonly globalPrefix: Float64Array;
  /** per phrase: the cursor (a position in its postings), valid for seqs from `at` on */
  readonly cur: Int32Array;
  at: number;
  /** scratch: the phrases by ascending window bound, and the prefix sums of those bounds */
  readonly order: Int32Array;
  readonly prefix: Float64Array;
}

export function orState(
  lists: readonly Postings[],
  a: Int32Array,
  b: Int32Array,
  idf: readonly number[],
  global: Float64Array,
  docLen: Uint32Array,
  avgdl: number,
  heap: TopHeap,
  accept: ((seq: number) => boolean) | undefined,
): OrState {
  const m = lists.length;
  if (m > 31) orTopKCounts.wide++;
  const sorted = Float64Array.from(global).sort();
  const globalPrefix = new Float64Array(m + 1);
  for (let x = 0; x < m; x++) globalPrefix[x + 1] = (globalPrefix[x] as number) + (sorted[x] as number);
  for (let x = 1; x <= m; x++) globalPrefix[x] = (globalPrefix[x] as number) * BOUND_SLACK;
  return {
    m,
    seqs: lists.map((p) => p.seqs),
    freqs: lists.map((p) => p.freqs),
    start: a,
    end: b,
    w: Float64Array.from(idf),
    docLen,
    avgdl,
    heap,
    accept,
    globalPrefix,
    cur: Int32Array.from(a),
    at: Number.NEGATIVE_INFINITY,
    order: new Int32Array(m),
    prefix: new Float64Array(m + 1),
  };
}

/**
 * Every OR match with seq in [s0, s1] that can enter the top k, offered to the heap. `u[uAt + i]`
 * is phrase i's bound in this window (0 when it has no posting there). Between calls with
 * increasing `s0` the cursors gallop forward; a call with a smaller `s0` restarts them by binary
 * search.
 */
export function orWindow(st: OrState, s0: number, s1: number, u: Float64Array, uAt: number): void {
  const { m, seqs: S, end: E, cur, order, prefix, heap } = st;
  // phrases by ascending window bound (ties by query order), prefix sums inflated
  for (let x = 0; x < m; x++) {
    const v = u[uAt + x] as number;
    let y = x;
    while (y > 0 && (u[uAt + (order[y - 1] as number)] as number) > v) {
      order[y] = order[y - 1] as number;
      y--;
    }
    order[y] = x;
  }
  for (let x = 0; x < m; x++) prefix[x + 1] = (prefix[x] as number) + (u[uAt + (order[x] as number)] as number);
  for (let x = 1; x <= m; x++) prefix[x] = (prefix[x] as number) * BOUND_SLACK;
  orTopKCounts.windows++;
  if (s1 - s0 >= OR_PIECE) orTopKCounts.split++;
  let first = true;
  for (let p0 = s0; p0 <= s1; p0 += OR_PIECE) {
    const p1 = Math.min(s1, p0 + OR_PIECE - 1);
    const cut = heap.full ? heap.worst * CUT : Number.NEGATIVE_INFINITY;
    let e = 0; // order[0, e) are non-essential in this window
    while (e < m && (prefix[e + 1] as number) < cut) e++;
    if (first) {
      first = false;
      let ge = 0;
      while (ge < m && (st.globalPrefix[ge + 1] as number) < cut) ge++;
      if (e > ge) orTopKCounts.demoted++;
    }
    if (e === m) return;
    // cursors: after a window further on, by binary search from p0; otherwise the essential phrases'
    // cursors gallop to p0 (the others lag until they are scanned or probed)
    if (p0 < st.at) {
      for (let i = 0; i < m; i++) cur[i] = lowerBound(S[i] as Int32Array, p0, st.start[i] as number, E[i] as number);
    } else {
      for (let x = e; x < m; x++) {
        const i = order[x] as number;
        const s = S[i] as Int32Array;
        const j = cur[i] as number;
        if (j < (E[i] as number) && (s[j] as number) < p0) cur[i] = gallop(s, p0, j, E[i] as number);
      }
    }
    st.at = p0;
    orPiece(st, p0, p1, e, cut);
  }
}

/** `orPiece`'s accumulators (indexed by row = seq − p0; `acc` and `held` all zero between pieces) */
const acc = new Float64Array(OR_PIECE);
/** per row the phrases it holds (bit i for phrase i < 31; the sign bit for any other), 0 when untouched */
const held = new Int32Array(OR_PIECE);
const live = new Int32Array(OR_PIECE);

/** a phrase's bit in `held` */
const bitOf = (i: number) => (i < 31 ? 1 << i : 1 << 31);

/** One piece [p0, p1] of a window, by accumulators (see the file comment); `e` and `cut` as in `orWindow`. */
function orPiece(st: OrState, p0: number, p1: number, e: number, cut: number): void {
  const { m, seqs: S, freqs: F, end: E, start, w: W, cur, order, prefix, docLen, avgdl, heap, accept } = st;
  let n = 0; // live[0, n): the rows touched
  for (let x = e; x < m; x++) {
    const i = order[x] as number;
    const s = S[i] as Int32Array;
    const f = F[i] as Uint32Array;
    const w = W[i] as number;
    const bit = bitOf(i);
    const end = E[i] as number;
    let j = cur[i] as number;
    for (; j < end; j++) {
      const d = s[j] as number;
      if (d > p1) break;
      const r = d - p0;
      const h = held[r] as number;
      if (h === 0) live[n++] = r;
      held[r] = h | bit;
      acc[r] = (acc[r] as number) + w * tf(f[j] as number, docLen[d - 1] as number, avgdl);
    }
    cur[i] = j;
  }
  // the non-essential phrases, largest bound first, over the rows still alive
  let x = e;
  for (;;) {
    const rest = prefix[x] as number;
    let kept = 0;
    for (let t = 0; t < n; t++) {
      const r = live[t] as number;
      if ((acc[r] as number) + rest < cut) {
        acc[r] = 0;
        held[r] = 0;
      } else live[kept++] = r;
    }
    orTopKCounts.dropped += n - kept;
    n = kept;
    if (x === 0 || n === 0) break;
    x--;
    const i = order[x] as number;
    const s = S[i] as Int32Array;
    const f = F[i] as Uint32Array;
    const w = W[i] as number;
    const bit = bitOf(i);
    const end = E[i] as number;
    let j = cur[i] as number;
    if (j < end && (s[j] as number) < p0) j = gallop(s, p0, j, end);
    const stop = lowerBound(s, p1 + 1, j, end);
    if (n * PROBE_COST < stop - j) {
      // few rows alive: look each up rather than scan the phrase's postings
      orTopKCounts.probed++;
      for (let t = 0; t < n; t++) {
        const r = live[t] as number;
        const d = p0 + r;
        const q = lowerBound(s, d, j, stop);
        if (q < stop && s[q] === d) {
          held[r] = (held[r] as number) | bit;
          acc[r] = (acc[r] as number) + w * tf(f[q] as number, docLen[d - 1] as number, avgdl);
        }
      }
    } else {
      for (; j < stop; j++) {
        const r = (s[j] as number) - p0;
        const h = held[r] as number;
        if (h === 0) continue;
        held[r] = h | bit;
        acc[r] = (acc[r] as number) + w * tf(f[j] as number, docLen[p0 + r - 1] as number, avgdl);
      }
    }
    cur[i] = stop;
  }
  // survivors: the exact score in query order (each factor again, at its posting)
  let t = 0;
  try {
    for (; t < n; t++) {
      const r = live[t] as number;
      const h = held[r] as number;
      acc[r] = 0;
      held[r] = 0;
      const d = p0 + r;
      const dl = docLen[d - 1] as number;
      let score = 0.0;
      for (let i = 0; i < m; i++) {
        if (i < 31 ? ((h >>> i) & 1) === 0 : h >= 0) continue;
        const s = S[i] as Int32Array;
        const j = lowerBound(s, d, start[i] as number, E[i] as number);
        if (j < (E[i] as number) && s[j] === d)
          score += (W[i] as number) * tf((F[i] as Uint32Array)[j] as number, dl, avgdl);
      }
      if (heap.full && score < heap.worst) continue;
      if (accept !== undefined && !accept(d)) continue;
      heap.offer(score, d);
    }
  } finally {
    // the accumulators are shared by every query: none left set when `accept` throws
    for (; t < n; t++) {
      const r = live[t] as number;
      acc[r] = 0;
      held[r] = 0;
    }
  }
}
