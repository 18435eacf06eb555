/**
 * Arithmetic shared by the claim-based scorers (breakout-news, resolution-detect), with the
 * conventions of tasks.md "Rules for every task": precision with no settled claims is 0; F1 is 0
 * when precision + recall is 0; a recall whose denominator is 0 is null (the metric is then
 * `not_scorable`, never 0).
 */

/** numerator / denominator, 0 when the denominator is 0 (precision convention) */
export function precisionOf(numerator: number, denominator: number): number {
  return denominator === 0 ? 0 : numerator / denominator;
}

/** numerator / denominator, null when the denominator is 0 (recall convention) */
export function recallOf(numerator: number, denominator: number): number | null {
  return denominator === 0 ? null : numerator / denominator;
}

/** F1 of a precision and a recall; null when the recall is null, 0 when both are 0; p when p === r */
export function f1Of(precision: number, recall: number | null): number | null {
  if (recall === null) return null;
  if (precision + recall === 0) return 0;
  if (precision === recall) return precision;
  return (2 * precision * recall) / (precision + recall);
}

/**
 * The q-quantile (0 ≤ q ≤ 1) by linear interpolation between order statistics (Hyndman–Fan type
 * 7, the default of R and numpy); null for an empty sample.
 */
export function quantileOf(xs: readonly number[], q: number): number | null {
  if (xs.length === 0) return null;
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile must be in [0, 1], got ${q}`);
  const s = [...xs].sort((a, b) => a - b);
  const h = (s.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return (s[lo] as number) + (h - lo) * ((s[hi] as number) - (s[lo] as number));
}

/** Σ xs in index order */
export function sumOf(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}
