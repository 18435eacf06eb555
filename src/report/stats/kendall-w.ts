import { chiSquareUpperTail } from "./jstat.js";

/** Ranks with ties averaged; rank 1 = the highest rating. */
export function averageRanksDescending(ratings: readonly number[]): number[] {
  const order = ratings.map((v, i) => ({ v, i })).sort((x, y) => y.v - x.v);
  const ranks = new Array<number>(ratings.length);
  for (let s = 0; s < order.length; ) {
    let e = s;
    while (e + 1 < order.length && order[e + 1]!.v === order[s]!.v) e++;
    const avg = (s + 1 + (e + 1)) / 2;
    for (let j = s; j <= e; j++) ranks[order[j]!.i] = avg;
    s = e + 1;
  }
  return ranks;
}

export interface KendallW {
  /** judges × objects, rank 1 = best */
  ranks: number[][];
  rankSums: number[];
  /** null when undefined (every judge ties every object) */
  w: number | null;
  /** Friedman-type chi-square m (n − 1) W with n − 1 df, and its upper-tail p (large-sample approximation) */
  chi2: number | null;
  df: number;
  p: number | null;
}

/**
 * Kendall's coefficient of concordance W with the tie correction:
 * W = 12 S / (m² (n³ − n) − m Σ_j T_j), S = Σ_i (R_i − R̄)², T_j = Σ (t³ − t) over the tie
 * groups of judge j; `ratings` is judges × objects with higher = better.
 */
export function kendallW(ratings: readonly (readonly number[])[]): KendallW {
  const m = ratings.length;
  const n = ratings[0]?.length ?? 0;
  if (m < 2 || n < 2) throw new Error(`Kendall's W needs at least 2 judges and 2 objects, got ${m} × ${n}`);
  for (const row of ratings) {
    if (row.length !== n) throw new Error("Kendall's W needs every judge to rate every object");
    for (const v of row) if (!Number.isFinite(v)) throw new Error(`Kendall's W needs finite ratings, got ${v}`);
  }
  const ranks = ratings.map(averageRanksDescending);
  const rankSums = Array.from({ length: n }, (_, i) => ranks.reduce((s, r) => s + r[i]!, 0));
  const meanSum = (m * (n + 1)) / 2;
  const S = rankSums.reduce((s, r) => s + (r - meanSum) ** 2, 0);
  let T = 0;
  for (const row of ratings) {
    const groups = new Map<number, number>();
    for (const v of row) groups.set(v, (groups.get(v) ?? 0) + 1);
    for (const t of groups.values()) T += t ** 3 - t;
  }
  const denom = m * m * (n ** 3 - n) - m * T;
  const df = n - 1;
  if (denom <= 0) return { ranks, rankSums, w: null, chi2: null, df, p: null };
  const w = (12 * S) / denom;
  const chi2 = m * (n - 1) * w;
  return { ranks, rankSums, w, chi2, df, p: chiSquareUpperTail(chi2, df) };
}
