function precisionOf(numerator, denominator) {
  return denominator === 0 ? 0 : numerator / denominator;
}
function recallOf(numerator, denominator) {
  return denominator === 0 ? null : numerator / denominator;
}
function f1Of(precision, recall) {
  if (recall === null) return null;
  if (precision + recall === 0) return 0;
  if (precision === recall) return precision;
  return 2 * precision * recall / (precision + recall);
}
function quantileOf(xs, q) {
  if (xs.length === 0) return null;
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile must be in [0, 1], got ${q}`);
  const s = [...xs].sort((a, b) => a - b);
  const h = (s.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return s[lo] + (h - lo) * (s[hi] - s[lo]);
}
function sumOf(xs) {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}
export {
  f1Of,
  precisionOf,
  quantileOf,
  recallOf,
  sumOf
};
//# sourceMappingURL=score-math.js.map
