import { chiSquareUpperTail } from "./jstat.js";
function averageRanksDescending(ratings) {
  const order = ratings.map((v, i) => ({ v, i })).sort((x, y) => y.v - x.v);
  const ranks = new Array(ratings.length);
  for (let s = 0; s < order.length; ) {
    let e = s;
    while (e + 1 < order.length && order[e + 1].v === order[s].v) e++;
    const avg = (s + 1 + (e + 1)) / 2;
    for (let j = s; j <= e; j++) ranks[order[j].i] = avg;
    s = e + 1;
  }
  return ranks;
}
function kendallW(ratings) {
  const m = ratings.length;
  const n = ratings[0]?.length ?? 0;
  if (m < 2 || n < 2) throw new Error(`Kendall's W needs at least 2 judges and 2 objects, got ${m} \xD7 ${n}`);
  for (const row of ratings) {
    if (row.length !== n) throw new Error("Kendall's W needs every judge to rate every object");
    for (const v of row) if (!Number.isFinite(v)) throw new Error(`Kendall's W needs finite ratings, got ${v}`);
  }
  const ranks = ratings.map(averageRanksDescending);
  const rankSums = Array.from({ length: n }, (_, i) => ranks.reduce((s, r) => s + r[i], 0));
  const meanSum = m * (n + 1) / 2;
  const S = rankSums.reduce((s, r) => s + (r - meanSum) ** 2, 0);
  let T = 0;
  for (const row of ratings) {
    const groups = /* @__PURE__ */ new Map();
    for (const v of row) groups.set(v, (groups.get(v) ?? 0) + 1);
    for (const t of groups.values()) T += t ** 3 - t;
  }
  const denom = m * m * (n ** 3 - n) - m * T;
  const df = n - 1;
  if (denom <= 0) return { ranks, rankSums, w: null, chi2: null, df, p: null };
  const w = 12 * S / denom;
  const chi2 = m * (n - 1) * w;
  return { ranks, rankSums, w, chi2, df, p: chiSquareUpperTail(chi2, df) };
}
export {
  averageRanksDescending,
  kendallW
};
//# sourceMappingURL=kendall-w.js.map
