import { bm25Tf as tf } from "./bm25.js";
import { type Bm25StatsKind, bm25Stats } from "./news-bm25-stats.js";
import { fts5Replay } from "./news-fts5-replay.js";
import type { NewsIndex, Postings } from "./news-index.js";
import { phrasePostings } from "./news-phrase.js";
import { gallop, postingsInRange } from "./news-postings-merge.js";
import { TopHeap } from "./news-top-heap.js";
import type { Ranked, TopKPhrase } from "./news-top-k.js";
import type { BoolNode } from "./search-query.js";

/**
 * As-of BM25 top-k of any boolean query (AND, OR, NOT, parentheses over words and phrases) over
 * the relive-owned news index, ranked exactly like `bm25(news_fts, 2.0, 1.0)` ORDER BY score, seq
 * (`news-top-k.ts` ranks the flat shapes faster; this covers the rest, e.g. the task policies'
 * `(a OR b …) AND (cue OR "cue phrase" …)`). FTS5's bm25 sums idf·tf over every phrase of the
 * query in query order, a phrase it does not count in the row adding +0, so summing the counted
 * ones in the same order gives the same double; ties go by seq.
 *
 * Which phrases FTS5 counts in a row: those whose cursors sit on it with a non-empty position list.
 * Without NOT that is the plain reading — under AND every child, under OR the matching children —
 * unless an AND below the root can be positioned on a row without matching, which needs a phrase
 * of two or more terms below it (its terms present, not adjacent): FTS5 then empties position
 * lists of cursors parked ahead. With NOT, the right side's cursors lag and are counted where they
 * happen to sit (in `a NOT b OR c`, b counts in rows with b and c). Those queries (`needsReplay`)
 * are ranked by replaying FTS5's cursor machine (`news-fts5-replay.ts`); all others, such as the
 * policies' AND of ORs, by the plain reading, which can skip: its
 * candidates are the postings in range of a covering set of phrases (an OR needs all its
 * children's, an AND only its cheapest child's, a NOT its left side's), each tested against the
 * tree with per-phrase forward cursors (galloping). The seq range and the per-seq `accept`
 * (lagged worlds) are applied before a row can enter the top k, as in `topK`.
 */

export interface BoolTopKRequest {
  /** the query's phrases in query order (repeats allowed); the tree's leaves index them */
  phrases: readonly TopKPhrase[];
  root: BoolNode;
  /** inclusive seq range */
  lo: number;
  hi: number;
  /** results wanted (offset + limit) */
  k: number;
  /** extra per-seq visibility test (lagged worlds), applied before ranking */
  accept?: (seq: number) => boolean;
  stats: Bm25StatsKind;
}

const isLong = (t: TopKPhrase) => typeof t !== "string" && t.length > 1;

/**
 * Whether FTS5's lazy cursors can make its counts differ from the plain reading: the query has a
 * NOT (its right side's cursors lag, and one parked on a row the root reaches through another
 * branch is counted there), or an AND other than the root has a phrase of two or more terms below it.
 */
export function needsReplay(root: BoolNode, phrases: readonly TopKPhrase[]): boolean {
  const hasLong = (n: BoolNode): boolean => {
    switch (n.t) {
      case "phrase":
        return isLong(phrases[n.i] as TopKPhrase);
      case "and":
      case "or":
        return n.kids.some(hasLong);
      case "not":
        return hasLong(n.left) || hasLong(n.right);
      default: {
        const never: never = n;
        throw new RangeError(`unknown query node ${JSON.stringify(never)}`);
      }
    }
  };
  const below = (n: BoolNode, isRoot: boolean): boolean => {
    switch (n.t) {
      case "phrase":
        return false;
      case "and":
        return (!isRoot && hasLong(n)) || n.kids.some((c) => below(c, false));
      case "or":
        return n.kids.some((c) => below(c, false));
      case "not":
        return true;
      default: {
        const never: never = n;
        throw new RangeError(`unknown query node ${JSON.stringify(never)}`);
      }
    }
  };
  return below(root, true);
}

/**
 * The plain reading over [lo, hi]: `visit(seq, at)` per matching row, ascending, at[i] phrase i's
 * posting index there or -1 when not counted (see the file comment).
 */
