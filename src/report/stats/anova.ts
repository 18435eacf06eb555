import { fUpperTail } from "./jstat.js";
import { leastSquaresRss } from "./least-squares.js";

export interface AnovaObservation {
  /** level of factor A (e.g. the model) */
  a: string;
  /** level of factor B (e.g. the trigger) */
  b: string;
  y: number;
}

export interface AnovaTerm {
  ss: number;
  df: number;
  /** ss / total ss; null when there is no variance */
  share: number | null;
  /** mean square ratio against the residual; Infinity when the residual is exactly 0 and ss > 0; null when undefined */
  f: number | null;
  /** P(F > f); null when f is undefined */
  p: number | null;
}

export interface TwoWayAnova {
  n: number;
  levels: { a: string[]; b: string[] };
  /** every a×b cell present with the same number of observations */
  balanced: boolean;
  /** every observation equal: no F is defined */
  noVariance: boolean;
  total: { ss: number; df: number };
  a: AnovaTerm;
  b: AnovaTerm;
  ab: AnovaTerm;
  residual: Omit<AnovaTerm, "f" | "p">;
}

/** Sums of squares below this share of the total are rounding noise and are reported as 0. */
const ZERO_SHARE = 1e-12;

/**
 * Two-way ANOVA with repetitions and Type II sums of squares, by model comparison:
 * SS(A | B) = RSS(1+B) − RSS(1+A+B), SS(B | A) = RSS(1+A) − RSS(1+A+B),
 * SS(AB | A, B) = RSS(1+A+B) − RSS(1+A+B+AB), residual = RSS(1+A+B+AB) (within-cell),
 * with treatment-coded dummies and degrees of freedom from the ranks of the fitted designs, so
 * unbalanced designs and empty cells are handled; in a balanced design this is the classical
 * decomposition (and then SS_A + SS_B + SS_AB + SS_residual = SS_total). F = MS_term / MS_residual,
 * p = P(F > f) from jStat.
 */
export function twoWayAnova(obs: readonly AnovaObservation[]): TwoWayAnova {
  const n = obs.length;
  if (n === 0) throw new Error("ANOVA of an empty sample");
  for (const o of obs) if (!Number.isFinite(o.y)) throw new Error(`ANOVA needs finite scores, got ${o.y}`);
  const la = [...new Set(obs.map((o) => o.a))].sort();
  const lb = [...new Set(obs.map((o) => o.b))].sort();
  const y = obs.map((o) => o.y);
  const ones = obs.map(() => 1);
  const dummies = (levels: string[], pick: (o: AnovaObservation) => string) =>
    levels.slice(1).map((l) => obs.map((o) => (pick(o) === l ? 1 : 0)));
  const A = dummies(la, (o) => o.a);
  const B = dummies(lb, (o) => o.b);
  const AB = A.flatMap((ca) => B.map((cb) => ca.map((v, i) => v * cb[i]!)));

  const fit0 = leastSquaresRss([ones], y);
  const fitA = leastSquaresRss([ones, ...A], y);
  const fitB = leastSquaresRss([ones, ...B], y);
  const fitAB = leastSquaresRss([ones, ...A, ...B], y);
  const fitFull = leastSquaresRss([ones, ...A, ...B, ...AB], y);

  const ssTotal = fit0.rss;
  const snap = (ss: number) => (ss <= ZERO_SHARE * ssTotal ? 0 : ss);
  const noVariance = y.every((v) => v === y[0]);
  const ssRes = noVariance ? 0 : snap(fitFull.rss);
  const dfRes = n - fitFull.rank;
  const term = (ssRaw: number, df: number): AnovaTerm => {
    const ss = noVariance ? 0 : snap(ssRaw);
    const share = noVariance ? null : ss / ssTotal;
    if (noVariance || df === 0 || dfRes === 0) return { ss, df, share, f: null, p: null };
    if (ssRes === 0)
      return ss > 0 ? { ss, df, share, f: Number.POSITIVE_INFINITY, p: 0 } : { ss, df, share, f: null, p: null };
    const f = ss / df / (ssRes / dfRes);
    return { ss, df, share, f, p: fUpperTail(f, df, dfRes) };
  };

  const counts = new Map<string, number>();
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
    residual: { ss: ssRes, df: dfRes, share: noVariance ? null : ssRes / ssTotal },
  };
}
