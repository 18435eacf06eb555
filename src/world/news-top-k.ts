import { bm25Tf as tf } from "./bm25.js";
import { lowerBound, type NewsIndex, type Postings } from "./news-index.js";
import { BOUND_SLACK, orState, orWindow } from "./news-or-top-k.js";
import { phrasePostings } from "./news-phrase.js";
import { phraseTopK } from "./news-phrase-top-k.js";
import { leapfrogPair, type PairCursor, postingsInRange } from "./news-postings-merge.js";
import { TopHeap } from "./news-top-heap.js";

/**
 * As-of BM25 top-k over the relive-owned news index, with the same ranking as
 * `bm25(news_fts, 2.0, 1.0)` ORDER BY score, seq — without scoring every match.
 *
 * FTS5's bm25 for a row is −Σᵢ idfᵢ · (fᵢ·(k1+1)) / (fᵢ + k1·(1 − b + b·D/avgdl)) over the query's
 * phrases i in query order, with k1 = 1.2, b = 0.75, fᵢ the column-weighted occurrence count
 * (2·title + 1·body), D the row's token count, avgdl = tokens / rows, idfᵢ = ln((rows − nᵢ + 0.5) /
 * (nᵢ + 0.5)) (1e-6 when ≤ 0) and nᵢ the rows containing the phrase. The code below evaluates that
 * exact floating-point expression in the same order (a phrase absent from a row adds +0, so skipping
 * it is exact), hence equal scores and equal ties (broken by seq) — property-tested against FTS5.
 *
 * The date bound is the seq range [lo, hi] (seq is monotone in visible_at) plus an optional
 * per-seq `accept` (the exact published_at / visible_at test of lagged worlds), applied to every
 * candidate before it can enter the top k: k results whenever k visible matches exist.
 *
 * Early termination (block-max): the range is cut into G intervals of equal seq width, about one
 * index block of the densest term each (OR: at least `OR_WINDOW` seqs). Each interval gets an
 * upper bound from the blocks overlapping it (global statistics: the block's stored largest term factor, exact; as-of
 * statistics: the factor of the block's max frequency and min document length) — Σ over the terms (OR) or, if
 * every term has a block there, over all terms (AND). Intervals are evaluated exactly in rounds of
 * decreasing bound; the search stops once k results are held and every unevaluated interval's
 * bound is below the k-th score, so most postings of a broad term are never scored. Ranges with few
 * postings (and AND queries with a rare term, driven by that term's postings) are evaluated in full.
 * An OR of two or more phrases is evaluated per interval by `news-or-top-k.ts` (block-max MaxScore:
 * the interval's own term bounds decide which terms can be skipped there).
 *
 * A query of one multi-term phrase is ranked by `news-phrase-top-k.ts` (its term factor, no
 * idf, no phrase postings) unless two of its factors are close enough for an idf to round them
 * together; then, and for phrases among other phrases, by the phrase postings of `news-phrase.ts`.
 */

/** at most this many postings in range: evaluate everything */
const EXHAUSTIVE_POSTINGS = 2048;
/** interval bounds are bucketed into this many levels (evaluation rounds take whole levels, best first) */
const LEVELS = 1024;
/** OR intervals are at least this many seqs wide */
const OR_WINDOW = 1024;

export type TopKOp = "AND" | "OR";

/** One bm25 phrase of a query: an FTS5 term, or two or more of them (a phrase: the index must hold positions). */
export type TopKPhrase = string | readonly string[];

export interface TopKRequest {
  /** the query's phrases in query order (repeats allowed) */
  terms: readonly TopKPhrase[];
  op: TopKOp;
  /** inclusive seq range */
  lo: number;
  hi: number;
  /** results wanted (offset + limit) */
  k: number;
  /** extra per-seq visibility test (lagged worlds), applied before ranking */
  accept?: (seq: number) => boolean;
  /** corpus statistics: global (FTS5's) or as of the articles with seq <= `asOf` */
  stats: { kind: "global" } | { kind: "asOf"; asOf: number };
}

export interface Ranked {
  seq: number;
  /**
   * bm25(news_fts, 2.0, 1.0). For a query of one multi-term phrase it is computed on first read:
   * its idf needs the phrase's document frequency over the corpus, which the ranking does not
   * (`news-phrase-top-k.ts`).
   */
  score: number;
}

