import { createRequire } from "node:module";
const require2 = createRequire(import.meta.url);
const jStat = require2("jstat");
const normalCdf = (x) => jStat.normal.cdf(x, 0, 1);
function chiSquarePValue(x, df) {
  if (!(x > 0)) return 1;
  return 1 - jStat.chisquare.cdf(x, df);
}
function quantile7(xs, p) {
  if (xs.length === 0) throw new RangeError("quantile of an empty sample");
  const s = [...xs].sort((a, b) => a - b);
  const h = (s.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, s.length - 1);
  return s[lo] + (h - lo) * (s[hi] - s[lo]);
}
const xlogy = (x, y) => x === 0 ? 0 : x * Math.log(y);
function kupiecPof(x, n, p) {
  if (!(n > 0) || x < 0 || x > n) throw new RangeError(`Kupiec test needs 0 \u2264 x \u2264 n, n > 0 (got x=${x}, n=${n})`);
  const pi = x / n;
  const lr = -2 * (xlogy(n - x, 1 - p) + xlogy(x, p)) + 2 * (xlogy(n - x, 1 - pi) + xlogy(x, pi));
  const stat = Math.max(0, lr);
  return { lr: stat, p_value: chiSquarePValue(stat, 1) };
}
export {
  chiSquarePValue,
  kupiecPof,
  normalCdf,
  quantile7
};
//# sourceMappingURL=stats.js.map
