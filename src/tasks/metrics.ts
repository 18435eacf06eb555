/**
 * The one metrics module of the scorers: precision/recall/F1 with the conventions of tasks.md
 * "Rules for every task" (precision with no settled claims is 0; F1 is 0 when precision + recall is
 * 0; a recall whose denominator is 0 is null, so the metric is `not_scorable`, never 0), sums and
 * means in index order, medians, type-7 quantiles, and exact time-integrals of piecewise-constant
 * series. Every sum runs left to right over its input, so a scorer that keeps its summation order
 * keeps its values bit for bit.
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

/** Σ xs / n in index order; null for an empty sample */
export function meanOf(xs: readonly number[]): number | null {
  return xs.length === 0 ? null : sumOf(xs) / xs.length;
}

/** the median: the middle order statistic, the mean of the two middle ones for an even count; null when empty */
export function medianOf(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/** One piece of a piecewise-constant series: `value` on [from, to). */
export interface StepPiece {
  from: number;
  to: number;
  value: number;
}

/**
 * ∫ value dt of a piecewise-constant series over [from, to) (default: the whole series), exactly:
 * each piece clipped to the interval contributes value · (clipped length), summed in piece order;
 * `ms` is the covered length (pieces outside the interval or of zero length add nothing).
 */
export function integrateSteps(
  pieces: readonly StepPiece[],
  from = Number.NEGATIVE_INFINITY,
  to = Number.POSITIVE_INFINITY,
): { ms: number; integral: number } {
  let ms = 0;
  let integral = 0;
  for (const s of pieces) {
    const a = Math.max(s.from, from);
    const b = Math.min(s.to, to);
    if (b <= a) continue;
    ms += b - a;
    integral += s.value * (b - a);
  }
  return { ms, integral };
}

/** the time-average ∫ value dt / covered length over [from, to); null when no piece overlaps it */
export function timeAverageOf(
  pieces: readonly StepPiece[],
  from = Number.NEGATIVE_INFINITY,
  to = Number.POSITIVE_INFINITY,
): number | null {
  const r = integrateSteps(pieces, from, to);
  return r.ms === 0 ? null : r.integral / r.ms;
}
