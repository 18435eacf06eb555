import { fUpperTail } from "./jstat.js";
import { leastSquaresRss } from "./least-squares.js";
const ZERO_SHARE = 1e-12;
function twoWayAnova(obs) {
  const n = obs.length;
  if (n === 0) throw new Error("ANOVA of an empty sample");
  for (const o of obs) if (!Number.isFinite(o.y)) throw new Error(`ANOVA needs finite scores, got ${o.y}`);
  const la = [...new Set(obs.map((o) => o.a))].sort();
  const lb = [...new Set(obs.map((o) => o.b))].sort();
  const y = obs.map((o) => o.y);
  const ones = obs.map(() => 1);
  const dummies = (levels, pick) => levels.slice(1).map((l) => obs.map((o) => pick(o) === l ? 1 : 0));
  const A = dummies(la, (o) => o.a);
  const B = dummies(lb, (o) => o.b);
  const AB = A.flatMap((ca) => B.map((cb) => ca.map((v, i) => v * cb[i])));
  const fit0 = leastSquaresRss([ones], y);
  const fitA = leastSquaresRss([ones, ...A], y);
  const fitB = leastSquaresRss([ones, ...B], y);
  const fitAB = leastSquaresRss([ones, ...A, ...B], y);
  const fitFull = leastSquaresRss([ones, ...A, ...B, ...AB], y);
  const ssTotal = fit0.rss;
  const snap = (ss) => ss <= ZERO_SHARE * ssTotal ? 0 : ss;
  const noVariance = y.every((v) => v === y[0]);
  const ssRes = noVariance ? 0 : snap(fitFull.rss);
  const dfRes = n - fitFull.rank;
  const term = (ssRaw, df) => {
    const ss = noVariance ? 0 : snap(ssRaw);
    const share = noVariance ? null : ss / ssTotal;
    if (noVariance || df === 0 || dfRes === 0) return { ss, df, share, f: null, p: null };
    if (ssRes === 0)
      return ss > 0 ? { ss, df, share, f: Number.POSITIVE_INFINITY, p: 0 } : { ss, df, share, f: null, p: null };
    const f = ss / df / (ssRes / dfRes);
    return { ss, df, share, f, p: fUpperTail(f, df, dfRes) };
  };
  const counts = /* @__PURE__ */ new Map();
  for (const o of obs) counts.set(JSON.stringify([o.a, o.b]), (counts.get(JSON.stringify([o.a, o.b])) ?? 0) + 1);
  const sizes = [...counts.values()];
  return {
    n,
    levels: { a: la, b: lb },
    balanced: counts.size === la.length * lb.length && sizes.every((s) => s === sizes[0]),
    noVariance,
    total: { ss: noVariance ? 0 : ssTotal, df: n - 1 },
    a: term(fitB.rss - fitAB.rss, fitAB.rank - fitB.rank),
    b: term(fitA.rss - fitAB.rss, fitAB.rank - fitA.rank),
    ab: term(fitAB.rss - fitFull.rss, fitFull.rank - fitAB.rank),
    residual: { ss: ssRes, df: dfRes, share: noVariance ? null : ssRes / ssTotal }
  };
}
export {
  twoWayAnova
};
//# sourceMappingURL=anova.js.map
