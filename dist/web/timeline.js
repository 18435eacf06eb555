import { FileScanCache } from "./file-scan-cache.js";
import { parseLine, peekCost, peekLineInto, peekString } from "./line-peek.js";
const MINUTE = 6e4;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const BIN_WIDTHS = [
  MINUTE,
  5 * MINUTE,
  15 * MINUTE,
  HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
  30 * DAY
];
const MAX_BINS = 1e3;
const ITEMS_CAP = 2e3;
const BRIEFS_CAP = 5e3;
function binWidthFor(span) {
  for (const w of BIN_WIDTHS) if (span / w <= MAX_BINS) return w;
  return Math.ceil(span / MAX_BINS);
}
const REASON = Buffer.from('"reason":"');
const ACTOR = Buffer.from('"actor":"');
const str = (v, dflt) => typeof v === "string" ? v : dflt;
const num = (v) => typeof v === "number" && Number.isFinite(v) ? v : null;
class TimelineBuilder {
  runId = null;
  simStart = null;
  simEnd = null;
  origin = null;
  binMs = HOUR;
  firstT = null;
  lastT = null;
  events = 0;
  unreadable = 0;
  counts = {};
  // per-bin columns
  wakes = [];
  commits = [];
  outs = [];
  tools = [];
  llms = [];
  credit = [];
  spendInc = [];
  llmInc = [];
  wakeCount = 0;
  byReason = {};
  wakeItems = [];
  commitCount = 0;
  commitItems = [];
  outCount = 0;
  byStatus = {};
  creditSum = 0;
  outItems = [];
  spent = 0;
  llmSpent = 0;
  briefs = [];
  peek = { seq: 0, type: "", t: 0 };
  bin(t) {
    if (this.origin === null) this.origin = t;
    if (t === this.simEnd) t--;
    const b = Math.max(0, Math.floor((t - this.origin) / this.binMs));
    while (this.wakes.length <= b) {
      this.wakes.push(0);
      this.commits.push(0);
      this.outs.push(0);
      this.tools.push(0);
      this.llms.push(0);
      this.credit.push(0);
      this.spendInc.push(0);
      this.llmInc.push(0);
    }
    return b;
  }
  line(buf, start, end, _offset, lineNo) {
    this.events++;
    const p = this.peek;
    if (!peekLineInto(buf, start, end, p)) {
      this.unreadable++;
      return;
    }
    const { type, t } = p;
    this.counts[type] = (this.counts[type] ?? 0) + 1;
    if (this.firstT === null) this.firstT = t;
    this.lastT = this.lastT === null ? t : Math.max(this.lastT, t);
    if (type === "run_start" && this.origin === null) {
      const o = parseLine(buf, start, end);
      const s = num(o?.sim_start);
      const e = num(o?.sim_end);
      this.runId = typeof o?.run_id === "string" ? o.run_id : null;
      if (s !== null && e !== null && e > s) {
        this.simStart = s;
        this.simEnd = e;
        this.origin = s;
        this.binMs = binWidthFor(e - s);
      }
    }
    const b = this.bin(t);
    switch (type) {
      case "tool_call":
      case "llm_call": {
        const cost = peekCost(buf, start, end);
        if (type === "tool_call") this.tools[b]++;
        else {
          this.llms[b]++;
          this.llmInc[b] += cost;
          this.llmSpent += cost;
        }
        this.spendInc[b] += cost;
        this.spent += cost;
        break;
      }
      case "wake": {
        let reason = peekString(buf, start, end, REASON);
        let actor = peekString(buf, start, end, ACTOR);
        if (reason === null || actor === null) {
          const o = parseLine(buf, start, end);
          reason = str(o?.reason, "?");
          actor = str(o?.actor, "?");
        }
        this.wakes[b]++;
        this.wakeCount++;
        this.byReason[reason] = (this.byReason[reason] ?? 0) + 1;
        if (this.wakeItems !== null) {
          this.wakeItems.push({ seq: lineNo, t, reason, actor });
          if (this.wakeItems.length > ITEMS_CAP) this.wakeItems = null;
        }
        break;
      }
      case "commitment": {
        const o = parseLine(buf, start, end);
        this.commits[b]++;
        this.commitCount++;
        if (this.commitItems !== null) {
          this.commitItems.push({ seq: lineNo, t, tool: str(o?.tool, "?"), actor: str(o?.actor, "?") });
          if (this.commitItems.length > ITEMS_CAP) this.commitItems = null;
        }
        break;
      }
      case "outcome": {
        const o = parseLine(buf, start, end);
        const status = str(o?.status, "?");
        const credit = num(o?.credit);
        this.outs[b]++;
        this.credit[b] += credit ?? 0;
        this.outCount++;
        this.creditSum += credit ?? 0;
        this.byStatus[status] = (this.byStatus[status] ?? 0) + 1;
        if (this.outItems !== null) {
          this.outItems.push({ seq: lineNo, t, key: str(o?.key, "?"), status, credit });
          if (this.outItems.length > ITEMS_CAP) this.outItems = null;
        }
        break;
      }
      case "daily_brief": {
        if (this.briefs.length >= BRIEFS_CAP) break;
        const o = parseLine(buf, start, end);
        this.briefs.push({ seq: lineNo, t, day: num(o?.day) ?? 0, spent_usd: num(o?.spent_usd) ?? 0 });
        break;
      }
      default:
        break;
    }
  }
  snapshot(events) {
    const origin = this.origin ?? 0;
    if (this.simEnd !== null && this.simEnd > origin) this.bin(this.simEnd - 1);
    const bins = [];
    let spend = 0;
    let llm = 0;
    for (let i = 0; i < this.wakes.length; i++) {
      spend += this.spendInc[i];
      llm += this.llmInc[i];
      bins.push({
        t: origin + i * this.binMs,
        wakes: this.wakes[i],
        commitments: this.commits[i],
        outcomes: this.outs[i],
        tool_calls: this.tools[i],
        llm_calls: this.llms[i],
        credit: this.credit[i],
        spend_usd: spend,
        llm_usd: llm
      });
    }
    return {
      run_id: this.runId,
      sim_start: this.simStart,
      sim_end: this.simEnd,
      events,
      first_t: this.firstT,
      last_t: this.lastT,
      origin,
      bin_ms: this.binMs,
      bins,
      counts: { ...this.counts },
      wakes: { count: this.wakeCount, by_reason: { ...this.byReason }, items: this.wakeItems && [...this.wakeItems] },
      commitments: { count: this.commitCount, items: this.commitItems && [...this.commitItems] },
      outcomes: {
        count: this.outCount,
        by_status: { ...this.byStatus },
        credit_sum: this.creditSum,
        items: this.outItems && [...this.outItems]
      },
      spend: { total_usd: this.spent, llm_usd: this.llmSpent },
      briefs: [...this.briefs],
      items_cap: ITEMS_CAP,
      unreadable_lines: this.unreadable
    };
  }
}
class TimelineCache {
  cache;
  constructor(maxFiles = 8) {
    this.cache = new FileScanCache(() => new TimelineBuilder(), maxFiles);
  }
  get(ledgerPath) {
    return this.cache.with(ledgerPath, (b, extent) => b.snapshot(extent.lines));
  }
  clear() {
    this.cache.clear();
  }
}
export {
  ITEMS_CAP,
  MAX_BINS,
  TimelineCache,
  binWidthFor
};
//# sourceMappingURL=timeline.js.map
