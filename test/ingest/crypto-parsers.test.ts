import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseBinanceKlinesJson, parseBinanceUsCsv, resampleCandles } from "../../src/ingest/binance-klines.js";
import { parseKrakenOhlcvt } from "../../src/ingest/kraken-ohlcvt.js";
import type { CandleRow } from "../../src/world/types.js";

const H = 3_600_000;

describe("parseKrakenOhlcvt", () => {
  it("parses rows and rejects bad ones with file:line:reason", () => {
    const text = [
      "1678514400,21856.19,23951.49,21642.2,22309.7,299.13722722,4619",
      "1678518000,22406.81,26127.17,22000.0,22000.0,315.70733737,2999",
      "1678521600,abc,1,1,1,1,1",
      "1678525200,10,9,8,9.5,1,1",
      "1678528800,10,11,9,10,1",
      "",
      "1678532400,10,11,9,10,1,-2",
    ].join("\n");
    const r = parseKrakenOhlcvt(text, { file: "k.csv", venue: "kraken", symbol: "BTC-USDC", intervalMs: H });
    expect(r.rows).toEqual([
      {
        venue: "kraken",
        symbol: "BTC-USDC",
        interval_ms: H,
        open_time: 1678514400000,
        o: 21856.19,
        h: 23951.49,
        l: 21642.2,
        c: 22309.7,
        v: 299.13722722,
        visible_at: 1678518000000,
      },
      expect.objectContaining({ open_time: 1678518000000, c: 22000 }),
    ]);
    expect(r.rejected.map((x) => `${x.file}:${x.line}`)).toEqual(["k.csv:3", "k.csv:4", "k.csv:5", "k.csv:7"]);
    expect(r.rejected[1]?.reason).toContain("inconsistent OHLC");
    expect(r.rejected[2]?.reason).toBe("expected 7 fields, got 6");
    expect(r.rejected[3]?.reason).toContain("trades");
  });
});

describe("parseBinanceKlinesJson", () => {
  it("parses index-price klines (volume 0) and checks the interval", () => {
    const text = JSON.stringify([
      [1678514400000, "21000.5", "21100", "20900", "21050.25", "0", 1678517999999, "0", 3600, "0", "0", "0"],
      [1678518000000, "21050", "21060", "21000", "21010", "0", 1678518059999, "0", 60, "0", "0", "0"],
      [1678521600000, "x"],
    ]);
    const r = parseBinanceKlinesJson(text, {
      file: "i.json",
      venue: "binance-index",
      symbol: "BTC-USDT",
      intervalMs: H,
    });
    expect(r.rows).toEqual([
      {
        venue: "binance-index",
        symbol: "BTC-USDT",
        interval_ms: H,
        open_time: 1678514400000,
        o: 21000.5,
        h: 21100,
        l: 20900,
        c: 21050.25,
        v: 0,
        visible_at: 1678518000000,
      },
    ]);
    expect(r.rejected).toEqual([
      { file: "i.json", line: 2, reason: "interval 60000 ms differs from the expected 3600000 ms" },
      { file: "i.json", line: 3, reason: "not a kline array of at least 7 fields" },
    ]);
    expect(parseBinanceKlinesJson("{", { file: "x", venue: "v", symbol: "s", intervalMs: H }).rejected[0]?.line).toBe(
      0,
    );
  });
});

describe("parseBinanceUsCsv + resampleCandles", () => {
  const header = "open_time,open,high,low,close,volume";
  const minute = (i: number, c: number) =>
    `${new Date(Date.UTC(2023, 2, 11, 6, i)).toISOString().replace("T", " ").replace(".000Z", "+00:00")},${c},${c + 1},${c - 1},${c},0.5`;

  it("parses the ISO +00:00 export and rejects bad lines", () => {
    const text = [
      header,
      minute(0, 100),
      "2023-03-11 06:01:00,1,1,1,1,1",
      minute(2, 101),
      "2023-03-11 06:03:00+00:00,1,1,1,1",
    ].join("\n");
    const r = parseBinanceUsCsv(text, { file: "b.csv", venue: "binanceus", symbol: "BTC-USDC", intervalMs: 60_000 });
    expect(r.rows.map((x) => [x.open_time, x.c])).toEqual([
      [Date.UTC(2023, 2, 11, 6, 0), 100],
      [Date.UTC(2023, 2, 11, 6, 2), 101],
    ]);
    expect(r.rejected.map((x) => [x.line, x.reason.slice(0, 20)])).toEqual([
      [3, "open_time is not an "],
      [5, "expected 6 fields, g"],
    ]);
    expect(
      parseBinanceUsCsv("a,b\n", { file: "b.csv", venue: "v", symbol: "s", intervalMs: 60_000 }).rejected,
    ).toHaveLength(1);
  });

  it("resamples 1 m to 1 h: o first, h max, l min, c last, v sum; only complete hours", () => {
    const lines = [header];
    for (let i = 0; i < 60; i++) lines.push(minute(i, 100 + i));
    for (let i = 60; i < 119; i++) lines.push(minute(i, 100 + i)); // 07:00–07:58: 59 minutes, incomplete
    const { rows } = parseBinanceUsCsv(lines.join("\n"), {
      file: "b",
      venue: "binanceus",
      symbol: "BTC-USDC",
      intervalMs: 60_000,
    });
    const hours = resampleCandles(rows, H);
    expect(hours).toEqual([
      {
        venue: "binanceus",
        symbol: "BTC-USDC",
        interval_ms: H,
        open_time: Date.UTC(2023, 2, 11, 6),
        o: 100,
        h: 160,
        l: 99,
        c: 159,
        v: 30,
        visible_at: Date.UTC(2023, 2, 11, 7),
      },
    ]);
  });

  it("property: resampling complete hours of random minutes keeps OHLC invariants and order-independence", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 1, max: 1e5, noNaN: true }), { minLength: 120, maxLength: 120 }),
        fc.integer({ min: 0, max: 119 }),
        (closes, drop) => {
          const rows: CandleRow[] = closes.map((c, i) => ({
            venue: "v",
            symbol: "s",
            interval_ms: 60_000,
            open_time: H * 10 + i * 60_000,
            o: c,
            h: c * 1.001,
            l: c * 0.999,
            c,
            v: 1,
            visible_at: H * 10 + (i + 1) * 60_000,
          }));
          const missing = rows.filter((_, i) => i !== drop);
          const out = resampleCandles([...missing].reverse(), H);
          expect(out).toHaveLength(1);
          const hour = out[0] as CandleRow;
          expect(hour.open_time).toBe(drop < 60 ? H * 11 : H * 10);
          expect(hour.l <= Math.min(hour.o, hour.c) && hour.h >= Math.max(hour.o, hour.c)).toBe(true);
          expect(hour.v).toBe(60);
        },
      ),
      { numRuns: 50 },
    );
  });
});
