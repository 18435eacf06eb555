import { readFileSync } from "node:fs";
import type { CandleRow } from "../world/types.js";
import { WorldBuilder } from "../world/world-builder.js";
import type { WorldSink } from "../world/world-sink.js";
import { resampleCandles } from "./binance-klines.js";
import { fileSha256, type ImportReport, refuseIfEmpty } from "./import-report.js";
import type { RejectedRow } from "./kraken-ohlcvt.js";
import { type KlineVenue, klineIntervalMs, parseVenueCandles } from "./okx-kucoin-klines.js";

export const KLINES_BUILDER = "ingest/klines";
export const KLINES_BUILDER_VERSION = "1";

export interface KlinesImportOptions {
  name: string;
  /** the venue's instrument name as stored in the world, e.g. BTC-USDT */
  symbol: string;
  /** the venue's bar name of the files: OKX `1m`/`1H`/…, KuCoin `1min`/`1hour`/… */
  bar: string;
  /** resample to this interval (ms, a multiple of the bar) after reading; complete buckets only */
  resampleMs?: number;
}

/**
 * Imports saved kline responses of one venue and instrument (each file one response page, pages in
 * any order) into a new candle world: venue = `okx` | `kucoin`. A candle whose open time repeats an
 * earlier page's is rejected as a duplicate (the first is kept). Window = first open → last close.
 */
export async function importKlines(
  venue: KlineVenue,
  files: string[],
  targetDir: string,
  opts: KlinesImportOptions,
): Promise<ImportReport> {
  checkedInterval(venue, opts);
  const builder = WorldBuilder.create(targetDir, {
    name: opts.name,
    window: { start: 0, end: 0 },
    builder: KLINES_BUILDER,
    builder_version: KLINES_BUILDER_VERSION,
  });
  try {
    const r = await importKlinesInto(builder, venue, files, opts);
    return { manifest: builder.finish(), ...r };
  } catch (e) {
    builder.abort();
    throw e;
  }
}

/** `importKlines`'s candles written into `sink` (one manifest source per page, the window first open → last close). */
export async function importKlinesInto(
  sink: WorldSink,
  venue: KlineVenue,
  files: string[],
  opts: KlinesImportOptions,
): Promise<Omit<ImportReport, "manifest">> {
  const intervalMs = checkedInterval(venue, opts);
  const rejected: RejectedRow[] = [];
  const byOpen = new Map<number, CandleRow>();
  let read = 0;
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const parsed = parseVenueCandles(venue, text, { file, venue, symbol: opts.symbol, intervalMs });
    let kept = 0;
    const fileRejected: RejectedRow[] = [...parsed.rejected];
    read += parsed.rows.length + parsed.rejected.filter((r) => r.line > 0).length;
    for (const row of parsed.rows) {
      if (byOpen.has(row.open_time)) {
        fileRejected.push({
          file,
          line: 0,
          reason: `duplicate candle at ${new Date(row.open_time).toISOString()} (the first is kept)`,
        });
        continue;
      }
      byOpen.set(row.open_time, row);
      kept++;
    }
    rejected.push(...fileRejected);
    sink.addSource({ path: file, sha256: await fileSha256(file), rows: kept, rejected: fileRejected.length });
  }
  let rows = [...byOpen.values()].sort((a, b) => a.open_time - b.open_time);
  if (opts.resampleMs !== undefined) rows = resampleCandles(rows, opts.resampleMs);
  refuseIfEmpty("candles", read, rows.length, rejected);
  sink.insert("candle", rows);
  const first = rows[0] as CandleRow;
  const last = rows[rows.length - 1] as CandleRow;
  sink.setWindow({ start: first.open_time, end: last.open_time + last.interval_ms });
  return { read, imported: rows.length, rejected, counts: { candles: rows.length } };
}

/** The bar of `opts` in ms; refuses an unknown bar or a resample that is not a multiple of it. */
function checkedInterval(venue: KlineVenue, opts: KlinesImportOptions): number {
  const intervalMs = klineIntervalMs(venue, opts.bar);
  if (intervalMs === null) throw new Error(`unknown ${venue} bar ${JSON.stringify(opts.bar)}`);
  if (opts.resampleMs !== undefined && (opts.resampleMs < intervalMs || opts.resampleMs % intervalMs !== 0))
    throw new Error(`--resample ${opts.resampleMs} ms is not a multiple of the ${opts.bar} bar (${intervalMs} ms)`);
  return intervalMs;
}
