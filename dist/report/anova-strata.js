import { displayAxisValue } from "./config-axes.js";
import { twoWayAnova } from "./stats/anova.js";
const fOut = (f) => f === Number.POSITIVE_INFINITY ? "inf" : f;
const term = (source, t) => ({
  source,
  ss: t.ss,
  df: t.df,
  share: t.share,
  f: fOut(t.f),
  p: t.p
});
function anovaStrata(facts) {
  const strata = /* @__PURE__ */ new Map();
  for (const f of facts) {
    if (f.primary === null) continue;
    const k = JSON.stringify(f.placed.axes);
    strata.set(k, [...strata.get(k) ?? [], f]);
  }
  const out = [];
  for (const [k, runs] of strata) {
    if (runs.length < 2) continue;
    const a = twoWayAnova(runs.map((f) => ({ a: f.placed.model, b: f.placed.trigger, y: f.primary })));
    const notes = [];
    if (a.noVariance) notes.push("no variance: every score is equal, so no share or F is defined");
    else {
      if (a.residual.df === 0) notes.push("one seed per cell: no residual degrees of freedom, so F is undefined");
      else if (a.residual.ss === 0)
        notes.push("every cell's seeds score the same: residual SS is 0, F is infinite for terms with SS > 0");
      if (!a.balanced)
        notes.push(
          "unbalanced design (cells differ in size or are empty): Type II sums of squares need not add up to the total"
        );
    }
    if (a.levels.a.length < 2) notes.push("a single model: the model term has 0 df");
    if (a.levels.b.length < 2) notes.push("a single trigger: the trigger term has 0 df");
    out.push({
      stratum: Object.fromEntries(
        Object.entries(JSON.parse(k)).map(([p, v]) => [p, displayAxisValue(v)])
      ),
      n: a.n,
      models: a.levels.a,
      triggers: a.levels.b,
      balanced: a.balanced,
      no_variance: a.noVariance,
      total_ss: a.total.ss,
      total_df: a.total.df,
      terms: [
        term("model", a.a),
        term("trigger", a.b),
        term("model\xD7trigger", a.ab),
        { source: "residual (seed)", ss: a.residual.ss, df: a.residual.df, share: a.residual.share, f: null, p: null }
      ],
      notes
    });
  }
  return out.sort((x, y) => JSON.stringify(x.stratum) < JSON.stringify(y.stratum) ? -1 : 1);
}
export {
  anovaStrata
};
//# sourceMappingURL=anova-strata.js.map
