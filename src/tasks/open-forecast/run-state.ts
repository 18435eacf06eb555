import { DAY_MS, startOfUtcDay } from "../../kernel/day.js";

/** One accepted forecast. */
export interface ForecastEntry {
  at: number;
  outcomes: Record<string, number>;
}

/** One memory write: a question's note (replaced) or the cross-question insights (replaced). */
export interface MemoryWrite {
  at: number;
  kind: "note" | "insights";
  question?: string;
  text: string;
}

export interface MemoryState {
  notes: Record<string, string>;
  insights: string;
}

/**
 * The memory store: an append-only log of writes. The working memory is the log replayed; the
 * snapshot of a past day is the log replayed up to that day's end (00:00 UTC of the next day,
 * exclusive). Writes carry the simulated time and time only moves forward, so a past day's
 * snapshot can never change: it is immutable by construction.
 */
export class MemoryLog {
  private readonly log: MemoryWrite[] = [];

  write(w: MemoryWrite): void {
    const last = this.log.at(-1);
    if (last && w.at < last.at) throw new Error("internal: memory writes must come in time order");
    this.log.push(w);
  }

  /** memory after every write with `at < before` */
  stateBefore(before: number): MemoryState {
    const s: MemoryState = { notes: {}, insights: "" };
    for (const w of this.log) {
      if (w.at >= before) break;
      if (w.kind === "insights") s.insights = w.text;
      else if (w.question !== undefined) {
        if (w.text === "") delete s.notes[w.question];
        else s.notes[w.question] = w.text;
      }
    }
    return s;
  }

  /** the snapshot that closed UTC day `dayStart` */
  snapshot(dayStart: number): MemoryState {
    return this.stateBefore(startOfUtcDay(dayStart) + DAY_MS);
  }

  /** first write's day (null: never written) */
  firstDay(): number | null {
    const f = this.log[0];
    return f ? startOfUtcDay(f.at) : null;
  }
}

/**
 * Per-run tool state of open-forecast, shared by the tools, the wake recap and the memory phase:
 * accepted forecasts, the memory log, the memory phase, the last recap. Rebuilt by re-running the
 * episode (DESIGN invariant 3), so nothing here is persisted.
 */
export interface OpenForecastRunState {
  forecasts: Map<string, ForecastEntry[]>;
  memory: MemoryLog;
  /** the instant the current memory phase opened, or null */
  memoryPhaseSince: number | null;
  /** UTC day (start) of the last wake recap, or null before the first */
  lastRecapDay: number | null;
  /** the instant of the last wake recap, or null before the first */
  lastRecapAt: number | null;
  /** `search: one-shot`: each question's single retrieval, made at its first `question_news` call */
  oneShot: Map<string, OneShotRetrieval>;
}

/** One question's one-shot retrieval (`question_news`). */
export interface OneShotRetrieval {
  query: string;
  as_of: string;
  results: { id: string; title: string; domain: string; published_at: string; snippet: string }[];
}

/** A fresh run state (created once per run by the task's `open`). */
export function newRunState(): OpenForecastRunState {
  return {
    forecasts: new Map(),
    memory: new MemoryLog(),
    memoryPhaseSince: null,
    lastRecapDay: null,
    lastRecapAt: null,
    oneShot: new Map(),
  };
}

/** The standing forecast of a question at `t` (the last accepted one strictly before t), or null. */
export function standingAt(entries: readonly ForecastEntry[] | undefined, t: number): ForecastEntry | null {
  if (!entries) return null;
  let out: ForecastEntry | null = null;
  for (const e of entries) {
    if (e.at >= t) break;
    out = e;
  }
  return out;
}
