import { z } from "zod";
import { BINANCE_INTERVALS } from "./venue-handlers.js";
const HttpResult = z.object({
  status: z.number(),
  headers: z.record(z.string(), z.string()),
  body: z.string(),
  elapsed_ms: z.number(),
  error: z.string().optional()
});
const VenueDoc = z.object({
  api: z.enum(["kraken", "binance-spot", "binance-index", "coinbase"]),
  symbols: z.record(z.string(), z.string()),
  result_keys: z.record(z.string(), z.string()).optional(),
  base_interval_ms: z.number()
});
const ExchangeDocs = z.object({
  symbols: z.array(z.string()),
  truth: z.object({ interval_ms: z.number(), venues: z.record(z.string(), z.array(z.string())) }),
  venues: z.record(z.string(), VenueDoc)
});
function recentCandlesRequest(style, pair, intervalMs, now) {
  switch (style) {
    case "kraken":
      return {
        path: "/0/public/OHLC",
        params: { pair, interval: intervalMs / 6e4, since: Math.floor((now - 4 * intervalMs) / 1e3) }
      };
    case "binance-spot":
    case "binance-index": {
      const label = Object.entries(BINANCE_INTERVALS).find(([, ms]) => ms === intervalMs)?.[0];
      if (!label) throw new Error(`no Binance interval of ${intervalMs} ms`);
      return style === "binance-spot" ? { path: "/api/v3/klines", params: { symbol: pair, interval: label, limit: 3 } } : { path: "/fapi/v1/indexPriceKlines", params: { pair, interval: label, limit: 3 } };
    }
    case "coinbase":
      return {
        path: `/products/${pair}/candles`,
        params: {
          granularity: intervalMs / 1e3,
          start: Math.floor((now - 4 * intervalMs) / 1e3),
          end: Math.floor(now / 1e3)
        }
      };
    default: {
      const never = style;
      throw new Error(`unknown api style ${String(never)}`);
    }
  }
}
const KrakenBody = z.object({
  error: z.array(z.string()),
  result: z.record(z.string(), z.unknown()).optional()
});
const KrakenRow = z.tuple([z.number(), z.string(), z.string(), z.string(), z.string()]).rest(z.unknown());
const BinanceRow = z.tuple([z.number(), z.string(), z.string(), z.string(), z.string()]).rest(z.unknown());
const CoinbaseRow = z.tuple([z.number(), z.number(), z.number(), z.number(), z.number()]).rest(z.unknown());
function lastCandle(style, body, resultKey) {
  let raw;
  try {
    raw = JSON.parse(body);
  } catch {
    return null;
  }
  switch (style) {
    case "kraken": {
      const b = KrakenBody.safeParse(raw);
      if (!b.success || b.data.error.length > 0) return null;
      const rows = z.array(KrakenRow).safeParse(b.data.result?.[resultKey]);
      const last = rows.success ? rows.data[rows.data.length - 1] : void 0;
      return last ? { open_time: last[0] * 1e3, close: Number(last[4]) } : null;
    }
    case "binance-spot":
    case "binance-index": {
      const rows = z.array(BinanceRow).safeParse(raw);
      const last = rows.success ? rows.data[rows.data.length - 1] : void 0;
      return last ? { open_time: last[0], close: Number(last[4]) } : null;
    }
    case "coinbase": {
      const rows = z.array(CoinbaseRow).safeParse(raw);
      const newest = rows.success ? rows.data[0] : void 0;
      return newest ? { open_time: newest[0] * 1e3, close: newest[4] } : null;
    }
    default: {
      const never = style;
      throw new Error(`unknown api style ${String(never)}`);
    }
  }
}
export {
  ExchangeDocs,
  HttpResult,
  VenueDoc,
  lastCandle,
  recentCandlesRequest
};
//# sourceMappingURL=venue-client.js.map
