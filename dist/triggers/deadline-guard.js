import { HOUR_MS, isoInstant, MINUTE_MS } from "../kernel/day.js";
import { DEADLINE_GUARD_PREFIX } from "./trigger.js";
const DEADLINE_GUARD_MARGIN_MS = HOUR_MS;
const DEADLINE_GUARD_POLL_MS = 15 * MINUTE_MS;
function installDeadlineGuard(o) {
  const margin = o.marginMs ?? DEADLINE_GUARD_MARGIN_MS;
  const seen = /* @__PURE__ */ new Set();
  const poll = () => {
    const now = o.kernel.now();
    for (const d of [...o.deadlines(now + margin + 2 * DEADLINE_GUARD_POLL_MS)].sort((a, b) => a - b)) {
      if (seen.has(d)) continue;
      seen.add(d);
      const at = d - margin;
      if (!(at > now) || at >= o.kernel.end) continue;
      o.kernel.addOnce(
        o.actorId,
        `${DEADLINE_GUARD_PREFIX}${isoInstant(d)}`,
        at,
        `deadline guard: ${isoInstant(d)} in ${margin / HOUR_MS} h`
      );
    }
  };
  const tick = (t) => {
    poll();
    const next = t + DEADLINE_GUARD_POLL_MS;
    if (next < o.kernel.end) o.kernel.at(next, tick);
  };
  o.kernel.onAdvance(() => poll());
  tick(o.kernel.now());
}
export {
  DEADLINE_GUARD_MARGIN_MS,
  DEADLINE_GUARD_POLL_MS,
  installDeadlineGuard
};
//# sourceMappingURL=deadline-guard.js.map
