import { DAY_MS } from "../kernel/day.js";
function dayEnds(r) {
  const ends = [];
  for (let end = r.sim_start + DAY_MS; end <= r.sim_end; end += DAY_MS) ends.push(end);
  return ends;
}
function dailyReportsByReplay(r, events, world, truth) {
  const inputs = events.filter((e) => e.type !== "outcome");
  return dayEnds(r).map((end) => {
    const scorer = r.task.createScorer({ sim_start: r.sim_start, sim_end: end, world, truth, params: r.params });
    for (const e of inputs) {
      if (e.t >= end) break;
      scorer.settle(e.t);
      scorer.onEvent(e);
    }
    scorer.settle(end);
    return scorer.report();
  });
}
function dailyReportsOnePass(r, events, world, truth) {
  const ctx = { sim_start: r.sim_start, sim_end: r.sim_end, world, truth, params: r.params };
  const scorer = r.task.createScorer(ctx);
  if (!scorer.reportAt) return null;
  const reports = [];
  let i = 0;
  for (const end of dayEnds(r)) {
    for (; i < events.length; i++) {
      const e = events[i];
      if (e.t >= end) break;
      if (e.type === "outcome") continue;
      scorer.settle(e.t);
      scorer.onEvent(e);
    }
    scorer.settle(end);
    reports.push(scorer.reportAt(end));
  }
  return reports;
}
function anytimeCurve(r, events, world, truth) {
  const reports = dailyReportsOnePass(r, events, world, truth) ?? dailyReportsByReplay(r, events, world, truth);
  return reports.map((rep, k) => ({
    day: k + 1,
    t: new Date(r.sim_start + (k + 1) * DAY_MS).toISOString(),
    primary: rep.primary.value
  }));
}
export {
  anytimeCurve,
  dailyReportsByReplay,
  dailyReportsOnePass
};
//# sourceMappingURL=anytime.js.map
