import { DAY_MS, startOfUtcDay } from "../../kernel/day.js";
class MemoryLog {
  log = [];
  write(w) {
    const last = this.log.at(-1);
    if (last && w.at < last.at) throw new Error("internal: memory writes must come in time order");
    this.log.push(w);
  }
  /** memory after every write with `at < before` */
  stateBefore(before) {
    const s = { notes: {}, insights: "" };
    for (const w of this.log) {
      if (w.at >= before) break;
      if (w.kind === "insights") s.insights = w.text;
      else if (w.question !== void 0) {
        if (w.text === "") delete s.notes[w.question];
        else s.notes[w.question] = w.text;
      }
    }
    return s;
  }
  /** the snapshot that closed UTC day `dayStart` */
  snapshot(dayStart) {
    return this.stateBefore(startOfUtcDay(dayStart) + DAY_MS);
  }
  /** first write's day (null: never written) */
  firstDay() {
    const f = this.log[0];
    return f ? startOfUtcDay(f.at) : null;
  }
}
function newRunState() {
  return {
    forecasts: /* @__PURE__ */ new Map(),
    memory: new MemoryLog(),
    memoryPhaseSince: null,
    lastRecapDay: null,
    lastRecapAt: null
  };
}
function standingAt(entries, t) {
  if (!entries) return null;
  let out = null;
  for (const e of entries) {
    if (e.at >= t) break;
    out = e;
  }
  return out;
}
export {
  MemoryLog,
  newRunState,
  standingAt
};
//# sourceMappingURL=run-state.js.map
