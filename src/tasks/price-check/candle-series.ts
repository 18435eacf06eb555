import type Database from "better-sqlite3";

/** One OHLCV bar (the agent-independent core of a CandleRow). */
export interface Bar {
  open_time: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

/** A candle series a world carries. */
export interface CandleKey {
  venue: string;
  symbol: string;
  interval_ms: number;
}

/** A candle series and the instant its first candle becomes visible. */
export interface SeriesVisibility extends CandleKey {
  visible_at: number;
}

/**
 * Aggregates ascending bars of `baseMs` into bars of `targetMs` (a multiple of baseMs), aligned to
 * epoch multiples of targetMs: o = first, h = max, l = min, c = last, v = sum. Only complete
 * buckets (all targetMs / baseMs sub-bars present) are returned. targetMs = baseMs returns the input.
 */
export function aggregateBars(bars: readonly Bar[], baseMs: number, targetMs: number): Bar[] {
  if (targetMs === baseMs) return [...bars];
  if (targetMs % baseMs !== 0) throw new RangeError(`interval ${targetMs} is not a multiple of ${baseMs}`);
  const n = targetMs / baseMs;
  const out: Bar[] = [];
  let cur: Bar | null = null;
  let count = 0;
  for (const b of bars) {
    const bucket = Math.floor(b.open_time / targetMs) * targetMs;
    if (cur && cur.open_time !== bucket) {
      if (count === n) out.push(cur);
      cur = null;
    }
    if (!cur) {
      cur = { open_time: bucket, o: b.o, h: b.h, l: b.l, c: b.c, v: b.v };
      count = 1;
    } else {
      cur.h = Math.max(cur.h, b.h);
      cur.l = Math.min(cur.l, b.l);
      cur.c = b.c;
      cur.v += b.v;
      count++;
    }
  }
  if (cur && count === n) out.push(cur);
  return out;
}

/**
 * Environment/scorer-side reader of the world's untouched `candle` table (never handed to the
 * agent). All lookups are by (venue, symbol, interval_ms) on the table's unique index.
 */
export class WorldCandles {
  private readonly latestStmt: Database.Statement<[string, string, number, number, number], Bar>;
  private readonly visibleThroughStmt: Database.Statement<
    [string, string, number, number, number],
    { v: number | null }
  >;

  constructor(private readonly db: Database.Database) {
    this.latestStmt = db.prepare(
      "SELECT open_time, o, h, l, c, v FROM candle WHERE venue = ? AND symbol = ? AND interval_ms = ? AND open_time <= ? ORDER BY open_time DESC LIMIT ?",
    );
    this.visibleThroughStmt = db.prepare(
      "SELECT MAX(visible_at) AS v FROM candle WHERE venue = ? AND symbol = ? AND interval_ms = ? AND open_time >= ? AND open_time < ?",
    );
  }

  /**
   * The distinct series of the world with the instant each first becomes visible (its earliest
   * candle's visible_at), sorted: an as-of setup keeps the series with visible_at ≤ t.
   */
  series(): SeriesVisibility[] {
    return this.db
      .prepare(
        "SELECT venue, symbol, interval_ms, MIN(visible_at) AS visible_at FROM candle GROUP BY venue, symbol, interval_ms ORDER BY venue, symbol, interval_ms",
      )
      .all() as SeriesVisibility[];
  }

  /** the distinct series of the world, sorted */
  keys(): CandleKey[] {
    return this.db
      .prepare("SELECT DISTINCT venue, symbol, interval_ms FROM candle ORDER BY venue, symbol, interval_ms")
      .all() as CandleKey[];
  }

  /** the latest visible_at of a series' candles with open_time in [from, to) (null: none) */
  visibleThrough(venue: string, symbol: string, intervalMs: number, from: number, to: number): number | null {
    return this.visibleThroughStmt.get(venue, symbol, intervalMs, from, to)?.v ?? null;
  }

  /** up to `limit` bars with open_time ≤ maxOpen, ascending */
  latest(venue: string, symbol: string, intervalMs: number, maxOpen: number, limit: number): Bar[] {
    return this.latestStmt.all(venue, symbol, intervalMs, maxOpen, limit).reverse();
  }
}
