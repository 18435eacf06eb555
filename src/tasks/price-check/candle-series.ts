import type Database from "better-sqlite3";
import { upperBound } from "../../common/sorted-search.js";

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

/** a bar with the instant it becomes visible (what the chunk cache keeps) */
interface VisibleBar extends Bar {
  visible_at: number;
}

/** bars are cached in chunks of this much open_time, aligned to epoch multiples */
const CHUNK_MS = 24 * 60 * 60_000;
/** at most this many chunks are kept per database (least recently used dropped first) */
const MAX_CHUNKS = 64;

type ChunkStmt = Database.Statement<[string, string, number, number, number], VisibleBar>;

/**
 * The chunk cache of one database, shared by every WorldCandles over it (a run's scorer, the
 * anytime curve's scorers, the oracle): a series' bars with open_time in one aligned day, ascending
 * (never handed out: `latest` returns copies). The truth lookups of consecutive hours hit the same
 * day, so each day is read once.
 */
class ChunkCache {
  private readonly chunks = new Map<string, readonly Readonly<VisibleBar>[]>();
  private readonly stmt: ChunkStmt;

  constructor(db: Database.Database) {
    this.stmt = db.prepare(
      "SELECT open_time, o, h, l, c, v, visible_at FROM candle WHERE venue = ? AND symbol = ? AND interval_ms = ? AND open_time >= ? AND open_time < ? ORDER BY open_time",
    );
  }

  /** the bars of the series with open_time in [start, start + CHUNK_MS), `start` a multiple of CHUNK_MS */
  get(venue: string, symbol: string, intervalMs: number, start: number): readonly Readonly<VisibleBar>[] {
    const k = `${venue}\u0000${symbol}\u0000${intervalMs}\u0000${start}`;
    let rows = this.chunks.get(k);
    if (rows) {
      this.chunks.delete(k);
    } else {
      rows = this.stmt.all(venue, symbol, intervalMs, start, start + CHUNK_MS);
      if (this.chunks.size >= MAX_CHUNKS) this.chunks.delete(this.chunks.keys().next().value!);
    }
    this.chunks.set(k, rows);
    return rows;
  }
}

const chunkCaches = new WeakMap<Database.Database, ChunkCache>();

const chunkStart = (t: number) => Math.floor(t / CHUNK_MS) * CHUNK_MS;

/** the index of the last bar with open_time ≤ t in ascending bars (-1: none) */
const lastAtOrBefore = (rows: readonly Readonly<Bar>[], t: number) => upperBound(rows, t, openTime) - 1;
const openTime = (b: Readonly<Bar>) => b.open_time;

/**
 * Environment/scorer-side reader of the world's untouched `candle` table (never handed to the
 * agent). All lookups are by (venue, symbol, interval_ms) on the table's unique index; `latest` and
 * `visibleThrough` answer from the database's day-chunk cache when the bars they need lie in one
 * day (the same rows, the same order as the statements below, which serve the rest).
 */
export class WorldCandles {
  private readonly latestStmt: Database.Statement<[string, string, number, number, number], Bar>;
  private readonly visibleThroughStmt: Database.Statement<
    [string, string, number, number, number],
    { v: number | null }
  >;
  private readonly cache: ChunkCache;

  constructor(private readonly db: Database.Database) {
    this.latestStmt = db.prepare(
      "SELECT open_time, o, h, l, c, v FROM candle WHERE venue = ? AND symbol = ? AND interval_ms = ? AND open_time <= ? ORDER BY open_time DESC LIMIT ?",
    );
    this.visibleThroughStmt = db.prepare(
      "SELECT MAX(visible_at) AS v FROM candle WHERE venue = ? AND symbol = ? AND interval_ms = ? AND open_time >= ? AND open_time < ?",
    );
    let cache = chunkCaches.get(db);
    if (!cache) {
      cache = new ChunkCache(db);
      chunkCaches.set(db, cache);
    }
    this.cache = cache;
  }

  /**
   * The distinct series of the world with the instant each first becomes visible (its earliest
   * candle's visible_at), sorted: an as-of setup keeps the series with visible_at ≤ t. Read from
   * the derived `candle_series` table (world/schema.ts: one row per series, visible_at = the
   * min over its candles) instead of grouping every candle (~7 ms per run on a 3-day world).
   */
  series(): SeriesVisibility[] {
    return this.db
      .prepare("SELECT venue, symbol, interval_ms, visible_at FROM candle_series ORDER BY venue, symbol, interval_ms")
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
    const start = chunkStart(from);
    if (to <= from || to > start + CHUNK_MS)
      return this.visibleThroughStmt.get(venue, symbol, intervalMs, from, to)?.v ?? null;
    let v: number | null = null;
    for (const b of this.cache.get(venue, symbol, intervalMs, start)) {
      if (b.open_time < from) continue;
      if (b.open_time >= to) break;
      if (v === null || b.visible_at > v) v = b.visible_at;
    }
    return v;
  }

  /**
   * Of the `limit` latest bars with open_time ≤ maxOpen, the newest complete bucket of `targetMs`:
   * its open_time and close, exactly `aggregateBars(latest(…), baseMs, targetMs).at(-1)` (null when
   * there is none), without copying the bars when they lie in the chunk cache (the truth of every
   * report and every reference poll asks this).
   */
  lastCompleteBucket(
    venue: string,
    symbol: string,
    baseMs: number,
    targetMs: number,
    maxOpen: number,
    limit: number,
  ): { open_time: number; c: number } | null {
    const n = targetMs / baseMs;
    if (!Number.isInteger(n)) throw new RangeError(`interval ${targetMs} is not a multiple of ${baseMs}`);
    const rows = this.cache.get(venue, symbol, baseMs, chunkStart(maxOpen));
    // newest first: a bucket's first bar seen is its close; a bucket is complete with n bars in the window
    let seen = 0;
    let bucket = Number.NaN;
    let count = 0;
    let close = 0;
    for (let i = lastAtOrBefore(rows, maxOpen); i >= 0 && seen < limit; i--) {
      const b = rows[i]!;
      seen++;
      const k = Math.floor(b.open_time / targetMs) * targetMs;
      if (k !== bucket) {
        if (count === n) return { open_time: bucket, c: close };
        bucket = k;
        count = 0;
        close = b.c;
      }
      count++;
    }
    // the window ended inside the chunk: its oldest bucket decides
    if (seen === limit) return count === n ? { open_time: bucket, c: close } : null;
    // the window reaches before the chunk: the plain definition
    const last = aggregateBars(this.latest(venue, symbol, baseMs, maxOpen, limit), baseMs, targetMs).at(-1);
    return last ? { open_time: last.open_time, c: last.c } : null;
  }

  /** up to `limit` bars with open_time ≤ maxOpen, ascending */
  latest(venue: string, symbol: string, intervalMs: number, maxOpen: number, limit: number): Bar[] {
    const start = chunkStart(maxOpen);
    const rows = this.cache.get(venue, symbol, intervalMs, start);
    const newestFirst: Bar[] = [];
    for (let i = lastAtOrBefore(rows, maxOpen); i >= 0 && newestFirst.length < limit; i--) {
      const b = rows[i]!;
      newestFirst.push({ open_time: b.open_time, o: b.o, h: b.h, l: b.l, c: b.c, v: b.v });
    }
    // the rest lies before the chunk: one statement for it, as for the whole request
    if (newestFirst.length < limit)
      newestFirst.push(...this.latestStmt.all(venue, symbol, intervalMs, start - 1, limit - newestFirst.length));
    return newestFirst.reverse();
  }
}
