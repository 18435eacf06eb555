import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DAY_MS, HOUR_MS } from "../common/time.js";
import type { CandleRow, WorldManifest } from "../world/types.js";
import { WorldBuilder } from "../world/world-builder.js";
import { parseBinanceKlinesJson, parseBinanceUsCsv, resampleCandles } from "./binance-klines.js";
import { type ParsedCandles, parseKrakenOhlcvt, type RejectedRow } from "./kraken-ohlcvt.js";

export const CRYPTO_SVB_BUILDER = "crypto-svb-2023";
export const CRYPTO_SVB_BUILDER_VERSION = "1";
/** the episode window 2023-03-01 → 03-21 inclusive */
export const CRYPTO_SVB_WINDOW = { start: Date.UTC(2023, 2, 1), end: Date.UTC(2023, 2, 22) };
/** candles opening in [start − LOOKBACK, end) are kept, so the first hours have history to poll */
export const CRYPTO_SVB_LOOKBACK_MS = DAY_MS;

interface SourceSpec {
  /** path relative to rawDir */
  path: string;
  venue: string;
  symbol: string;
  parse(text: string, file: string): ParsedCandles;
  /** 1 m sources are resampled to 1 h */
  resample: boolean;
}

const KRAKEN_DIR = "crypto-kraken-binanceus-iaqf";
const INDEX_DIR = "crypto-binance-index-1h";

const kraken = (file: string, symbol: string): SourceSpec => ({
  path: `${KRAKEN_DIR}/${file}`,
  venue: "kraken",
  symbol,
  resample: false,
  parse: (text, f) => parseKrakenOhlcvt(text, { file: f, venue: "kraken", symbol, intervalMs: HOUR_MS }),
});
const binanceUs = (file: string, symbol: string): SourceSpec => ({
  path: `${KRAKEN_DIR}/${file}`,
  venue: "binanceus",
  symbol,
  resample: true,
  parse: (text, f) => parseBinanceUsCsv(text, { file: f, venue: "binanceus", symbol, intervalMs: 60_000 }),
});
const index = (file: string): SourceSpec => ({
  path: `${INDEX_DIR}/${file}`,
  venue: "binance-index",
  symbol: "BTC-USDT",
  resample: false,
  parse: (text, f) =>
    parseBinanceKlinesJson(text, { file: f, venue: "binance-index", symbol: "BTC-USDT", intervalMs: HOUR_MS }),
});

/** The sources of the svb-2023 world (ETH index files exist but ETH is not a price-check symbol there). */
export const CRYPTO_SVB_SOURCES: readonly SourceSpec[] = [
  kraken("XBTUSD_60.csv", "BTC-USD"),
  kraken("XBTUSDT_60.csv", "BTC-USDT"),
  kraken("XBTUSDC_60.csv", "BTC-USDC"),
  binanceUs("BTCUSD_1m_20230301_20230321.csv", "BTC-USD"),
  binanceUs("BTCUSDT_1m_20230301_20230321.csv", "BTC-USDT"),
  binanceUs("BTCUSDC_1m_20230301_20230321.csv", "BTC-USDC"),
  index("BTCUSDT-1h-2023-02-10.json"),
  index("BTCUSDT-1h-2023-03-24.json"),
];

export interface CryptoBuildReport {
  manifest: WorldManifest;
  rejected: RejectedRow[];
}

/**
 * Builds the svb-2023 world (2023-03-01 → 03-22 exclusive) from `rawDir` (the folder holding
 * crypto-kraken-binanceus-iaqf/ and crypto-binance-index-1h/): hourly candles (open-time labelled,
 * visible at open + 1 h) for BTC-USD, BTC-USDT, BTC-USDC on "kraken" (OHLCVT export) and
 * "binanceus" (1 m klines resampled to complete hours), and BTC-USDT on "binance-index" (the
 * futures index-price klines; rows repeated across the two files are kept once, from the first
 * file). Candles opening in [start − 1 day, end) are kept. Every row is validated; the manifest
 * records each file's sha256, valid row count and rejected row count. The builder writes into a
 * temp dir and renames it on success (never a partial world).
 */
export function buildCryptoSvbWorld(rawDir: string, targetDir: string): WorldManifest {
  return buildCryptoSvbWorldReport(rawDir, targetDir).manifest;
}

export function buildCryptoSvbWorldReport(rawDir: string, targetDir: string): CryptoBuildReport {
  const missing = CRYPTO_SVB_SOURCES.map((s) => s.path).filter((p) => !existsSync(join(rawDir, p)));
  if (missing.length) throw new Error(`crypto-svb-2023: raw files missing under ${rawDir}: ${missing.join(", ")}`);
  const from = CRYPTO_SVB_WINDOW.start - CRYPTO_SVB_LOOKBACK_MS;
  const to = CRYPTO_SVB_WINDOW.end;
  const builder = WorldBuilder.create(targetDir, {
    name: CRYPTO_SVB_BUILDER,
    window: CRYPTO_SVB_WINDOW,
    builder: CRYPTO_SVB_BUILDER,
    builder_version: CRYPTO_SVB_BUILDER_VERSION,
  });
  try {
    const rejected: RejectedRow[] = [];
    const series = new Map<string, Map<number, CandleRow>>();
    for (const src of CRYPTO_SVB_SOURCES) {
      const bytes = readFileSync(join(rawDir, src.path));
      const parsed = src.parse(bytes.toString("utf8"), src.path);
      rejected.push(...parsed.rejected);
      builder.addSource({
        path: src.path,
        sha256: createHash("sha256").update(bytes).digest("hex"),
        rows: parsed.rows.length,
        rejected: parsed.rejected.length,
      });
      const rows = src.resample ? resampleCandles(parsed.rows, HOUR_MS) : parsed.rows;
      const key = `${src.venue}\u0000${src.symbol}`;
      const m = series.get(key) ?? new Map<number, CandleRow>();
      series.set(key, m);
      for (const r of rows) {
        if (r.open_time < from || r.open_time >= to) continue;
        if (!m.has(r.open_time)) m.set(r.open_time, r);
      }
    }
    for (const key of [...series.keys()].sort()) {
      const rows = [...(series.get(key) as Map<number, CandleRow>).values()].sort((a, b) => a.open_time - b.open_time);
      builder.insert("candle", rows);
    }
    return { manifest: builder.finish(), rejected };
  } catch (e) {
    builder.abort();
    throw e;
  }
}
