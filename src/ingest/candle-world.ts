import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { CandleRow, WorldManifest } from "../world/types.js";
import { WorldBuilder } from "../world/world-builder.js";
import type { WorldSink } from "../world/world-sink.js";
import { parseBinanceKlinesJson, parseBinanceUsCsv, resampleCandles } from "./binance-klines.js";
import { type ParsedCandles, parseKrakenOhlcvt, type RejectedRow, type SeriesOptions } from "./kraken-ohlcvt.js";
import { klineIntervalMs, parseVenueCandles } from "./okx-kucoin-klines.js";

export const CANDLE_WORLD_BUILDER = "ingest/candles";
export const CANDLE_WORLD_BUILDER_VERSION = "1";

/** The candle file formats a candle world reads (each a parser of ingest/). */
export const CANDLE_FORMATS = [
  "kraken-ohlcvt",
  "binance-klines",
  "binanceus-csv",
  "okx-klines",
  "kucoin-klines",
] as const;
export type CandleFormat = (typeof CANDLE_FORMATS)[number];

/** One candle series file of a candle world. */
export interface CandleSource {
  /** relative to the data root (kept so in the manifest), or absolute */
  path: string;
  format: CandleFormat;
  venue: string;
  symbol: string;
  /**
   * The file's bar: ms for kraken-ohlcvt / binance-klines / binanceus-csv; the venue's bar name for
   * okx-klines (`1H`, …) and kucoin-klines (`1hour`, …).
   */
  interval: number | string;
  /** resample to this interval (ms, a multiple of the bar; complete buckets only) */
  resampleMs?: number;
}

export interface CandleWorldSpec {
  name: string;
  /** the world window (UTC ms, end exclusive) */
  window: { start: number; end: number };
  /** candles opening in [start − lookbackMs, end) are kept, so the first hours have history */
  lookbackMs: number;
  sources: readonly CandleSource[];
}

export interface CandleBuildReport {
  manifest: WorldManifest;
  rejected: RejectedRow[];
}

/** The bar of a source in ms, or an error naming what is wrong. */
export function candleIntervalMs(src: CandleSource): number {
  switch (src.format) {
    case "okx-klines":
    case "kucoin-klines": {
      const venue = src.format === "okx-klines" ? "okx" : "kucoin";
      const ms = typeof src.interval === "string" ? klineIntervalMs(venue, src.interval) : null;
      if (ms === null) throw new Error(`${src.path}: unknown ${venue} bar ${JSON.stringify(src.interval)}`);
      return ms;
    }
    case "kraken-ohlcvt":
    case "binance-klines":
    case "binanceus-csv":
      if (typeof src.interval !== "number" || !(src.interval > 0))
        throw new Error(`${src.path}: interval must be a duration (e.g. 1h), got ${JSON.stringify(src.interval)}`);
      return src.interval;
  }
}

function parseSource(src: CandleSource, text: string): ParsedCandles {
  const o: SeriesOptions = { file: src.path, venue: src.venue, symbol: src.symbol, intervalMs: candleIntervalMs(src) };
  switch (src.format) {
    case "kraken-ohlcvt":
      return parseKrakenOhlcvt(text, o);
    case "binance-klines":
      return parseBinanceKlinesJson(text, o);
    case "binanceus-csv":
      return parseBinanceUsCsv(text, o);
    case "okx-klines":
      return parseVenueCandles("okx", text, o);
    case "kucoin-klines":
      return parseVenueCandles("kucoin", text, o);
  }
}

/**
 * Builds a candle world from candle files of any venues (paths relative to `rawDir`, or absolute):
 * each file is one series (venue, symbol), parsed by its format's reader (every row validated,
 * open-time labelled, visible at open + interval), resampled when asked, and kept for candles
 * opening in [start − lookback, end). A candle repeated across files of one series is kept once,
 * from the first file. The manifest records each file's sha256, valid and rejected row counts.
 * Built by WorldBuilder in a temp dir and renamed on success (never a partial world).
 */
export function buildCandleWorld(rawDir: string, targetDir: string, spec: CandleWorldSpec): CandleBuildReport {
  if (spec.sources.length === 0) throw new Error(`${spec.name}: no candle source given`);
  checkCandleSources(rawDir, spec);
  const builder = WorldBuilder.create(targetDir, {
    name: spec.name,
    window: spec.window,
    builder: CANDLE_WORLD_BUILDER,
    builder_version: CANDLE_WORLD_BUILDER_VERSION,
  });
  try {
    const { rejected } = importCandlesInto(builder, rawDir, spec);
    return { manifest: builder.finish(), rejected };
  } catch (e) {
    builder.abort();
    throw e;
  }
}

/** Refuses missing files and a resample that is not a multiple of its bar. */
function checkCandleSources(rawDir: string, spec: CandleWorldSpec): void {
  const abs = (p: string) => (isAbsolute(p) ? p : join(rawDir, p));
  const missing = spec.sources.map((s) => s.path).filter((p) => !existsSync(abs(p)));
  if (missing.length) throw new Error(`${spec.name}: raw files missing under ${rawDir}: ${missing.join(", ")}`);
  for (const s of spec.sources) {
    const bar = candleIntervalMs(s);
    if (s.resampleMs !== undefined && (s.resampleMs < bar || s.resampleMs % bar !== 0))
      throw new Error(`${s.path}: resample ${s.resampleMs} ms is not a multiple of its bar (${bar} ms)`);
  }
}

/**
 * `buildCandleWorld`'s rows written into `sink`: every file parsed, resampled and kept for candles
 * opening in [start − lookback, end), a candle repeated across files of one series kept once
 * (from the first file), the series inserted in (venue, symbol) order. The window is the spec's
 * (set on the sink).
 */
export function importCandlesInto(sink: WorldSink, rawDir: string, spec: CandleWorldSpec): { rejected: RejectedRow[] } {
  checkCandleSources(rawDir, spec);
  const abs = (p: string) => (isAbsolute(p) ? p : join(rawDir, p));
  const from = spec.window.start - spec.lookbackMs;
  const to = spec.window.end;
  const rejected: RejectedRow[] = [];
  const series = new Map<string, Map<number, CandleRow>>();
  for (const src of spec.sources) {
    const bytes = readFileSync(abs(src.path));
    const parsed = parseSource(src, bytes.toString("utf8"));
    rejected.push(...parsed.rejected);
    sink.addSource({
      path: src.path,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      rows: parsed.rows.length,
      rejected: parsed.rejected.length,
    });
    const rows = src.resampleMs !== undefined ? resampleCandles(parsed.rows, src.resampleMs) : parsed.rows;
    const key = `${src.venue}\u0000${src.symbol}`;
    const m = series.get(key) ?? new Map<number, CandleRow>();
    series.set(key, m);
    for (const r of rows) {
      if (r.open_time < from || r.open_time >= to) continue;
      if (!m.has(r.open_time)) m.set(r.open_time, r);
    }
  }
  for (const key of [...series.keys()].sort()) {
    const rows = [...(series.get(key) as Map<number, CandleRow>).values()].sort((a, b) => a.open_time - b.open_time);
    sink.insert("candle", rows);
  }
  sink.setWindow(spec.window);
  return { rejected };
}
