/**
 * The real-data worlds episodes name, with a line each for `relive data build --help` (a light
 * module: the CLI lists them without loading the importers). ForecastBench sets are not listed:
 * any `forecastbench-<due>[-human]` name resolves to the set of that due date under the raw dir.
 */
export const REAL_WORLD_DESCRIPTIONS = {
  "crypto-svb-2023": "BTC against USD/USDC/USDT on Kraken, Binance.US and the Binance index, 2023-03-01 → 03-21",
  "edgar-tesla-2022": "Tesla EDGAR submissions and XBRL companyfacts (filings from 2013), held 2022-04-01 → 11-30",
} as const;
