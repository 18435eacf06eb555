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
function parseInstantArg(v) {
  if (typeof v === "number") return Number.isInteger(v) ? v : null;
  const s = v.trim();
  if (/^-?\d+$/.test(s)) return Number(s);
  let iso = s.replace(" ", "T");
  if (/^\d{4}-\d{2}-\d{2}$/.test(iso)) iso = `${iso}T00:00:00Z`;
  else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(iso)) iso = `${iso}Z`;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(iso)) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
}
export {
  DEADLINE_GUARD_PREFIX,
  IntentSlot,
  agentWakeOf,
  isDeadlineGuardId,
  parseInstantArg
};
//# sourceMappingURL=trigger.js.map
