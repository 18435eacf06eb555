function mean(xs) {
  if (xs.length === 0) return null;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}
function sampleSd(xs) {
  if (xs.length < 2) return null;
  const m = mean(xs);
  let ss = 0;
  for (const x of xs) ss += (x - m) ** 2;
  return Math.sqrt(ss / (xs.length - 1));
}
function quantileSorted(sorted, p) {
  const n = sorted.length;
  if (n === 0) throw new Error("quantile of an empty sample");
  if (!(p >= 0 && p <= 1)) throw new Error(`quantile probability must be in [0, 1], got ${p}`);
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}
export {
  mean,
  quantileSorted,
  sampleSd
};
//# sourceMappingURL=summary.js.map