function plainMatches(
  lists: readonly Postings[],
  root: BoolNode,
  lo: number,
  hi: number,
  visit: (seq: number, at: Int32Array) => void,
  direct?: DirectScore,
): void {
  const m = lists.length;
  // postings in range: [a_i, b_i); cur_i the forward cursor
  const { a, b } = postingsInRange(lists, lo, hi);
  const cur = Int32Array.from(a);
  // per phrase: the row it was last tested on (0: none, seqs start at 1), and the answer
  const seen = new Int32Array(m);
  const hit = new Uint8Array(m);
  const at = new Int32Array(m);
  const has = (i: number, d: number): boolean => {
    if (seen[i] === d) return hit[i] === 1;
    seen[i] = d;
    const s = (lists[i] as Postings).seqs;
    const j = gallop(s, d, cur[i] as number, b[i] as number);
    cur[i] = j;
    const v = j < (b[i] as number) && s[j] === d;
    hit[i] = v ? 1 : 0;
    return v;
  };
  // the tree compiled to closures: whether it matches row d, and (when it does) which phrases count there
  type Compiled = { matches: (d: number) => boolean; count: (d: number) => void };
  const compile = (n: BoolNode): Compiled => {
    switch (n.t) {
      case "phrase": {
        const i = n.i;
        return {
          matches: (d) => has(i, d),
          count: () => {
            at[i] = cur[i] as number;
          },
        };
      }
      case "and": {
        const kids = n.kids.map(compile);
        const ms = kids.map((k) => k.matches);
        const cs = kids.map((k) => k.count);
        return {
          matches: (d) => {
            for (let x = 0; x < ms.length; x++) if (!(ms[x] as (d: number) => boolean)(d)) return false;
            return true;
          },
          count: (d) => {
            for (let x = 0; x < cs.length; x++) (cs[x] as (d: number) => void)(d);
          },
        };
      }
      case "or": {
        const kids = n.kids.map(compile);
        const ms = kids.map((k) => k.matches);
        const cs = kids.map((k) => k.count);
        return {
          matches: (d) => {
            for (let x = 0; x < ms.length; x++) if ((ms[x] as (d: number) => boolean)(d)) return true;
            return false;
          },
          count: (d) => {
            for (let x = 0; x < ms.length; x++)
              if ((ms[x] as (d: number) => boolean)(d)) (cs[x] as (d: number) => void)(d);
          },
        };
      }
      case "not":
        throw new RangeError("plain reading: a NOT needs the FTS5 replay (needsReplay)");
      default: {
        const never: never = n;
        throw new RangeError(`unknown query node ${JSON.stringify(never)}`);
      }
    }
  };
  const tree = compile(root);
  // a covering set of phrases (every match is a posting of one of them), cheapest by postings in range
  const cover = (n: BoolNode): { cost: number; leaves: number[] } => {
    switch (n.t) {
      case "phrase":
        return { cost: (b[n.i] as number) - (a[n.i] as number), leaves: [n.i] };
      case "and": {
        let best: { cost: number; leaves: number[] } | null = null;
        for (const c of n.kids) {
          const x = cover(c);
          if (best === null || x.cost < best.cost) best = x;
        }
        return best as { cost: number; leaves: number[] };
      }
      case "or": {
        let cost = 0;
        const leaves: number[] = [];
        for (const c of n.kids) {
          const x = cover(c);
          cost += x.cost;
          leaves.push(...x.leaves);
        }
        return { cost, leaves };
      }
      case "not":
        return cover(n.left);
      default: {
        const never: never = n;
        throw new RangeError(`unknown query node ${JSON.stringify(never)}`);
      }
    }
  };
  const drivers = [...new Set(cover(root).leaves)].filter((i) => (b[i] as number) > (a[i] as number));
  let candidates = 0;
  let total = 0;
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  for (const i of drivers) candidates += (b[i] as number) - (a[i] as number);
  for (let i = 0; i < m; i++) {
    const c = (b[i] as number) - (a[i] as number);
    total += c;
    if (c > 0) {
      const s = (lists[i] as Postings).seqs;
      first = Math.min(first, s[a[i] as number] as number);
      last = Math.max(last, s[(b[i] as number) - 1] as number);
    }
  }
  if (total === 0) return;
  // with few postings beside the candidates' own, marking every posting in range beats probing per candidate
  const span = last - first + 1;
  if (m <= MASK_MAX_PHRASES && total <= 4 * candidates * Math.max(1, m - drivers.length) && span <= 16 * total) {
    maskMatches(lists, root, a, b, first, span, visit, direct);
    return;
  }
  const nd = drivers.length;
  const dSeqs = drivers.map((i) => (lists[i] as Postings).seqs);
  const dEnd = Int32Array.from(drivers, (i) => b[i] as number);
  const dpos = Int32Array.from(drivers, (i) => a[i] as number);
  for (;;) {
    // next candidate: the smallest seq at the drivers' positions
    let d = 0x7fffffff;
    for (let x = 0; x < nd; x++) {
      const j = dpos[x] as number;
      if (j < (dEnd[x] as number)) {
        const q = (dSeqs[x] as Int32Array)[j] as number;
        if (q < d) d = q;
      }
    }
    if (d === 0x7fffffff) return;
    for (let x = 0; x < nd; x++) {
      const j = dpos[x] as number;
      if (j < (dEnd[x] as number) && (dSeqs[x] as Int32Array)[j] === d) dpos[x] = j + 1;
    }
    if (!tree.matches(d)) continue;
    at.fill(-1);
    tree.count(d);
    visit(d, at);
  }
}

