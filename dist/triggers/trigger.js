import { parseUtcInstant } from "../kernel/day.js";
class IntentSlot {
  current = null;
  set(intent) {
    this.current = intent;
  }
  take() {
    const i = this.current;
    this.current = null;
    return i;
  }
}
function agentWakeOf(w) {
  switch (w.reason) {
    case "end":
      return { at: w.at, reason: "end" };
    case "trigger":
      if (w.triggerId !== void 0 && isDeadlineGuardId(w.triggerId))
        return { at: w.at, reason: "deadline", triggerId: w.triggerId };
      return { at: w.at, reason: "trigger", ...w.triggerId !== void 0 ? { triggerId: w.triggerId } : {} };
    case "start":
    case "sleep":
    case "cron":
    case "fallback":
      return { at: w.at, reason: w.reason, ...w.triggerId !== void 0 ? { triggerId: w.triggerId } : {} };
    default:
      throw new Error(`unknown kernel wake reason "${w.reason}"`);
  }
}
const DEADLINE_GUARD_PREFIX = "deadline:";
const isDeadlineGuardId = (id) => id.startsWith(DEADLINE_GUARD_PREFIX);
const parseInstantArg = parseUtcInstant;
export {
  DEADLINE_GUARD_PREFIX,
  IntentSlot,
  agentWakeOf,
  isDeadlineGuardId,
  parseInstantArg
};
//# sourceMappingURL=trigger.js.map
