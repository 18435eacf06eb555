import type { ApiStyle } from "./incident-table.js";

/**
 * Task symbols ("BASE-QUOTE", e.g. BTC-USD) ↔ each API style's pair names. The rule is generic, so
 * any world's symbols map; the table below lists the ones the shipped worlds carry.
 *
 * | symbol   | kraken `pair` (result key)  | binance / binanceus `symbol`, binance-index `pair` | coinbase product |
 * |----------|-----------------------------|-----------------------------------------------------|------------------|
 * | BTC-USD  | XBTUSD (XXBTZUSD)           | BTCUSD                                              | BTC-USD          |
 * | ETH-USD  | ETHUSD (XETHZUSD)           | ETHUSD                                              | ETH-USD          |
 * | SOL-USD  | SOLUSD (SOLUSD)             | SOLUSD                                              | SOL-USD          |
 * | BTC-USDT | XBTUSDT (XBTUSDT)           | BTCUSDT                                             | BTC-USDT         |
 * | BTC-USDC | XBTUSDC (XBTUSDC)           | BTCUSDC                                             | BTC-USDC         |
 *
 * Kraken: BTC is "XBT"; the legacy result keys X<base>Z<quote> apply to XBT and ETH against USD
 * (XXBTZUSD, XETHZUSD), every other pair's result key is its altname. Requests may name either.
 */

export interface PairNames {
  /** the name sent in the request (`pair`, `symbol` or the product id in the path) */
  request: string;
  /** other accepted request names */
  aliases: string[];
  /** Kraken only: the key of the pair in `result` */
  resultKey: string;
}

function split(symbol: string): { base: string; quote: string } {
  const i = symbol.indexOf("-");
  if (i <= 0 || i === symbol.length - 1) throw new Error(`symbol "${symbol}" is not BASE-QUOTE`);
  return { base: symbol.slice(0, i), quote: symbol.slice(i + 1) };
}

const KRAKEN_LEGACY = new Set(["XBTUSD", "ETHUSD", "XBTEUR", "ETHEUR"]);

export function pairNames(style: ApiStyle, symbol: string): PairNames {
  const { base, quote } = split(symbol);
  switch (style) {
    case "kraken": {
      const kBase = base === "BTC" ? "XBT" : base;
      const alt = `${kBase}${quote}`;
      const resultKey = KRAKEN_LEGACY.has(alt) ? `X${kBase}Z${quote}` : alt;
      return { request: alt, aliases: resultKey === alt ? [] : [resultKey], resultKey };
    }
    case "binance-spot":
    case "binance-index":
      return { request: `${base}${quote}`, aliases: [], resultKey: `${base}${quote}` };
    case "coinbase":
      return { request: symbol, aliases: [], resultKey: symbol };
    default: {
      const never: never = style;
      throw new Error(`unknown api style ${String(never)}`);
    }
  }
}

/** Looks a requested pair name up among the symbols a venue carries (case-insensitive). */
export function symbolForPair(style: ApiStyle, symbols: readonly string[], requested: string): string | null {
  const want = requested.toUpperCase();
  for (const s of symbols) {
    const n = pairNames(style, s);
    if (n.request.toUpperCase() === want || n.aliases.some((a) => a.toUpperCase() === want)) return s;
  }
  return null;
}

/** Kraken's fixed price decimals per pair (real pair_decimals); other pairs use 2. */
export function krakenPriceDecimals(altname: string): number {
  switch (altname) {
    case "XBTUSD":
    case "XBTUSDT":
      return 1;
    default:
      return 2;
  }
}