/** Scoring while marking: idf·tf of each posting summed per row (bm25's terms, in phrase order), and a scored row. */
interface DirectScore {
  idf: readonly number[];
  docLen: Uint32Array;
  avgdl: number;
  offer(d: number, score: number): void;
}

/** Whether every phrase present in a matching row counts there (no NOT, and every OR's operands are phrases). */
export function countsAllPresent(n: BoolNode): boolean {
  switch (n.t) {
    case "phrase":
      return true;
    case "and":
      return n.kids.every(countsAllPresent);
    case "or":
      return n.kids.every((c) => c.t === "phrase");
    case "not":
      return false;
    default: {
      const never: never = n;
      throw new RangeError(`unknown query node ${JSON.stringify(never)}`);
    }
  }
}

/** The operands' bit sets of a `countsAllPresent` tree: it matches a row's word when the word meets each. */
function requirements(n: BoolNode): number[] {
  switch (n.t) {
    case "phrase":
      return [1 << n.i];
    case "or":
      return [n.kids.reduce((x, c) => x | (c.t === "phrase" ? 1 << c.i : 0), 0)];
    case "and":
      return n.kids.flatMap(requirements);
    case "not":
      throw new RangeError("requirements: a NOT is not an AND of ORs of phrases");
    default: {
      const never: never = n;
      throw new RangeError(`unknown query node ${JSON.stringify(never)}`);
    }
  }
}

/** at most this many phrases take the bit-mask evaluation (one bit each in a 32-bit word) */
const MASK_MAX_PHRASES = 31;
/** the bit of a row's word that marks it matched (above every phrase's) */
const MATCHED = 1 << 31;

/**
 * The plain reading by bit masks: every posting in range sets its phrase's bit in its row's word,
 * then the rows with a bit set are tested in seq order on their word alone (same matches and
 * counts as the per-candidate probes).
 */
function maskMatches(
  lists: readonly Postings[],
  root: BoolNode,
  a: Int32Array,
  b: Int32Array,
  first: number,
  span: number,
  visit: (seq: number, at: Int32Array) => void,
  direct?: DirectScore,
): void {
  if (scratchMask.length < span) {
    scratchMask = new Uint32Array(Math.max(span, 2 * scratchMask.length));
    scratchSums = new Float64Array(scratchMask.length);
  }
  const mask = scratchMask;
  // every phrase present counts (`countsAllPresent`): each row's score summed while marking, in phrase order
  const sums = direct === undefined ? null : scratchSums;
  try {
    maskFill(lists, root, a, b, first, span, visit, direct, mask, sums);
  } finally {
    mask.fill(0, 0, span);
    sums?.fill(0, 0, span);
  }
}

/** reused (zero outside a call) by `maskMatches`: one word and one score per row of the range */
let scratchMask = new Uint32Array(0);
let scratchSums = new Float64Array(0);

