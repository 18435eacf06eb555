import type Database from "better-sqlite3";
import { DAY_MS } from "../../common/time.js";
import type { AsOfView } from "../../world/as-of-view.js";
import type { RiskPortfolioParams } from "./params.js";

/**
 * One trading day: the close of every universe symbol. Day d (00:00 UTC, epoch ms) closes at
 * d + 1 day; its close is the close of the candle that ends exactly then (open_time + interval =
 * d + 1 day), visible from that instant. A day is a trading day when every symbol has that candle;
 * otherwise it is a non-trading day (no fills, no book; borrow keeps accruing to the next close).
 */
export interface CloseDay {
  day: number;
  close_time: number;
  prices: Record<string, number>;
}

/** What the task trades: one venue's symbols, each with the candle interval whose last candle gives the close. */
export interface Universe {
  venue: string;
  symbols: string[];
  /** symbol → the finest candle interval (ms) of its series on the venue */
  interval: Record<string, number>;
}

interface SeriesRow {
  venue: string;
  symbol: string;
  interval_ms: number;
}

/**
 * Resolves the universe from the world's candle series that are visible by `sim_start` (so it never
 * depends on data published later). Venue: `params.venue`, else "kraken" when present, else the
 * first venue. Symbols: `params.symbols` (each must exist), else every symbol of the venue, sorted.
 */
export function resolveUniverse(db: Database.Database, params: RiskPortfolioParams, simStart: number): Universe {
  const rows = db
    .prepare(
      "SELECT venue, symbol, interval_ms FROM candle_series WHERE visible_at <= ? ORDER BY venue, symbol, interval_ms",
    )
    .all(simStart) as SeriesRow[];
  if (rows.length === 0) throw new Error("risk-portfolio: the world carries no candle series visible by sim_start");
  const venues = [...new Set(rows.map((r) => r.venue))].sort();
  const venue = params.venue ?? (venues.includes("kraken") ? "kraken" : (venues[0] as string));
  if (!venues.includes(venue))
    throw new Error(`risk-portfolio: venue "${venue}" has no candles by sim_start; venues: ${venues.join(", ")}`);
  const available = [...new Set(rows.filter((r) => r.venue === venue).map((r) => r.symbol))].sort();
  let symbols = available;
  if (params.symbols) {
    const unknown = params.symbols.filter((s) => !available.includes(s));
    if (unknown.length)
      throw new Error(
        `risk-portfolio: symbols ${unknown.join(", ")} are not on ${venue} (available: ${available.join(", ")})`,
      );
    symbols = [...new Set(params.symbols)].sort();
  }
  return universeOf(db, venue, symbols, simStart);
}

/**
 * The universe of given symbols on a venue, each closing on its finest candle interval among the
 * series visible by `visibleBy` (the interval must divide a day).
 */
export function universeOf(
  db: Database.Database,
  venue: string,
  symbols: readonly string[],
  visibleBy: number,
): Universe {
  const stmt = db.prepare(
    "SELECT min(interval_ms) AS iv FROM candle_series WHERE venue = ? AND symbol = ? AND visible_at <= ?",
  );
  const interval: Record<string, number> = {};
  for (const s of symbols) {
    const iv = (stmt.get(venue, s, visibleBy) as { iv: number | null }).iv;
    if (iv === null) throw new Error(`risk-portfolio: ${venue} carries no candles for ${s}`);
    if (DAY_MS % iv !== 0)
      throw new Error(`risk-portfolio: the candle interval of ${s} (${iv} ms) does not divide a day`);
    interval[s] = iv;
  }
  return { venue, symbols: [...symbols], interval };
}

/**
 * Scorer/environment-side daily closes from the untouched world (never handed to the agent):
 * every trading day with close_time ≤ `maxCloseTime`, ascending.
 */
export function worldCloseDays(db: Database.Database, u: Universe, maxCloseTime: number): CloseDay[] {
  const stmt = db.prepare(
    "SELECT open_time + interval_ms AS close_time, c FROM candle WHERE venue = ? AND symbol = ? AND interval_ms = ?" +
      " AND (open_time + interval_ms) % 86400000 = 0 AND open_time + interval_ms <= ? ORDER BY open_time",
  );
  const bySymbol = u.symbols.map((s) => {
    const m = new Map<number, number>();
    for (const r of stmt.all(u.venue, s, u.interval[s], maxCloseTime) as { close_time: number; c: number }[])
      m.set(r.close_time, r.c);
    return m;
  });
  const first = bySymbol[0] as Map<number, number>;
  const out: CloseDay[] = [];
  for (const closeTime of [...first.keys()].sort((a, b) => a - b)) {
    const prices: Record<string, number> = {};
    let complete = true;
    u.symbols.forEach((s, i) => {
      const c = (bySymbol[i] as Map<number, number>).get(closeTime);
      if (c === undefined) complete = false;
      else prices[s] = c;
    });
    if (complete) out.push({ day: closeTime - DAY_MS, close_time: closeTime, prices });
  }
  return out;
}

/**
 * Agent-facing daily closes through the as-of view (the visibility bound is inside the view's
 * SQL). A day is answered only once its close time has passed (close_time ≤ now), and each answer
 * is cached (a completed day never changes).
 */
export class ViewCloses {
  private readonly cache = new Map<number, CloseDay | null>();

  constructor(
    private readonly view: AsOfView,
    readonly universe: Universe,
  ) {}

  /** the close day of `day`, null for a non-trading day; undefined while its close is not yet known */
  get(day: number): CloseDay | null | undefined {
    const closeTime = day + DAY_MS;
    if (closeTime > this.view.now()) return undefined;
    if (this.cache.has(day)) return this.cache.get(day) ?? null;
    const prices: Record<string, number> = {};
    let complete = true;
    for (const s of this.universe.symbols) {
      const iv = this.universe.interval[s] as number;
      const rows = this.view.exchanges.candles(this.universe.venue, s, closeTime - iv, closeTime - iv);
      const row = rows.find((r) => r.interval_ms === iv);
      if (!row) {
        complete = false;
        break;
      }
      prices[s] = row.c;
    }
    const v = complete ? { day, close_time: closeTime, prices } : null;
    this.cache.set(day, v);
    return v;
  }

  /** trading days d in [fromDay, toDay] whose close is known now, ascending */
  range(fromDay: number, toDay: number): CloseDay[] {
    const out: CloseDay[] = [];
    for (let d = fromDay; d <= toDay; d += DAY_MS) {
      const c = this.get(d);
      if (c === undefined) break;
      if (c) out.push(c);
    }
    return out;
  }

  /** the latest trading day whose close is known now, searching back at most `maxDays` days (null if none) */
  latest(maxDays: number): CloseDay | null {
    const last = Math.floor(this.view.now() / DAY_MS) * DAY_MS - DAY_MS;
    for (let d = last, i = 0; i < maxDays; d -= DAY_MS, i++) {
      const c = this.get(d);
      if (c) return c;
    }
    return null;
  }
}
