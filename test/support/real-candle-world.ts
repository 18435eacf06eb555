import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HOUR_MS, MINUTE_MS } from "../../src/common/time.js";
import { buildCandleWorld, type CandleSource } from "../../src/ingest/candle-world.js";

/**
 * A candle world from the shared crypto samples over a window before the SVB collapse (Binance.US
 * minute klines cover only 2023-03-01 → 03-21, so these windows have Kraken's hourly export of
 * BTC-USD, BTC-USDT, BTC-USDC and the Binance BTCUSDT and ETHUSDT index series, both files each: a candle repeated across them is kept once). Built into a temp
 * dir by the ingest function (no recipe): real episodes of price-check and risk-portfolio run on it
 * with `world: {dir}`.
 */
export const CALM_SOURCES: readonly CandleSource[] = [
  ...(["USD", "USDT", "USDC"] as const).map(
    (q): CandleSource => ({
      path: `crypto-kraken-binanceus-iaqf/XBT${q}_60.csv`,
      format: "kraken-ohlcvt",
      venue: "kraken",
      symbol: `BTC-${q}`,
      interval: HOUR_MS,
    }),
  ),
  ...(["BTC", "ETH"] as const).flatMap((a) =>
    (["02-10", "03-24"] as const).map(
      (f): CandleSource => ({
        path: `crypto-binance-index-1h/${a}USDT-1h-2023-${f}.json`,
        format: "binance-klines",
        venue: "binance-index",
        symbol: `${a}-USDT`,
        interval: HOUR_MS,
      }),
    ),
  ),
];

/**
 * The svb-2023 episode's sources (the shipped recipe recipes/svb-2023.yaml names the same files):
 * Kraken hourly and Binance.US minute klines resampled to 1 h for BTC-USD/USDT/USDC, and the Binance
 * BTCUSDT index. Built here by the ingest function so these tests do not depend on the recipe code.
 */
export const SVB_SOURCES: readonly CandleSource[] = [
  ...CALM_SOURCES.filter((s) => s.venue === "kraken"),
  ...(["USD", "USDT", "USDC"] as const).map(
    (q): CandleSource => ({
      path: `crypto-kraken-binanceus-iaqf/BTC${q}_1m_20230301_20230321.csv`,
      format: "binanceus-csv",
      venue: "binanceus",
      symbol: `BTC-${q}`,
      interval: MINUTE_MS,
      resampleMs: HOUR_MS,
    }),
  ),
  ...CALM_SOURCES.filter((s) => s.venue === "binance-index" && s.symbol === "BTC-USDT"),
];

export function haveCalmSources(raw: string): boolean {
  return [...CALM_SOURCES, ...SVB_SOURCES].every((s) => existsSync(join(raw, s.path)));
}

/** Builds a candle world of `sources` (window [start, end), 1 day of lookback) in a fresh temp dir; returns its path. */
export function buildCalmCandleWorld(
  raw: string,
  name: string,
  start: string,
  end: string,
  sources: readonly CandleSource[] = CALM_SOURCES,
): string {
  const dir = join(mkdtempSync(join(tmpdir(), "relive-calm-")), "world");
  buildCandleWorld(raw, dir, {
    name,
    window: { start: Date.parse(start), end: Date.parse(end) },
    lookbackMs: 24 * HOUR_MS,
    sources,
  });
  return dir;
}
