import { kendallW } from "./stats/kendall-w.js";
import { mean } from "./stats/summary.js";
function rankConsistency(experiments) {
  const judges = experiments.map((e) => ({ task: e.task, episode: e.episode, direction: e.primary.direction }));
  const modelMeans = experiments.map((e) => {
    const byModel = /* @__PURE__ */ new Map();
    for (const c of e.cells) if (c.mean !== null) byModel.set(c.model, [...byModel.get(c.model) ?? [], c.mean]);
    return new Map([...byModel].map(([m, xs]) => [m, mean(xs)]));
  });
  const allModels = [...new Set(modelMeans.flatMap((m) => [...m.keys()]))].sort();
  const models = allModels.filter((m) => modelMeans.every((mm) => mm.has(m)));
  const excluded = allModels.filter((m) => !models.includes(m));
  const means = modelMeans.map((mm) => models.map((m) => mm.get(m)));
  const empty = {
    judges,
    models,
    excluded_models: excluded,
    means,
    ranks: [],
    mean_ranks: [],
    w: null,
    chi2: null,
    df: Math.max(0, models.length - 1),
    p: null
  };
  if (experiments.length < 2) return { ...empty, note: "needs at least two task \xD7 episode experiments" };
  if (models.length < 2) return { ...empty, note: "needs at least two models present in every experiment" };
  const ratings = means.map((row, j) => judges[j].direction === "higher" ? row : row.map((v) => -v));
  const k = kendallW(ratings);
  return {
    ...empty,
    ranks: k.ranks,
    mean_ranks: k.rankSums.map((s) => s / experiments.length),
    w: k.w,
    chi2: k.chi2,
    df: k.df,
    p: k.p,
    note: k.w === null ? "every experiment ties every model: W is undefined" : null
  };
}
export {
  rankConsistency
};
//# sourceMappingURL=rank-consistency.js.map
