import { z } from "zod";
import type { ApiStyle } from "./incident-table.js";
import { BINANCE_INTERVALS } from "./venue-handlers.js";

/**
 * A small client for the reference heuristic: builds "recent candles" requests in each venue's
 * real API shape and parses the last completed candle out of the real payloads. It sees only what
 * http_fetch returns (agent-visible surface).
 */

export const HttpResult = z.object({
  status: z.number(),
  headers: z.record(z.string(), z.string()),
  body: z.string(),
  elapsed_ms: z.number(),
  error: z.string().optional(),
});
export type HttpResult = z.infer<typeof HttpResult>;

export const VenueDoc = z.object({
  api: z.enum(["kraken", "binance-spot", "binance-index", "coinbase"]),
  symbols: z.record(z.string(), z.string()),
  result_keys: z.record(z.string(), z.string()).optional(),
  base_interval_ms: z.number(),
});

export const ExchangeDocs = z.object({
  symbols: z.array(z.string()),
  truth: z.object({ interval_ms: z.number(), venues: z.record(z.string(), z.array(z.string())) }),
  venues: z.record(z.string(), VenueDoc),
});
export type ExchangeDocs = z.infer<typeof ExchangeDocs>;

/** a request for the last few completed candles at intervalMs */
export function recentCandlesRequest(
  style: ApiStyle,
  pair: string,
  intervalMs: number,
  now: number,
): { path: string; params: Record<string, string | number> } {
  switch (style) {
    case "kraken":
      return {
        path: "/0/public/OHLC",
        params: { pair, interval: intervalMs / 60_000, since: Math.floor((now - 4 * intervalMs) / 1000) },
      };
    case "binance-spot":
    case "binance-index": {
      const label = Object.entries(BINANCE_INTERVALS).find(([, ms]) => ms === intervalMs)?.[0];
      if (!label) throw new Error(`no Binance interval of ${intervalMs} ms`);
      return style === "binance-spot"
        ? { path: "/api/v3/klines", params: { symbol: pair, interval: label, limit: 3 } }
        : { path: "/fapi/v1/indexPriceKlines", params: { pair, interval: label, limit: 3 } };
    }
    case "coinbase":
      return {
        path: `/products/${pair}/candles`,
        params: {
          granularity: intervalMs / 1000,
          start: Math.floor((now - 4 * intervalMs) / 1000),
          end: Math.floor(now / 1000),
        },
      };
    default: {
      const never: never = style;
      throw new Error(`unknown api style ${String(never)}`);
    }
  }
}

const KrakenBody = z.object({
  error: z.array(z.string()),
  result: z.record(z.string(), z.unknown()).optional(),
});
const KrakenRow = z.tuple([z.number(), z.string(), z.string(), z.string(), z.string()]).rest(z.unknown());
const BinanceRow = z.tuple([z.number(), z.string(), z.string(), z.string(), z.string()]).rest(z.unknown());
const CoinbaseRow = z.tuple([z.number(), z.number(), z.number(), z.number(), z.number()]).rest(z.unknown());
const KrakenRows = z.array(KrakenRow);
const BinanceRows = z.array(BinanceRow);
const CoinbaseRows = z.array(CoinbaseRow);

/** the last (newest) candle of a 200 body: open time (ms) and close; null when absent or malformed */
export function lastCandle(
  style: ApiStyle,
  body: string,
  resultKey: string,
): { open_time: number; close: number } | null {
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    return null;
  }
  switch (style) {
    case "kraken": {
      const b = KrakenBody.safeParse(raw);
      if (!b.success || b.data.error.length > 0) return null;
      const rows = KrakenRows.safeParse(b.data.result?.[resultKey]);
      const last = rows.success ? rows.data[rows.data.length - 1] : undefined;
      return last ? { open_time: last[0] * 1000, close: Number(last[4]) } : null;
    }
    case "binance-spot":
    case "binance-index": {
      const rows = BinanceRows.safeParse(raw);
      const last = rows.success ? rows.data[rows.data.length - 1] : undefined;
      return last ? { open_time: last[0], close: Number(last[4]) } : null;
    }
    case "coinbase": {
      const rows = CoinbaseRows.safeParse(raw);
      const newest = rows.success ? rows.data[0] : undefined;
      return newest ? { open_time: newest[0] * 1000, close: newest[4] } : null;
    }
    default: {
      const never: never = style;
      throw new Error(`unknown api style ${String(never)}`);
    }
  }
}
