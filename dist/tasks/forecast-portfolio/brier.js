import { integrateSteps } from "../metrics.js";
function brierSkill(f, truth) {
  let sum = 0;
  for (const [o, p] of Object.entries(f)) {
    const d = p - (o === truth ? 1 : 0);
    sum += d * d;
  }
  if (!Object.hasOwn(f, truth)) sum += 1;
  return 1 - sum;
}
function uniformForecast(outcomes) {
  return Object.fromEntries(outcomes.map((o) => [o, 1 / outcomes.length]));
}
function standingSegments(start, end, initial, changes) {
  if (!(end > start)) throw new RangeError(`empty interval [${start}, ${end})`);
  const out = [];
  let cur = initial;
  let isDefault = true;
  let from = start;
  for (const c of changes) {
    if (c.t >= end) break;
    if (c.t > from) {
      out.push({ from, to: c.t, forecast: cur, default: isDefault });
      from = c.t;
    }
    cur = c.forecast;
    isDefault = false;
  }
  out.push({ from, to: end, forecast: cur, default: isDefault });
  return out;
}
function bssSteps(segments, truth) {
  return segments.map((s) => ({ from: s.from, to: s.to, value: brierSkill(s.forecast, truth) }));
}
function timeAverage(segments, truth) {
  const first = segments[0];
  const last = segments.at(-1);
  if (!first || !last) throw new RangeError("no segments");
  return integrateSteps(bssSteps(segments, truth)).integral / (last.to - first.from);
}
function referenceBrier(baseRate) {
  return 2 * baseRate * (1 - baseRate);
}
export {
  brierSkill,
  bssSteps,
  referenceBrier,
  standingSegments,
  timeAverage,
  uniformForecast
};
//# sourceMappingURL=brier.js.map
