const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
const DASH = "\u2014";
const x100 = (v) => v === null || v === void 0 ? DASH : (v * 100).toFixed(1);
const usd = (v) => v === null || v === void 0 ? DASH : v === 0 ? "$0" : Math.abs(v) < 0.01 ? `$${v.toFixed(4)}` : `$${v.toFixed(2)}`;
const pct = (v) => v === null || v === void 0 ? DASH : `${(v * 100).toFixed(1)}%`;
const num = (v, digits = 2) => v === null || v === void 0 ? DASH : Number.isInteger(v) ? String(v) : v.toFixed(digits);
const ss = (v) => v === 0 ? "0" : Number(v.toPrecision(6)).toString();
const pValue = (p) => p === null || p === void 0 ? DASH : p === 0 ? "0" : p < 1e-4 ? p.toExponential(1) : p.toFixed(4);
const fStat = (f) => f === null ? DASH : f === "inf" ? "\u221E" : Number(f.toPrecision(4)).toString();
const interval = (ci) => ci ? `[${x100(ci.lo)}, ${x100(ci.hi)}]` : DASH;
export {
  esc,
  fStat,
  interval,
  num,
  pValue,
  pct,
  ss,
  usd,
  x100
};
//# sourceMappingURL=format.js.map
