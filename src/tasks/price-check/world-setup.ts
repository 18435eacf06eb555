import type { CandleKey, SeriesVisibility } from "./candle-series.js";
import { VENUE_TABLE } from "./incident-table.js";
import type { PriceCheckParams } from "./params.js";

/** What a run of price-check serves and scores, resolved from the world's candle series and the params. */
export interface PriceCheckSetup {
  /** scored symbols, sorted */
  symbols: string[];
  /** served venues, sorted */
  venues: string[];
  truthIntervalMs: number;
  /** per symbol: the venues whose candles form its truth (sorted) */
  truthVenues: Record<string, string[]>;
  /** per venue: symbol → the finest interval the world carries for it (the replay's base interval) */
  baseInterval: Record<string, Record<string, number>>;
}

/**
 * Resolves the setup. Served venues: world venues present in the pinned venue table (restricted
 * to `params.venues` when set). A venue serves a symbol when the world carries a series for it;
 * its base interval is the finest one carried. The truth venues of a symbol are the served venues
 * whose base interval divides the truth interval (so the truth candle exists or aggregates exactly).
 * Symbols: those with at least one truth venue (restricted to `params.symbols` when set: unknown
 * names are an error).
 */
export function resolveSetup(keys: readonly CandleKey[], params: PriceCheckParams): PriceCheckSetup {
  if (keys.length === 0) throw new Error("price-check: the world carries no candles");
  const worldVenues = [...new Set(keys.map((k) => k.venue))].sort();
  let venues = worldVenues.filter((v) => VENUE_TABLE[v] !== undefined);
  if (params.venues) {
    const unknown = params.venues.filter((v) => !venues.includes(v));
    if (unknown.length)
      throw new Error(
        `price-check: venues ${unknown.join(", ")} are not served (world venues in the venue table: ${venues.join(", ")})`,
      );
    venues = [...params.venues].sort();
  }
  const baseInterval: Record<string, Record<string, number>> = {};
  for (const k of keys) {
    if (!venues.includes(k.venue)) continue;
    const m = baseInterval[k.venue] ?? {};
    baseInterval[k.venue] = m;
    const prev = m[k.symbol];
    if (prev === undefined || k.interval_ms < prev) m[k.symbol] = k.interval_ms;
  }
  const served = keys.filter((k) => venues.includes(k.venue));
  if (served.length === 0) throw new Error("price-check: no world venue is in the venue table");
  const truthIntervalMs = params.truth_interval_ms ?? Math.min(...served.map((k) => k.interval_ms));
  const truthVenues: Record<string, string[]> = {};
  for (const v of venues) {
    for (const [symbol, base] of Object.entries(baseInterval[v] ?? {})) {
      if (truthIntervalMs % base !== 0) continue;
      const list = truthVenues[symbol] ?? [];
      list.push(v);
      truthVenues[symbol] = list;
    }
  }
  let symbols = Object.keys(truthVenues).sort();
  if (params.symbols) {
    const unknown = params.symbols.filter((s) => !symbols.includes(s));
    if (unknown.length)
      throw new Error(
        `price-check: symbols ${unknown.join(", ")} have no venue at the truth interval (available: ${symbols.join(", ")})`,
      );
    symbols = [...params.symbols].sort();
  }
  for (const s of Object.keys(truthVenues)) {
    if (!symbols.includes(s)) delete truthVenues[s];
    else truthVenues[s]!.sort();
  }
  return { symbols, venues, truthIntervalMs, truthVenues, baseInterval };
}

/**
 * The part of a run's setup an agent may know at `t` (instructions, venue docs, the venue replay's
 * symbol lists): the served venues and symbols whose candle series is visible at `t`. A venue serves
 * a symbol once its base-interval series is visible; a scored symbol is listed once one of its truth
 * venues serves it. The scorer keeps the full setup.
 */
export function setupAsOf(setup: PriceCheckSetup, series: readonly SeriesVisibility[], t: number): PriceCheckSetup {
  const visible = new Set(
    series.filter((k) => k.visible_at <= t).map((k) => `${k.venue}\u0000${k.symbol}\u0000${k.interval_ms}`),
  );
  const baseInterval: Record<string, Record<string, number>> = {};
  for (const v of setup.venues)
    for (const [symbol, base] of Object.entries(setup.baseInterval[v] ?? {})) {
      if (!visible.has(`${v}\u0000${symbol}\u0000${base}`)) continue;
      const m = baseInterval[v] ?? {};
      m[symbol] = base;
      baseInterval[v] = m;
    }
  const venues = setup.venues.filter((v) => baseInterval[v] !== undefined);
  const truthVenues: Record<string, string[]> = {};
  for (const s of setup.symbols) {
    const list = (setup.truthVenues[s] ?? []).filter((v) => baseInterval[v]?.[s] !== undefined);
    if (list.length) truthVenues[s] = list;
  }
  const symbols = setup.symbols.filter((s) => truthVenues[s] !== undefined);
  return { symbols, venues, truthIntervalMs: setup.truthIntervalMs, truthVenues, baseInterval };
}
