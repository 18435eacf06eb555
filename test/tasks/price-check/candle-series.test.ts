import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { createRng } from "../../../src/common/random.js";
import { DAY_MS, MINUTE_MS } from "../../../src/common/time.js";
import { aggregateBars, type Bar, WorldCandles } from "../../../src/tasks/price-check/candle-series.js";
import { buildCandleWorld } from "./fixtures.js";

/**
 * WorldCandles answers `latest` and `visibleThrough` from a day-chunk cache: they must equal the
 * plain statements (same rows, same order) on series with gaps of several days, irregular
 * visibility lags, and queries on and around chunk boundaries.
 */
const T0 = Date.UTC(2026, 2, 1);
const STEP = 5 * MINUTE_MS;

function world() {
  const db = new Database(":memory:");
  db.exec(`CREATE TABLE candle (
    venue TEXT NOT NULL, symbol TEXT NOT NULL, interval_ms INTEGER NOT NULL, open_time INTEGER NOT NULL,
    o REAL NOT NULL, h REAL NOT NULL, l REAL NOT NULL, c REAL NOT NULL, v REAL NOT NULL, visible_at INTEGER NOT NULL,
    UNIQUE (venue, symbol, interval_ms, open_time))`);
  const ins = db.prepare("INSERT INTO candle VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const rng = createRng(7);
  db.transaction(() => {
    for (const venue of ["a", "b"])
      for (const interval of [STEP, 4 * STEP])
        for (let t = T0; t < T0 + 12 * DAY_MS; t += interval) {
          // gaps: day 3 missing, days 6–8 missing, random single bars missing
          const day = Math.floor((t - T0) / DAY_MS);
          if (day === 3 || (day >= 6 && day <= 8) || rng.chance(0.05)) continue;
          const c = 100 + rng.normal();
          ins.run(venue, "X", interval, t, c, c + 1, c - 1, c, rng.uniform(0, 5), t + interval + rng.int(3) * 60_000);
        }
  })();
  return db;
}

const db = world();
afterAll(() => db.close());

const latestSql = db.prepare(
  "SELECT open_time, o, h, l, c, v FROM candle WHERE venue = ? AND symbol = ? AND interval_ms = ? AND open_time <= ? ORDER BY open_time DESC LIMIT ?",
);
const visibleSql = db.prepare(
  "SELECT MAX(visible_at) AS v FROM candle WHERE venue = ? AND symbol = ? AND interval_ms = ? AND open_time >= ? AND open_time < ?",
);
const refLatest = (venue: string, interval: number, maxOpen: number, limit: number) =>
  (latestSql.all(venue, "X", interval, maxOpen, limit) as Bar[]).reverse();
const refVisible = (venue: string, interval: number, from: number, to: number) =>
  (visibleSql.get(venue, "X", interval, from, to) as { v: number | null }).v;

describe("WorldCandles chunk cache", () => {
  it("latest and visibleThrough equal the plain statements around chunk boundaries and gaps", () => {
    const rng = createRng(11);
    let checked = 0;
    for (let i = 0; i < 3000; i++) {
      // a fresh reader now and then: the cache is per database, shared between readers
      const candles = new WorldCandles(db);
      const venue = rng.pick(["a", "b"]);
      const interval = rng.pick([STEP, 4 * STEP]);
      const day = T0 + (rng.int(15) - 1) * DAY_MS;
      // on a boundary, just before or after it, or anywhere in the day
      const maxOpen = rng.pick([day, day - 1, day + 1, day - STEP, day + rng.int(DAY_MS)]);
      const limit = 1 + rng.int(40);
      expect(candles.latest(venue, "X", interval, maxOpen, limit)).toEqual(refLatest(venue, interval, maxOpen, limit));
      const from = rng.pick([day, day - STEP, day + rng.int(DAY_MS)]);
      const to = from + rng.pick([0, STEP, 12 * STEP, DAY_MS, 2 * DAY_MS]);
      expect(candles.visibleThrough(venue, "X", interval, from, to)).toBe(refVisible(venue, interval, from, to));
      checked++;
    }
    expect(checked).toBe(3000);
  });

  it("lastCompleteBucket equals the last complete bucket aggregated from latest's bars", () => {
    const rng = createRng(12);
    const kinds = { some: 0, none: 0, fallback: 0 };
    for (let i = 0; i < 4000; i++) {
      const candles = new WorldCandles(db);
      const venue = rng.pick(["a", "b"]);
      const base = rng.pick([STEP, 4 * STEP]);
      const target = base * rng.pick([1, 2, 3, 4, 12]);
      const day = T0 + (rng.int(15) - 1) * DAY_MS;
      const maxOpen = rng.pick([day, day - 1, day + 1, day + rng.int(3) * target, day + rng.int(DAY_MS)]);
      const limit = 1 + rng.int(40);
      const bars = refLatest(venue, base, maxOpen, limit);
      const last = aggregateBars(bars, base, target).at(-1);
      const got = candles.lastCompleteBucket(venue, "X", base, target, maxOpen, limit);
      expect(got).toEqual(last ? { open_time: last.open_time, c: last.c } : null);
      kinds[got ? "some" : "none"]++;
      // the window reaching before maxOpen's day (answered by the plain statement)
      if (bars.length === limit && bars[0]!.open_time < Math.floor(maxOpen / DAY_MS) * DAY_MS) kinds.fallback++;
    }
    expect(kinds.some).toBeGreaterThan(1000);
    expect(kinds.none).toBeGreaterThan(100);
    expect(kinds.fallback).toBeGreaterThan(100);
  });

  it("a series the world lacks gives no bars and no visibility", () => {
    const candles = new WorldCandles(db);
    expect(candles.latest("zz", "X", STEP, T0 + DAY_MS, 5)).toEqual([]);
    expect(candles.visibleThrough("zz", "X", STEP, T0, T0 + STEP)).toBeNull();
  });
});

describe("WorldCandles.series", () => {
  it("equals the first visible_at of each series over every candle of a built world, in key order", () => {
    const built = buildCandleWorld({
      venues: ["kraken", "binance"],
      symbols: ["SOL-USD", "BTC-USD"],
      intervalMs: 5 * MINUTE_MS,
      from: T0,
      to: T0 + DAY_MS,
      close: () => 100,
      // series becoming visible at different times (a series list read from one venue's start would differ)
      seriesFrom: (venue, symbol) =>
        T0 + (venue === "kraken" ? 3 : 0) * 60 * MINUTE_MS + (symbol === "BTC-USD" ? 1 : 0) * 35 * MINUTE_MS,
    });
    try {
      const db = built.world.db;
      const fromCandles = db
        .prepare(
          "SELECT venue, symbol, interval_ms, MIN(visible_at) AS visible_at FROM candle GROUP BY venue, symbol, interval_ms ORDER BY venue, symbol, interval_ms",
        )
        .all();
      expect(new Set(fromCandles.map((r) => (r as { visible_at: number }).visible_at)).size).toBe(4);
      expect(new WorldCandles(db).series()).toEqual(fromCandles);
    } finally {
      built.cleanup();
    }
  });
});
