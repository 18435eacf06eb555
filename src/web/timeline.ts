import { DAY_MS, HOUR_MS, MINUTE_MS } from "../common/time.js";
import { FileScanCache, type LineConsumer } from "./file-scan-cache.js";
import { type LinePeek, parseLine, peekCost, peekLineInto, peekString } from "./line-peek.js";

/** One time bin of a run's timeline. Counts are of events in [t, t + bin_ms); spend is cumulative at the bin's end. */
export interface TimelineBin {
  t: number;
  wakes: number;
  commitments: number;
  outcomes: number;
  tool_calls: number;
  llm_calls: number;
  /** sum of the credits of the bin's outcomes (null credits count 0) */
  credit: number;
  spend_usd: number;
  llm_usd: number;
}

export interface WakeItem {
  seq: number;
  t: number;
  reason: string;
  actor: string;
}
export interface CommitmentItem {
  seq: number;
  t: number;
  tool: string;
  actor: string;
}
export interface OutcomeItem {
  seq: number;
  t: number;
  key: string;
  status: string;
  credit: number | null;
}
export interface BriefItem {
  seq: number;
  t: number;
  day: number;
  spent_usd: number;
}

/**
 * A run's timeline, derived from its ledger by one streaming pass (extended as the ledger grows):
 * time bins with counts and cumulative spend, and the individual wakes, commitments and outcomes
 * while there are at most `items_cap` of a kind (beyond that only the bins describe them:
 * `items` is null).
 */
export interface TimelineData {
  run_id: string | null;
  sim_start: number | null;
  sim_end: number | null;
  /** complete ledger lines read */
  events: number;
  first_t: number | null;
  last_t: number | null;
  origin: number;
  bin_ms: number;
  bins: TimelineBin[];
  counts: Record<string, number>;
  wakes: { count: number; by_reason: Record<string, number>; items: WakeItem[] | null };
  commitments: { count: number; items: CommitmentItem[] | null };
  outcomes: {
    count: number;
    by_status: Record<string, number>;
    credit_sum: number;
    items: OutcomeItem[] | null;
  };
  spend: { total_usd: number; llm_usd: number };
  briefs: BriefItem[];
  items_cap: number;
  /** lines that are not valid JSON or lack seq/type/t */
  unreadable_lines: number;
}

const BIN_WIDTHS = [
  MINUTE_MS,
  5 * MINUTE_MS,
  15 * MINUTE_MS,
  HOUR_MS,
  3 * HOUR_MS,
  6 * HOUR_MS,
  12 * HOUR_MS,
  DAY_MS,
  2 * DAY_MS,
  7 * DAY_MS,
  30 * DAY_MS,
];
/** At most this many bins over the episode window. */
export const MAX_BINS = 1000;
/** Individual marks kept per kind (wakes, commitments, outcomes) before only bins remain. */
export const ITEMS_CAP = 2000;
const BRIEFS_CAP = 5000;

/** The smallest standard bin width that splits `span` into at most MAX_BINS bins. */
export function binWidthFor(span: number): number {
  for (const w of BIN_WIDTHS) if (span / w <= MAX_BINS) return w;
  return Math.ceil(span / MAX_BINS);
}

const REASON = Buffer.from('"reason":"');
const ACTOR = Buffer.from('"actor":"');

const str = (v: unknown, dflt: string) => (typeof v === "string" ? v : dflt);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);

class TimelineBuilder implements LineConsumer {
  runId: string | null = null;
  simStart: number | null = null;
  simEnd: number | null = null;
  origin: number | null = null;
  binMs = HOUR_MS;
  firstT: number | null = null;
  lastT: number | null = null;
  events = 0;
  unreadable = 0;
  readonly counts: Record<string, number> = {};
  // per-bin columns
  readonly wakes: number[] = [];
  readonly commits: number[] = [];
  readonly outs: number[] = [];
  readonly tools: number[] = [];
  readonly llms: number[] = [];
  readonly credit: number[] = [];
  readonly spendInc: number[] = [];
  readonly llmInc: number[] = [];
  wakeCount = 0;
  readonly byReason: Record<string, number> = {};
  wakeItems: WakeItem[] | null = [];
  commitCount = 0;
  commitItems: CommitmentItem[] | null = [];
  outCount = 0;
  readonly byStatus: Record<string, number> = {};
  creditSum = 0;
  outItems: OutcomeItem[] | null = [];
  spent = 0;
  llmSpent = 0;
  readonly briefs: BriefItem[] = [];
  private readonly peek: LinePeek = { seq: 0, type: "", t: 0 };