/** The top `k` matches (bm25 score ascending = best first, then seq), as FTS5 ranks them. */
export function topK(index: NewsIndex, req: TopKRequest): Ranked[] {
  const m = req.terms.length;
  const lo = Math.max(1, req.lo);
  const hi = Math.min(index.docs, req.hi);
  if (m === 0 || req.k < 1 || lo > hi) return [];
  // corpus statistics: rows, tokens, and a phrase's document frequency from its postings
  let rows: number;
  let tokens: number;
  let docFreq: (p: Postings) => number;
  switch (req.stats.kind) {
    case "global":
      rows = index.docs;
      tokens = index.tokens;
      docFreq = (p) => p.seqs.length;
      break;
    case "asOf": {
      const at = Math.max(0, Math.min(index.docs, req.stats.asOf));
      rows = at;
      tokens = index.tokensUpTo(at);
      docFreq = (p) => lowerBound(p.seqs, at + 1);
      break;
    }
    default: {
      const never: never = req.stats;
      throw new RangeError(`unknown statistics ${JSON.stringify(never)}`);
    }
  }
  if (rows === 0) return [];
  const avgdl = tokens / rows;
  const idfOf = (n: number) => {
    const v = index.lnOf((rows - n + 0.5) / (n + 0.5));
    return v <= 0.0 ? 1e-6 : v;
  };
  const lone = req.terms[0] as TopKPhrase;
  if (m === 1 && typeof lone !== "string" && lone.length > 1) {
    const hits = phraseTopK(index, {
      terms: lone,
      lo,
      hi,
      k: req.k,
      avgdl,
      ...(req.accept === undefined ? {} : { accept: req.accept }),
    });
    if (hits !== null) {
      // the ranking needed no idf; the score (0 + idf·w, as in evaluate) computes it on first read
      let idf: number | undefined;
      const phraseIdf = () => {
        idf ??= idfOf(docFreq(phrasePostings(index, lone)));
        return idf;
      };
      return hits.map((h) => {
        const r = { seq: h.seq } as Ranked;
        Object.defineProperty(r, "score", { enumerable: true, get: () => -(0.0 + phraseIdf() * h.w) });
        return r;
      });
    }
  }
  const lists: Postings[] = req.terms.map((t) =>
    typeof t === "string"
      ? index.postings(t)
      : t.length === 1
        ? index.postings(t[0] as string)
        : phrasePostings(index, t),
  );
  const globalStats = req.stats.kind === "global";
  const idf = lists.map((p) => idfOf(docFreq(p)));
  // postings in range: [a_i, b_i)
  const { a, b } = postingsInRange(lists, lo, hi);
  let total = 0;
  let dense = 0;
  let rare = 0;
  for (let i = 0; i < m; i++) {
    const c = (b[i] as number) - (a[i] as number);
    total += c;
    if (c > (b[dense] as number) - (a[dense] as number)) dense = i;
    if (c < (b[rare] as number) - (a[rare] as number)) rare = i;
  }
  if (req.op === "AND" && (b[rare] as number) === (a[rare] as number)) return [];
  if (total === 0) return [];
  const heap = new TopHeap(req.k);
  const docLen = index.docLen;
  const accept = req.accept;
  const blk = index.block;

  // OR (block-max MaxScore, news-or-top-k.ts): per term an upper bound of its score over the range
  // (its blocks' bounds there); windows refine it by their own blocks
  const U = new Float64Array(m);
  if (req.op === "OR" && m > 1) {
    for (let i = 0; i < m; i++) {
      if ((b[i] as number) <= (a[i] as number)) continue;
      const p = lists[i] as Postings;
      let u = 0;
      for (let k = Math.floor((a[i] as number) / blk); k <= Math.floor(((b[i] as number) - 1) / blk); k++) {
        const v = globalStats
          ? (p.bmax[k] as number)
          : tf(p.blocks[3 * k + 1] as number, p.blocks[3 * k + 2] as number, avgdl);
        if (v > u) u = v;
      }
      U[i] = (idf[i] as number) * u * BOUND_SLACK;
    }
  }
  const or = req.op === "OR" && m > 1 ? orState(lists, a, b, idf, U, docLen, avgdl, heap, accept) : null;
  /**
   * Two-term AND over [cur, s1]: a leapfrog of the two lists (galloping over the gaps of the
   * sparser one). A match is scored first (two term factors, in query order) and dropped when below
   * the k-th score — `heap.offer` would drop it too — so `accept` runs only for rows that can
   * enter the top k.
   */
  const pair: PairCursor = { i: 0, j: 0 };
  const evaluateAnd2 = (s1: number): void => {
    const A = lists[0] as Postings;
    const B = lists[1] as Postings;
    const fa = A.freqs;
    const fb = B.freqs;
    const w0 = idf[0] as number;
    const w1 = idf[1] as number;
    pair.i = cur[0] as number;
    pair.j = cur[1] as number;
    leapfrogPair(A.seqs, b[0] as number, B.seqs, b[1] as number, pair, s1, (d, i, j) => {
      const dl = docLen[d - 1] as number;
      let score = 0.0;
      score += w0 * tf(fa[i] as number, dl, avgdl);
      score += w1 * tf(fb[j] as number, dl, avgdl);
      if (heap.full && score < heap.worst) return;
      if (accept !== undefined && !accept(d)) return;
      heap.offer(score, d);
    });
  };

  /** Scores every match with seq in [s0, s1] (one term, or AND); cur[] are the per-term start positions (advanced). */
  const cur = new Int32Array(m);
  const evaluate = (s0: number, s1: number): void => {
    for (let i = 0; i < m; i++) {
      const s = (lists[i] as Postings).seqs;
      cur[i] = lowerBound(s, s0, a[i] as number, b[i] as number);
    }
    if (m === 1) {
      const p = lists[0] as Postings;
      const end = b[0] as number;
      const w = idf[0] as number;
      for (let j = cur[0] as number; j < end; j++) {
        const seq = p.seqs[j] as number;
        if (seq > s1) break;
        if (accept !== undefined && !accept(seq)) continue;
        let score = 0.0;
        score += w * tf(p.freqs[j] as number, docLen[seq - 1] as number, avgdl);
        heap.offer(score, seq);
      }
      return;
    }
    if (m === 2) {
      evaluateAnd2(s1);
      return;
    }
    for (;;) {
      let d = Number.POSITIVE_INFINITY;
      let present = 0;
      for (let i = 0; i < m; i++) {
        const j = cur[i] as number;
        if (j < (b[i] as number)) {
          const q = (lists[i] as Postings).seqs[j] as number;
          if (q < d) d = q;
        }
      }
      if (d > s1) return;
      for (let i = 0; i < m; i++) {
        const j = cur[i] as number;
        if (j < (b[i] as number) && (lists[i] as Postings).seqs[j] === d) present++;
      }
      if (present === m && (accept === undefined || accept(d))) {
        const dl = docLen[d - 1] as number;
        let score = 0.0;
        for (let i = 0; i < m; i++) {
          const p = lists[i] as Postings;
          const j = cur[i] as number;
          if (j < (b[i] as number) && p.seqs[j] === d)
            score += (idf[i] as number) * tf(p.freqs[j] as number, dl, avgdl);
        }
        heap.offer(score, d);
      }
      for (let i = 0; i < m; i++) {
        const j = cur[i] as number;
        if (j < (b[i] as number) && (lists[i] as Postings).seqs[j] === d) cur[i] = j + 1;
      }
    }
  };

  const rareCount = (b[rare] as number) - (a[rare] as number);
  if (total <= EXHAUSTIVE_POSTINGS) {
    if (or !== null) orWindow(or, lo, hi, U, 0);
    else evaluate(lo, hi);
    return heap.sorted();
  }
  if (req.op === "AND" && rareCount <= EXHAUSTIVE_POSTINGS) {
    // driven by the rarest term: every AND match is one of its postings
    const p = lists[rare] as Postings;
    for (let j = a[rare] as number; j < (b[rare] as number); j++) {
      const seq = p.seqs[j] as number;
      let all = true;
      for (let i = 0; i < m && all; i++) {
        const s = (lists[i] as Postings).seqs;
        const at = lowerBound(s, seq, a[i] as number, b[i] as number);
        if (at >= (b[i] as number) || s[at] !== seq) all = false;
      }
      if (!all || (accept !== undefined && !accept(seq))) continue;
      const dl = docLen[seq - 1] as number;
      let score = 0.0;
      for (let i = 0; i < m; i++) {
        const q = lists[i] as Postings;
        const at = lowerBound(q.seqs, seq, a[i] as number, b[i] as number);
        score += (idf[i] as number) * tf(q.freqs[at] as number, dl, avgdl);
      }
      heap.offer(score, seq);
    }
    return heap.sorted();
  }

  // block-max bounds on a grid of G intervals of width W over [lo, hi]
  // (OR: at least OR_WINDOW seqs wide: evaluating a window has a fixed cost)
  const G = Math.max(
    1,
    Math.min(
      Math.ceil(((b[dense] as number) - (a[dense] as number)) / blk),
      or !== null ? Math.ceil((hi - lo + 1) / OR_WINDOW) : Number.POSITIVE_INFINITY,
    ),
  );
  const W = Math.ceil((hi - lo + 1) / G);
  const ub = new Float64Array(G);
  const present = new Uint8Array(G);
  // termUb[g·m + i]: term i's bound in interval g
  const termUb = new Float64Array(G * m);
  const mark = new Int32Array(G).fill(-1);
  for (let i = 0; i < m; i++) {
    const p = lists[i] as Postings;
    const first = Math.floor((a[i] as number) / blk);
    const last = Math.floor(((b[i] as number) - 1) / blk);
    const w = idf[i] as number;
    for (let k = first; k <= last; k++) {
      const s = Math.max(k * blk, a[i] as number);
      const e = Math.min((k + 1) * blk, b[i] as number);
      if (s >= e) continue;
      const bound =
        w *
        (globalStats ? (p.bmax[k] as number) : tf(p.blocks[3 * k + 1] as number, p.blocks[3 * k + 2] as number, avgdl));
      const g0 = Math.floor(((p.seqs[s] as number) - lo) / W);
      const g1 = Math.floor(((p.seqs[e - 1] as number) - lo) / W);
      // a block spanning many intervals marks only those that hold one of its postings
      const sparse = g1 - g0 > 4;
      const n = sparse ? e - s : g1 - g0 + 1;
      for (let x = 0; x < n; x++) {
        const g = sparse ? Math.floor(((p.seqs[s + x] as number) - lo) / W) : g0 + x;
        if (mark[g] !== i) {
          mark[g] = i;
          termUb[g * m + i] = bound;
          present[g] = (present[g] as number) + 1;
          ub[g] = (ub[g] as number) + bound;
        } else if (bound > (termUb[g * m + i] as number)) {
          ub[g] = (ub[g] as number) + (bound - (termUb[g * m + i] as number));
          termUb[g * m + i] = bound;
        }
      }
    }
  }
  // candidate intervals and their bounds (AND: every term must have a block there)
  const cand: number[] = [];
  for (let g = 0; g < G; g++) {
    if (present[g] === 0 || (req.op === "AND" && present[g] !== m)) continue;
    ub[g] = (ub[g] as number) * BOUND_SLACK;
    cand.push(g);
  }
  // intervals by bound in LEVELS buckets over [min, max] (a histogram, not a sort: sorting
  // thousands of doubles costs more than evaluating many intervals)
  let minUb = Number.POSITIVE_INFINITY;
  let maxUb = Number.NEGATIVE_INFINITY;
  for (const g of cand) {
    const v = ub[g] as number;
    if (v < minUb) minUb = v;
    if (v > maxUb) maxUb = v;
  }
  const scale = maxUb > minUb ? LEVELS / (maxUb - minUb) : 0;
  const level = new Uint16Array(cand.length);
  const count = new Int32Array(LEVELS);
  const levelMax = new Float64Array(LEVELS).fill(Number.NEGATIVE_INFINITY);
  for (let x = 0; x < cand.length; x++) {
    const v = ub[cand[x] as number] as number;
    const l = Math.min(LEVELS - 1, Math.floor((v - minUb) * scale));
    level[x] = l;
    count[l] = (count[l] as number) + 1;
    if (v > (levelMax[l] as number)) levelMax[l] = v;
  }
  // rounds: the best levels holding at least `take` more intervals (doubling), each round in seq order
  const done = new Uint8Array(G);
  let take = Math.max(req.k, 8);
  let from = LEVELS; // levels [from, LEVELS) are taken
  let taken = 0;
  while (from > 0) {
    const want = taken + take;
    while (from > 0 && taken < want) {
      from--;
      taken += count[from] as number;
    }
    // OR: interval by interval, each by its own term bounds; otherwise adjacent intervals of the round
    // are evaluated as one range (one cursor search per term, not one per interval)
    let run0 = -1;
    let run1 = -1;
    for (let x = 0; x < cand.length; x++) {
      const g = cand[x] as number;
      if (done[g] === 1 || (level[x] as number) < from) continue;
      done[g] = 1;
      if (heap.full && (ub[g] as number) < heap.worst) continue;
      if (or !== null) {
        orWindow(or, lo + g * W, Math.min(hi, lo + (g + 1) * W - 1), termUb, g * m);
        continue;
      }
      if (g === run1 + 1 && run0 >= 0) {
        run1 = g;
        continue;
      }
      if (run0 >= 0) evaluate(lo + run0 * W, Math.min(hi, lo + (run1 + 1) * W - 1));
      run0 = g;
      run1 = g;
    }
    if (run0 >= 0) evaluate(lo + run0 * W, Math.min(hi, lo + (run1 + 1) * W - 1));
    // stop once no interval left can hold a result
    if (heap.full) {
      let rest = Number.NEGATIVE_INFINITY;
      for (let l = 0; l < from; l++) if ((levelMax[l] as number) > rest) rest = levelMax[l] as number;
      if (rest < heap.worst) break;
    }
    take *= 2;
  }
  return heap.sorted();
}
