import { createRequire } from "node:module";

/** The part of jStat (https://github.com/jstat/jstat, no bundled types) the report uses. */
interface JStatSubset {
  /** regularized incomplete beta I_x(a, b) */
  ibeta(x: number, a: number, b: number): number;
  chisquare: { cdf(x: number, df: number): number };
  /** log Γ(x) */
  gammaln(x: number): number;
}

const require = createRequire(import.meta.url);
const jStat = require("jstat") as JStatSubset;

/**
 * Upper tail P(F > f) of the central F distribution with (df1, df2) degrees of freedom.
 * It equals `1 - jStat.centralF.cdf(f, df1, df2)`, but is evaluated as the complementary
 * incomplete beta I_{df2/(df2+df1 f)}(df2/2, df1/2), so small p-values keep their precision.
 */
export function fUpperTail(f: number, df1: number, df2: number): number {
  if (!(df1 > 0 && df2 > 0)) throw new Error(`F test needs positive degrees of freedom, got (${df1}, ${df2})`);
  if (Number.isNaN(f)) throw new Error("F statistic is NaN");
  if (f === Number.POSITIVE_INFINITY) return 0;
  if (f <= 0) return 1;
  return jStat.ibeta(df2 / (df2 + df1 * f), df2 / 2, df1 / 2);
}

/** Upper tail P(X > x) of the chi-square distribution with df degrees of freedom. */
export function chiSquareUpperTail(x: number, df: number): number {
  if (!(df > 0)) throw new Error(`chi-square test needs positive degrees of freedom, got ${df}`);
  if (x <= 0) return 1;
  return 1 - jStat.chisquare.cdf(x, df);
}

/** log n! (through log Γ(n + 1)) */
export function logFactorial(n: number): number {
  if (!Number.isInteger(n) || n < 0) throw new Error(`log factorial needs a non-negative integer, got ${n}`);
  return jStat.gammaln(n + 1);
}
