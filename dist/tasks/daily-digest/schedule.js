import { DAY_MS, HOUR_MS, isoDay, MINUTE_MS, startOfUtcDay } from "../../kernel/day.js";
function digestDayOf(t, p) {
  const opens = startOfUtcDay(t) + p.window_open_minute_utc * MINUTE_MS;
  return {
    key: `day:${isoDay(opens)}`,
    opens,
    closes: opens + p.window_minutes * MINUTE_MS,
    candidatesFrom: opens - p.candidate_hours * HOUR_MS,
    settles: opens + p.settle_hours * HOUR_MS
  };
}
function openWindowAt(t, p) {
  const d = digestDayOf(t, p);
  return t >= d.opens && t < d.closes ? d : null;
}
function nextWindowAfter(t, p) {
  const d = digestDayOf(t, p);
  return d.opens > t ? d : digestDayOf(d.opens + DAY_MS, p);
}
function daysOpeningIn(from, to, p) {
  const out = [];
  let d = digestDayOf(from, p);
  if (d.opens < from) d = digestDayOf(d.opens + DAY_MS, p);
  while (d.opens < to) {
    out.push(d);
    d = digestDayOf(d.opens + DAY_MS, p);
  }
  return out;
}
function digestDeadlines(from, to, p) {
  const out = [];
  let d = digestDayOf(from - DAY_MS, p);
  while (d.closes < to) {
    if (d.closes >= from) out.push(d.closes);
    d = digestDayOf(d.opens + DAY_MS, p);
  }
  return out;
}
export {
  daysOpeningIn,
  digestDayOf,
  digestDeadlines,
  nextWindowAfter,
  openWindowAt
};
//# sourceMappingURL=schedule.js.map
