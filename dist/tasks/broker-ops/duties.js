import { bookEvents } from "./book-events.js";
const byDeadline = (a, b) => a.deadline - b.deadline || a.t - b.t || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
function dutiesOfEvents(events, p, from, to) {
  const out = [];
  for (const e of events) {
    if (e.t < from || e.t >= to) continue;
    if (e.kind === "fill")
      out.push({ kind: "stop", key: `stop:${e.id}`, t: e.t, deadline: e.t + p.stop_window_ms, fill: e });
    if (e.kind === "margin_call")
      out.push({
        kind: "funding",
        key: `funding:${e.p.call_id}`,
        t: e.t,
        deadline: e.t + p.funding_window_ms,
        call: e
      });
  }
  return out.sort(byDeadline);
}
function dutyRoster(world, p, simStart, simEnd) {
  const view = world.at(() => simEnd - 1);
  return dutiesOfEvents(bookEvents(view.broker.events({ since: simStart })), p, simStart, simEnd);
}
function visibleDuties(view, p, simStart, simEnd) {
  return dutiesOfEvents(bookEvents(view.broker.events({ since: simStart })), p, simStart, simEnd);
}
export {
  dutiesOfEvents,
  dutyRoster,
  visibleDuties
};
//# sourceMappingURL=duties.js.map
