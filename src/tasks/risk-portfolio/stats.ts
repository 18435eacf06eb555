import { createRequire } from "node:module";

/** The part of jStat (https://github.com/jstat/jstat, no bundled types) this task uses. */
interface JStatSubset {
  normal: { cdf(x: number, mean: number, sd: number): number };
  chisquare: { cdf(x: number, df: number): number };
}

const require = createRequire(import.meta.url);
const jStat = require("jstat") as JStatSubset;

/** standard normal CDF Φ(x) */
export const normalCdf = (x: number): number => jStat.normal.cdf(x, 0, 1);

/** P(X > x) for X ~ χ²(df): 1 − jStat.chisquare.cdf(x, df) (1 for x ≤ 0) */
export function chiSquarePValue(x: number, df: number): number {
  if (!(x > 0)) return 1;
  return 1 - jStat.chisquare.cdf(x, df);
}

/** the type-7 (linear interpolation) sample quantile of `xs` at probability p */
export function quantile7(xs: readonly number[], p: number): number {
  if (xs.length === 0) throw new RangeError("quantile of an empty sample");
  const s = [...xs].sort((a, b) => a - b);
  const h = (s.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, s.length - 1);
  return (s[lo] as number) + (h - lo) * ((s[hi] as number) - (s[lo] as number));
}

/** x · ln(y) with 0 · ln(0) = 0 */
const xlogy = (x: number, y: number) => (x === 0 ? 0 : x * Math.log(y));

/**
 * Kupiec's proportion-of-failures likelihood ratio for x exceedances in n days at exceedance
 * probability p: LR = −2 ln[(1 − p)^(n − x) p^x] + 2 ln[(1 − π)^(n − x) π^x], π = x / n; χ²(1) under H0.
 */
export function kupiecPof(x: number, n: number, p: number): { lr: number; p_value: number } {
  if (!(n > 0) || x < 0 || x > n) throw new RangeError(`Kupiec test needs 0 ≤ x ≤ n, n > 0 (got x=${x}, n=${n})`);
  const pi = x / n;
  const lr = -2 * (xlogy(n - x, 1 - p) + xlogy(x, p)) + 2 * (xlogy(n - x, 1 - pi) + xlogy(x, pi));
  const stat = Math.max(0, lr);
  return { lr: stat, p_value: chiSquarePValue(stat, 1) };
}
