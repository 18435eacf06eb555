/** The `relive data pull` sources by name (a light module for the CLI's help; sources.ts holds them). */
export const PULL_SOURCE_NAMES = [
  "cc-news",
  "polymarket",
  "arctic-shift",
  "kraken",
  "binance",
  "okx",
  "kucoin",
  "edgar",
  "forecastbench",
] as const;