function maskFill(
  lists: readonly Postings[],
  root: BoolNode,
  a: Int32Array,
  b: Int32Array,
  first: number,
  span: number,
  visit: (seq: number, at: Int32Array) => void,
  direct: DirectScore | undefined,
  mask: Uint32Array,
  sums: Float64Array | null,
): void {
  const m = lists.length;
  for (let i = 0; i < m; i++) {
    const s = (lists[i] as Postings).seqs;
    const bit = 1 << i;
    const end = b[i] as number;
    for (let j = a[i] as number; j < end; j++) {
      const o = (s[j] as number) - first;
      mask[o] = (mask[o] as number) | bit;
    }
  }
  if (sums !== null && direct !== undefined) {
    // an AND of phrases and ORs of phrases matches when its word meets each operand's bits: the
    // matching rows get bit 31 (phrases use at most 31), then only their postings are scored,
    // summed in phrase order, and they are offered in seq order
    const need = Int32Array.from(requirements(root));
    const nr = need.length;
    scan: for (let o = 0; o < span; o++) {
      const w = mask[o] as number;
      if (w === 0) continue;
      for (let x = 0; x < nr; x++) if ((w & (need[x] as number)) === 0) continue scan;
      mask[o] = w | MATCHED;
    }
    const docLen = direct.docLen;
    const avgdl = direct.avgdl;
    for (let i = 0; i < m; i++) {
      const s = (lists[i] as Postings).seqs;
      const freqs = (lists[i] as Postings).freqs;
      const w = direct.idf[i] as number;
      const end = b[i] as number;
      for (let j = a[i] as number; j < end; j++) {
        const d = s[j] as number;
        const o = d - first;
        if (((mask[o] as number) & MATCHED) === 0) continue;
        sums[o] = (sums[o] as number) + w * tf(freqs[j] as number, docLen[d - 1] as number, avgdl);
      }
    }
    for (let o = 0; o < span; o++)
      if (((mask[o] as number) & MATCHED) !== 0) direct.offer(first + o, sums[o] as number);
    return;
  }
  type Compiled = { matches: (w: number) => boolean; count: (w: number) => number };
  const compile = (n: BoolNode): Compiled => {
    switch (n.t) {
      case "phrase": {
        const bit = 1 << n.i;
        return { matches: (w) => (w & bit) !== 0, count: () => bit };
      }
      case "and": {
        const kids = n.kids.map(compile);
        const ms = kids.map((k) => k.matches);
        const cs = kids.map((k) => k.count);
        return {
          matches: (w) => {
            for (let x = 0; x < ms.length; x++) if (!(ms[x] as (w: number) => boolean)(w)) return false;
            return true;
          },
          count: (w) => {
            let c = 0;
            for (let x = 0; x < cs.length; x++) c |= (cs[x] as (w: number) => number)(w);
            return c;
          },
        };
      }
      case "or": {
        const kids = n.kids.map(compile);
        const ms = kids.map((k) => k.matches);
        const cs = kids.map((k) => k.count);
        return {
          matches: (w) => {
            for (let x = 0; x < ms.length; x++) if ((ms[x] as (w: number) => boolean)(w)) return true;
            return false;
          },
          count: (w) => {
            let c = 0;
            for (let x = 0; x < ms.length; x++)
              if ((ms[x] as (w: number) => boolean)(w)) c |= (cs[x] as (w: number) => number)(w);
            return c;
          },
        };
      }
      case "not":
        throw new RangeError("plain reading: a NOT needs the FTS5 replay (needsReplay)");
      default: {
        const never: never = n;
        throw new RangeError(`unknown query node ${JSON.stringify(never)}`);
      }
    }
  };
  const tree = compile(root);
  const cur = Int32Array.from(a);
  const at = new Int32Array(m);
  for (let o = 0; o < span; o++) {
    const w = mask[o] as number;
    if (w === 0 || !tree.matches(w)) continue;
    const counted = tree.count(w);
    const d = first + o;
    for (let i = 0; i < m; i++) {
      if ((counted & (1 << i)) === 0) {
        at[i] = -1;
        continue;
      }
      const s = (lists[i] as Postings).seqs;
      const j = gallop(s, d, cur[i] as number, b[i] as number);
      cur[i] = j;
      at[i] = j;
    }
    visit(d, at);
  }
}

/** The top `k` matches of a boolean query (bm25 score ascending = best first, then seq), as FTS5 ranks them. */
export function boolTopK(index: NewsIndex, req: BoolTopKRequest): Ranked[] {
  const m = req.phrases.length;
  const lo = Math.max(1, req.lo);
  const hi = Math.min(index.docs, req.hi);
  if (m === 0 || req.k < 1 || lo > hi) return [];
  const lists: Postings[] = req.phrases.map((t) =>
    typeof t === "string"
      ? index.postings(t)
      : t.length === 1
        ? index.postings(t[0] as string)
        : phrasePostings(index, t),
  );
  const { rows, avgdl, idf } = bm25Stats(index, lists, req.stats);
  if (rows === 0) return [];
  const heap = new TopHeap(req.k);
  const docLen = index.docLen;
  const accept = req.accept;
  const visit = (d: number, at: Int32Array): void => {
    if (accept !== undefined && !accept(d)) return;
    const dl = docLen[d - 1] as number;
    let score = 0.0;
    for (let i = 0; i < m; i++) {
      const j = at[i] as number;
      if (j < 0) continue;
      score += (idf[i] as number) * tf((lists[i] as Postings).freqs[j] as number, dl, avgdl);
    }
    heap.offer(score, d);
  };
  if (needsReplay(req.root, req.phrases)) fts5Replay(index, req.phrases, lists, req.root, lo, hi, visit);
  else {
    const direct: DirectScore | undefined = countsAllPresent(req.root)
      ? {
          idf,
          docLen,
          avgdl,
          offer: (d, score) => {
            if (accept === undefined || accept(d)) heap.offer(score, d);
          },
        }
      : undefined;
    plainMatches(lists, req.root, lo, hi, visit, direct);
  }
  return heap.sorted();
}
