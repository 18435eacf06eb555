import { lowerBound, type Postings } from "./news-index.js";

/**
 * The postings-list primitives the news rankers share (`news-top-k.ts`, `news-bool-top-k.ts`,
 * `news-phrase.ts`, `news-phrase-top-k.ts`, `news-fts5-replay.ts`): forward cursor search
 * (galloping), the postings of each list inside a seq range, and the leapfrog intersection of two
 * lists.
 */

/** First index in `a[lo, hi)` with a[i] >= x, searched from `lo` outwards (cheap for short hops; cursors move forward). */
export function gallop(a: Int32Array, x: number, lo: number, hi: number): number {
  if (lo >= hi || (a[lo] as number) >= x) return lo;
  let step = 1;
  let l = lo; // a[l] < x
  let h = lo + 1;
  while (h < hi && (a[h] as number) < x) {
    l = h;
    step *= 2;
    h = lo + step;
  }
  return lowerBound(a, x, l + 1, Math.min(h, hi));
}

/** Per list, its postings with seq in [lo, hi]: indices [a[i], b[i]). */
export function postingsInRange(lists: readonly Postings[], lo: number, hi: number): { a: Int32Array; b: Int32Array } {
  const m = lists.length;
  const a = new Int32Array(m);
  const b = new Int32Array(m);
  for (let i = 0; i < m; i++) {
    const s = (lists[i] as Postings).seqs;
    a[i] = lowerBound(s, lo);
    b[i] = lowerBound(s, hi + 1, a[i] as number);
  }
  return { a, b };
}

/** The two cursors of `leapfrogPair`: positions in the first and second list. */
export interface PairCursor {
  i: number;
  j: number;
}

/**
 * The seqs both `sa[c.i, na)` and `sb[c.j, nb)` hold, ascending, up to `last`: `match(seq, i, j)`
 * per common seq (i, j its positions), the lists galloped past each other's gaps. The cursors are
 * left on the first pair not yet matched (past `last`, or at an end).
 */
export function leapfrogPair(
  sa: Int32Array,
  na: number,
  sb: Int32Array,
  nb: number,
  c: PairCursor,
  last: number,
  match: (seq: number, i: number, j: number) => void,
): void {
  let i = c.i;
  let j = c.j;
  while (i < na && j < nb) {
    const x = sa[i] as number;
    const y = sb[j] as number;
    if (x < y) {
      i = na - i > 8 && (sa[i + 8] as number) < y ? gallop(sa, y, i + 8, na) : i + 1;
      continue;
    }
    if (y < x) {
      j = nb - j > 8 && (sb[j + 8] as number) < x ? gallop(sb, x, j + 8, nb) : j + 1;
      continue;
    }
    if (x > last) break;
    match(x, i, j);
    i++;
    j++;
  }
  c.i = i;
  c.j = j;
}
