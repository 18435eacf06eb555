import { bookEvents } from "./book-events.js";
const byDeadline = (a, b) => a.deadline - b.deadline || a.t - b.t || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
function dutyRoster(world, p, simStart, simEnd) {
  const view = world.at(() => simEnd - 1);
  const out = [];
  for (const e of bookEvents(view.broker.events({ since: simStart }))) {
    if (e.t < simStart || e.t >= simEnd) continue;
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
export {
  dutyRoster
};
//# sourceMappingURL=duties.js.map
