import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { WorldBuilder } from "../world/world-builder.js";
import { parseBinanceKlinesJson, parseBinanceUsCsv, resampleCandles } from "./binance-klines.js";
import { parseKrakenOhlcvt } from "./kraken-ohlcvt.js";
const CRYPTO_SVB_BUILDER = "crypto-svb-2023";
const CRYPTO_SVB_BUILDER_VERSION = "1";
const HOUR_MS = 36e5;
const DAY_MS = 24 * HOUR_MS;
const CRYPTO_SVB_WINDOW = { start: Date.UTC(2023, 2, 1), end: Date.UTC(2023, 2, 22) };
const CRYPTO_SVB_LOOKBACK_MS = DAY_MS;
const KRAKEN_DIR = "crypto-kraken-binanceus-iaqf";
const INDEX_DIR = "crypto-binance-index-1h";
const kraken = (file, symbol) => ({
  path: `${KRAKEN_DIR}/${file}`,
  venue: "kraken",
  symbol,
  resample: false,
  parse: (text, f) => parseKrakenOhlcvt(text, { file: f, venue: "kraken", symbol, intervalMs: HOUR_MS })
});
const binanceUs = (file, symbol) => ({
  path: `${KRAKEN_DIR}/${file}`,
  venue: "binanceus",
  symbol,
  resample: true,
  parse: (text, f) => parseBinanceUsCsv(text, { file: f, venue: "binanceus", symbol, intervalMs: 6e4 })
});
const index = (file) => ({
  path: `${INDEX_DIR}/${file}`,
  venue: "binance-index",
  symbol: "BTC-USDT",
  resample: false,
  parse: (text, f) => parseBinanceKlinesJson(text, { file: f, venue: "binance-index", symbol: "BTC-USDT", intervalMs: HOUR_MS })
});
const CRYPTO_SVB_SOURCES = [
  kraken("XBTUSD_60.csv", "BTC-USD"),
  kraken("XBTUSDT_60.csv", "BTC-USDT"),
  kraken("XBTUSDC_60.csv", "BTC-USDC"),
  binanceUs("BTCUSD_1m_20230301_20230321.csv", "BTC-USD"),
  binanceUs("BTCUSDT_1m_20230301_20230321.csv", "BTC-USDT"),
  binanceUs("BTCUSDC_1m_20230301_20230321.csv", "BTC-USDC"),
  index("BTCUSDT-1h-2023-02-10.json"),
  index("BTCUSDT-1h-2023-03-24.json")
];
function buildCryptoSvbWorld(rawDir, targetDir) {
  return buildCryptoSvbWorldReport(rawDir, targetDir).manifest;
}
function buildCryptoSvbWorldReport(rawDir, targetDir) {
  const missing = CRYPTO_SVB_SOURCES.map((s) => s.path).filter((p) => !existsSync(join(rawDir, p)));
  if (missing.length) throw new Error(`crypto-svb-2023: raw files missing under ${rawDir}: ${missing.join(", ")}`);
  const from = CRYPTO_SVB_WINDOW.start - CRYPTO_SVB_LOOKBACK_MS;
  const to = CRYPTO_SVB_WINDOW.end;
  const builder = WorldBuilder.create(targetDir, {
    name: CRYPTO_SVB_BUILDER,
    window: CRYPTO_SVB_WINDOW,
    builder: CRYPTO_SVB_BUILDER,
    builder_version: CRYPTO_SVB_BUILDER_VERSION
  });
  try {
    const rejected = [];
    const series = /* @__PURE__ */ new Map();
    for (const src of CRYPTO_SVB_SOURCES) {
      const bytes = readFileSync(join(rawDir, src.path));
      const parsed = src.parse(bytes.toString("utf8"), src.path);
      rejected.push(...parsed.rejected);
      builder.addSource({
        path: src.path,
        sha256: createHash("sha256").update(bytes).digest("hex"),
        rows: parsed.rows.length,
        rejected: parsed.rejected.length
      });
      const rows = src.resample ? resampleCandles(parsed.rows, HOUR_MS) : parsed.rows;
      const key = `${src.venue}\0${src.symbol}`;
      const m = series.get(key) ?? /* @__PURE__ */ new Map();
      series.set(key, m);
      for (const r of rows) {
        if (r.open_time < from || r.open_time >= to) continue;
        if (!m.has(r.open_time)) m.set(r.open_time, r);
      }
    }
    for (const key of [...series.keys()].sort()) {
      const rows = [...series.get(key).values()].sort((a, b) => a.open_time - b.open_time);
      builder.insert("candle", rows);
    }
    return { manifest: builder.finish(), rejected };
  } catch (e) {
    builder.abort();
    throw e;
  }
}
export {
  CRYPTO_SVB_BUILDER,
  CRYPTO_SVB_BUILDER_VERSION,
  CRYPTO_SVB_LOOKBACK_MS,
  CRYPTO_SVB_SOURCES,
  CRYPTO_SVB_WINDOW,
  buildCryptoSvbWorld,
  buildCryptoSvbWorldReport
};
//# sourceMappingURL=crypto-world.js.map
