import { DAY_MS } from "../kernel/day.js";
function anytimeCurve(r, events, world, truth) {
  const points = [];
  const inputs = events.filter((e) => e.type !== "outcome");
  for (let end = r.sim_start + DAY_MS, day = 1; end <= r.sim_end; end += DAY_MS, day++) {
    const scorer = r.task.createScorer({ sim_start: r.sim_start, sim_end: end, world, truth, params: r.params });
    for (const e of inputs) {
      if (e.t >= end) break;
      scorer.settle(e.t);
      scorer.onEvent(e);
    }
    scorer.settle(end);
    points.push({ day, t: new Date(end).toISOString(), primary: scorer.report().primary.value });
  }
  return points;
}
export {
  anytimeCurve
};
//# sourceMappingURL=anytime.js.map
