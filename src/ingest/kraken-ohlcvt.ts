import { z } from "zod";
import type { CandleRow } from "../world/types.js";

/** A source row that did not make it into the world, with where and why. */
export interface RejectedRow {
  file: string;
  line: number;
  reason: string;
}

export interface ParsedCandles {
  rows: CandleRow[];
  rejected: RejectedRow[];
}

const price = z.number().finite().positive();

/** One OHLC bar, after number parsing: positive prices with l ≤ o, c ≤ h, volume ≥ 0. */
export const OhlcBar = z
  .object({
    open_time: z.number().int().nonnegative(),
    o: price,
    h: price,
    l: price,
    c: price,
    v: z.number().finite().nonnegative(),
  })
  .refine((b) => b.l <= Math.min(b.o, b.c) && b.h >= Math.max(b.o, b.c), { message: "inconsistent OHLC (low/high)" });

const decimal = (s: string | undefined) =>
  s !== undefined && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(s.trim()) ? Number(s) : Number.NaN;

function issueText(e: z.ZodError): string {
  const i = e.issues[0];
  return i ? `${i.path.length ? `${i.path.join(".")}: ` : ""}${i.message}` : "invalid row";
}

export interface SeriesOptions {
  file: string;
  venue: string;
  symbol: string;
  intervalMs: number;
}

/**
 * Validates one parsed bar (OhlcBar, aligned to the interval) and makes it a CandleRow of the series,
 * visible once completed; a string is the rejection reason.
 */
export function candleFromBar(bar: z.input<typeof OhlcBar>, o: SeriesOptions, timeText: string): CandleRow | string {
  const parsed = OhlcBar.safeParse(bar);
  if (!parsed.success) return issueText(parsed.error);
  const b = parsed.data;
  if (b.open_time % o.intervalMs !== 0)
    return `open time ${timeText} is not aligned to the ${o.intervalMs / 1000} s interval`;
  return { venue: o.venue, symbol: o.symbol, interval_ms: o.intervalMs, ...b, visible_at: b.open_time + o.intervalMs };
}

/**
 * Kraken's official OHLCVT export (no header): `unix_time_s, open, high, low, close, volume, trades`,
 * one candle per line, open time in seconds. Each line becomes a CandleRow (visible at
 * open_time + interval); invalid lines are rejected with file:line:reason (blank lines are skipped).
 * The trade count is validated (a non-negative integer) but not stored (CandleRow has no field for it).
 */
export function parseKrakenOhlcvt(text: string, o: SeriesOptions): ParsedCandles {
  const rows: CandleRow[] = [];
  const rejected: RejectedRow[] = [];
  const lines = text.split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === "") continue;
    const f = line.split(",");
    const reject = (reason: string): void => {
      rejected.push({ file: o.file, line: i + 1, reason });
    };
    if (f.length !== 7) {
      reject(`expected 7 fields, got ${f.length}`);
      continue;
    }
    const trades = decimal(f[6]);
    if (!Number.isInteger(trades) || trades < 0) {
      reject(`trades: not a non-negative integer: "${f[6]}"`);
      continue;
    }
    const row = candleFromBar(
      {
        open_time: decimal(f[0]) * 1000,
        o: decimal(f[1]),
        h: decimal(f[2]),
        l: decimal(f[3]),
        c: decimal(f[4]),
        v: decimal(f[5]),
      },
      o,
      f[0] as string,
    );
    if (typeof row === "string") reject(row);
    else rows.push(row);
  }
  return { rows, rejected };
}

export { decimal as parseDecimal };
