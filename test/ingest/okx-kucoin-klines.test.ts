/**
 * OKX and KuCoin kline readers. No real OKX or KuCoin sample exists in ../shared/data: these
 * fixtures are written from the venues' documented response shapes (OKX GET
 * /api/v5/market/candles: `{"code":"0","msg":"","data":[[ts, o, h, l, c, vol, volCcy,
 * volCcyQuote, confirm], …]}`, newest first; KuCoin GET /api/v1/market/candles:
 * `{"code":"200000","data":[[time_s, open, close, high, low, volume, turnover], …]}`, newest first).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ImportRefusedError } from "../../src/ingest/import-report.js";
import { importKlines } from "../../src/ingest/klines-world.js";
import { parseKucoinCandles, parseOkxCandles } from "../../src/ingest/okx-kucoin-klines.js";
import { WorldStore } from "../../src/world/world-store.js";

const H = 3_600_000;
const T = Date.UTC(2023, 2, 11, 0);
const series = { file: "f.json", venue: "okx", symbol: "BTC-USDT", intervalMs: H };

const okx = JSON.stringify({
  code: "0",
  msg: "",
  data: [
    [String(T + 2 * H), "20300", "20400", "20250", "20350", "12.5", "254000", "254000", "0"],
    [String(T + H), "20100", "20310", "20050", "20300", "10", "201000", "201000", "1"],
    [String(T), "20000", "20150", "19900", "20100", "8.25", "165000", "165000", "1"],
  ],
});

const kucoin = JSON.stringify({
  code: "200000",
  data: [
    [String((T + H) / 1000), "20100", "20300", "20310", "20050", "10", "201000"],
    [String(T / 1000), "20000", "20100", "20150", "19900", "8.25", "165000"],
    [String(T / 1000 + 60), "1", "1", "1", "1", "1", "1"],
  ],
});

describe("OKX candles (documented response shape)", () => {
  it("reads completed candles oldest first and rejects the forming one", () => {
    const r = parseOkxCandles(okx, series);
    expect(r.rows.map((c) => [c.open_time, c.o, c.h, c.l, c.c, c.v, c.visible_at])).toEqual([
      [T, 20000, 20150, 19900, 20100, 8.25, T + H],
      [T + H, 20100, 20310, 20050, 20300, 10, T + 2 * H],
    ]);
    expect(r.rejected).toEqual([{ file: "f.json", line: 1, reason: 'candle not completed (confirm="0")' }]);
  });
  it("refuses an error envelope with its code", () => {
    const r = parseOkxCandles(JSON.stringify({ code: "51001", msg: "Instrument ID does not exist", data: [] }), series);
    expect(r.rows).toEqual([]);
    expect(r.rejected[0]?.reason).toBe('the venue returned error code "51001"');
  });
});

describe("KuCoin candles (documented response shape)", () => {
  it("maps [time, open, close, high, low, volume] and rejects a misaligned open time", () => {
    const r = parseKucoinCandles(kucoin, { ...series, venue: "kucoin" });
    expect(r.rows.map((c) => [c.open_time, c.o, c.h, c.l, c.c, c.v])).toEqual([
      [T, 20000, 20150, 19900, 20100, 8.25],
      [T + H, 20100, 20310, 20050, 20300, 10],
    ]);
    expect(r.rejected).toHaveLength(1);
    expect(r.rejected[0]?.line).toBe(3);
    expect(r.rejected[0]?.reason).toMatch(/not aligned to the 3600 s interval/);
  });
});

describe("importKlines", () => {
  const root = mkdtempSync(join(tmpdir(), "klines-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("builds a candle world from two overlapping pages (duplicates rejected)", async () => {
    const a = join(root, "p1.json");
    const b = join(root, "p2.json");
    writeFileSync(a, kucoin);
    writeFileSync(
      b,
      JSON.stringify({ code: "200000", data: [[String(T / 1000), "20000", "20100", "20150", "19900", "8.25", "1"]] }),
    );
    const out = join(root, "w");
    const r = await importKlines("kucoin", [a, b], out, { name: "k", symbol: "BTC-USDT", bar: "1hour" });
    expect(r.imported).toBe(2);
    expect(r.rejected.map((x) => x.reason)).toEqual([
      expect.stringMatching(/not aligned/),
      `duplicate candle at ${new Date(T).toISOString()} (the first is kept)`,
    ]);
    const w = WorldStore.open(out);
    expect(w.manifest.window).toEqual({ start: T, end: T + 2 * H });
    expect(w.db.prepare("SELECT venue, symbol, interval_ms, count(*) AS n FROM candle").get()).toEqual({
      venue: "kucoin",
      symbol: "BTC-USDT",
      interval_ms: H,
      n: 2,
    });
    w.close();
  });

  it("refuses when every candle is rejected and leaves no directory", async () => {
    const f = join(root, "bad.json");
    writeFileSync(f, JSON.stringify({ code: "0", data: [[String(T), "1", "1", "1", "1", "1", "1", "1", "0"]] }));
    const out = join(root, "none");
    await expect(importKlines("okx", [f], out, { name: "x", symbol: "BTC-USDT", bar: "1H" })).rejects.toBeInstanceOf(
      ImportRefusedError,
    );
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.tmp-${process.pid}`)).toBe(false);
  });
});
