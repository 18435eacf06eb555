import { z } from "zod";
import type { CandleRow } from "../world/types.js";
import {
  candleFromBar,
  type ParsedCandles,
  parseDecimal,
  type RejectedRow,
  type SeriesOptions,
} from "./kraken-ohlcvt.js";

/** OKX `bar` values (GET /api/v5/market/candles and /history-candles) → interval ms. */
export const OKX_BARS: Readonly<Record<string, number>> = {
  "1m": 60_000,
  "3m": 180_000,
  "5m": 300_000,
  "15m": 900_000,
  "30m": 1_800_000,
  "1H": 3_600_000,
  "2H": 7_200_000,
  "4H": 14_400_000,
  "6Hutc": 21_600_000,
  "12Hutc": 43_200_000,
  "1Dutc": 86_400_000,
};

/** KuCoin spot `type` values (GET /api/v1/market/candles) → interval ms. */
export const KUCOIN_TYPES: Readonly<Record<string, number>> = {
  "1min": 60_000,
  "3min": 180_000,
  "5min": 300_000,
  "15min": 900_000,
  "30min": 1_800_000,
  "1hour": 3_600_000,
  "2hour": 7_200_000,
  "4hour": 14_400_000,
  "6hour": 21_600_000,
  "8hour": 28_800_000,
  "12hour": 43_200_000,
  "1day": 86_400_000,
};

const Str = z.string();
/** OKX envelope: `{"code":"0","msg":"","data":[[ts_ms, o, h, l, c, vol, volCcy, volCcyQuote, confirm], …]}` */
const OkxEnvelope = z.object({ code: Str, msg: Str.optional(), data: z.array(z.unknown()) });
const OkxCandle = z.array(Str).min(6);
/** KuCoin envelope: `{"code":"200000","data":[[time_s, open, close, high, low, volume, turnover], …]}` */
const KucoinEnvelope = z.object({ code: Str, data: z.array(z.unknown()) });
const KucoinCandle = z.array(Str).min(6);

function envelope<T extends { code: string; data: unknown[] }>(
  text: string,
  schema: z.ZodType<T>,
  okCode: string,
  file: string,
): T | RejectedRow {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { file, line: 0, reason: `not JSON: ${(e as Error).message}` };
  }
  // a bare array of candles (the `data` field saved on its own) is accepted too
  if (Array.isArray(raw)) raw = { code: okCode, data: raw };
  const env = schema.safeParse(raw);
  if (!env.success)
    return { file, line: 0, reason: `not a kline response: ${env.error.issues[0]?.message ?? "invalid"}` };
  if (env.data.code !== okCode)
    return { file, line: 0, reason: `the venue returned error code ${JSON.stringify(env.data.code)}` };
  return env.data;
}

const sortByOpen = (rows: CandleRow[]) => rows.sort((a, b) => a.open_time - b.open_time);

/**
 * OKX candles: `data` rows `[ts, o, h, l, c, vol, volCcy, volCcyQuote, confirm]` as strings, newest
 * first, ts = open time in ms. `confirm` "0" marks the still-forming candle: rejected (only completed
 * candles enter a world). Volume is `vol` (base currency). `line` = 1-based index in `data`.
 */
export function parseOkxCandles(text: string, o: SeriesOptions): ParsedCandles {
  const rows: CandleRow[] = [];
  const rejected: RejectedRow[] = [];
  const env = envelope(text, OkxEnvelope, "0", o.file);
  if ("reason" in env) return { rows, rejected: [env] };
  for (const [i, k] of env.data.entries()) {
    const reject = (reason: string) => rejected.push({ file: o.file, line: i + 1, reason });
    const a = OkxCandle.safeParse(k);
    if (!a.success) {
      reject("not an OKX candle (an array of at least 6 strings)");
      continue;
    }
    const f = a.data;
    if (f[8] !== undefined && f[8] !== "1") {
      reject(`candle not completed (confirm=${JSON.stringify(f[8])})`);
      continue;
    }
    const openTime = parseDecimal(f[0]);
    const row = candleFromBar(
      {
        open_time: openTime,
        o: parseDecimal(f[1]),
        h: parseDecimal(f[2]),
        l: parseDecimal(f[3]),
        c: parseDecimal(f[4]),
        v: parseDecimal(f[5]),
      },
      o,
      String(f[0]),
    );
    if (typeof row === "string") reject(row);
    else rows.push(row);
  }
  return { rows: sortByOpen(rows), rejected };
}

/**
 * KuCoin spot candles: `data` rows `[time, open, close, high, low, volume, turnover]` as strings
 * (note the order: close before high and low), newest first, time = open time in **seconds**.
 * `line` = 1-based index in `data`.
 */
export function parseKucoinCandles(text: string, o: SeriesOptions): ParsedCandles {
  const rows: CandleRow[] = [];
  const rejected: RejectedRow[] = [];
  const env = envelope(text, KucoinEnvelope, "200000", o.file);
  if ("reason" in env) return { rows, rejected: [env] };
  for (const [i, k] of env.data.entries()) {
    const reject = (reason: string) => rejected.push({ file: o.file, line: i + 1, reason });
    const a = KucoinCandle.safeParse(k);
    if (!a.success) {
      reject("not a KuCoin candle (an array of at least 6 strings)");
      continue;
    }
    const f = a.data;
    const sec = parseDecimal(f[0]);
    const row = candleFromBar(
      {
        open_time: sec * 1000,
        o: parseDecimal(f[1]),
        c: parseDecimal(f[2]),
        h: parseDecimal(f[3]),
        l: parseDecimal(f[4]),
        v: parseDecimal(f[5]),
      },
      o,
      String(f[0]),
    );
    if (typeof row === "string") reject(row);
    else rows.push(row);
  }
  return { rows: sortByOpen(rows), rejected };
}

export type KlineVenue = "okx" | "kucoin";

/** The interval of a venue's bar name (OKX `1H`, KuCoin `1hour`), or null when unknown. */
export function klineIntervalMs(venue: KlineVenue, bar: string): number | null {
  switch (venue) {
    case "okx":
      return OKX_BARS[bar] ?? null;
    case "kucoin":
      return KUCOIN_TYPES[bar] ?? null;
  }
}

export function parseVenueCandles(venue: KlineVenue, text: string, o: SeriesOptions): ParsedCandles {
  switch (venue) {
    case "okx":
      return parseOkxCandles(text, o);
    case "kucoin":
      return parseKucoinCandles(text, o);
  }
}