  private bin(t: number): number {
    if (this.origin === null) this.origin = t;
    // the window is [sim_start, sim_end): run_end (and anything settled) at sim_end goes in its last bin
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

  line(buf: Buffer, start: number, end: number, _offset: number, lineNo: number): void {
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
      const o = parseLine(buf, start, end) as Record<string, unknown> | null;
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
        if (type === "tool_call") this.tools[b]!++;
        else {
          this.llms[b]!++;
          this.llmInc[b]! += cost;
          this.llmSpent += cost;
        }
        this.spendInc[b]! += cost;
        this.spent += cost;
        break;
      }
      case "wake": {
        let reason = peekString(buf, start, end, REASON);
        let actor = peekString(buf, start, end, ACTOR);
        if (reason === null || actor === null) {
          const o = parseLine(buf, start, end) as Record<string, unknown> | null;
          reason = str(o?.reason, "?");
          actor = str(o?.actor, "?");
        }
        this.wakes[b]!++;
        this.wakeCount++;
        this.byReason[reason] = (this.byReason[reason] ?? 0) + 1;
        if (this.wakeItems !== null) {
          this.wakeItems.push({ seq: lineNo, t, reason, actor });
          if (this.wakeItems.length > ITEMS_CAP) this.wakeItems = null;
        }
        break;
      }
      case "commitment": {
        const o = parseLine(buf, start, end) as Record<string, unknown> | null;
        this.commits[b]!++;
        this.commitCount++;
        if (this.commitItems !== null) {
          this.commitItems.push({ seq: lineNo, t, tool: str(o?.tool, "?"), actor: str(o?.actor, "?") });
          if (this.commitItems.length > ITEMS_CAP) this.commitItems = null;
        }
        break;
      }
      case "outcome": {
        const o = parseLine(buf, start, end) as Record<string, unknown> | null;
        const status = str(o?.status, "?");
        const credit = num(o?.credit);
        this.outs[b]!++;
        this.credit[b]! += credit ?? 0;
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
        const o = parseLine(buf, start, end) as Record<string, unknown> | null;
        this.briefs.push({ seq: lineNo, t, day: num(o?.day) ?? 0, spent_usd: num(o?.spent_usd) ?? 0 });
        break;
      }
      default:
        break;
    }
  }

  snapshot(events: number): TimelineData {
    const origin = this.origin ?? 0;
    // bins cover the whole episode window even before the ledger reaches its end
    if (this.simEnd !== null && this.simEnd > origin) this.bin(this.simEnd - 1);
    const bins: TimelineBin[] = [];
    let spend = 0;
    let llm = 0;
    for (let i = 0; i < this.wakes.length; i++) {
      spend += this.spendInc[i]!;
      llm += this.llmInc[i]!;
      bins.push({
        t: origin + i * this.binMs,
        wakes: this.wakes[i]!,
        commitments: this.commits[i]!,
        outcomes: this.outs[i]!,
        tool_calls: this.tools[i]!,
        llm_calls: this.llms[i]!,
        credit: this.credit[i]!,
        spend_usd: spend,
        llm_usd: llm,
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
        items: this.outItems && [...this.outItems],
      },
      spend: { total_usd: this.spent, llm_usd: this.llmSpent },
      briefs: [...this.briefs],
      items_cap: ITEMS_CAP,
      unreadable_lines: this.unreadable,
    };
  }
}

/** Timelines of ledgers, kept in memory per file and extended as a ledger grows (never a whole-file load). */
export class TimelineCache {
  private readonly cache: FileScanCache<TimelineBuilder>;

  constructor(maxFiles = 8) {
    this.cache = new FileScanCache(() => new TimelineBuilder(), maxFiles);
  }

  get(ledgerPath: string): Promise<TimelineData> {
    return this.cache.with(ledgerPath, (b, extent) => b.snapshot(extent.lines));
  }

  clear(): void {
    this.cache.clear();
  }
}
