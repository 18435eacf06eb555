/** One accepted forecast. */
export interface ForecastEntry {
  at: number;
  outcomes: Record<string, number>;
}

/**
 * Per-run tool state of open-forecast, shared by the tools, the wake recap and the memory phase:
 * accepted forecasts, the memory phase, the last recap (the memory itself is the harness's: src/learning). Rebuilt by re-running the
 * episode (DESIGN invariant 3), so nothing here is persisted.
 */
export interface OpenForecastRunState {
  forecasts: Map<string, ForecastEntry[]>;
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
