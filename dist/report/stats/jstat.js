import { createRequire } from "node:module";
const require2 = createRequire(import.meta.url);
const jStat = require2("jstat");
function fUpperTail(f, df1, df2) {
  if (!(df1 > 0 && df2 > 0)) throw new Error(`F test needs positive degrees of freedom, got (${df1}, ${df2})`);
  if (Number.isNaN(f)) throw new Error("F statistic is NaN");
  if (f === Number.POSITIVE_INFINITY) return 0;
  if (f <= 0) return 1;
  return jStat.ibeta(df2 / (df2 + df1 * f), df2 / 2, df1 / 2);
}
function chiSquareUpperTail(x, df) {
  if (!(df > 0)) throw new Error(`chi-square test needs positive degrees of freedom, got ${df}`);
  if (x <= 0) return 1;
  return 1 - jStat.chisquare.cdf(x, df);
}
function logFactorial(n) {
  if (!Number.isInteger(n) || n < 0) throw new Error(`log factorial needs a non-negative integer, got ${n}`);
  return jStat.gammaln(n + 1);
}
export {
  chiSquareUpperTail,
  fUpperTail,
  logFactorial
};
//# sourceMappingURL=jstat.js.map
