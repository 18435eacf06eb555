import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { MINUTE_MS, nextUtcMidnight, startOfUtcDay } from "../common/time.js";
import type { BreakpointRow, LabelRow, MarketPriceRow, MarketResolutionRow, MarketRow } from "../world/types.js";
import { WorldBuilder } from "../world/world-builder.js";
import type { WorldSink } from "../world/world-sink.js";
import { fileSha256, type ImportReport, refuseIfEmpty } from "./import-report.js";
import type { RejectedRow } from "./kraken-ohlcvt.js";
import {
  inferResult,
  type PmMarket,
  type PmTokenPrices,
  PricesHistory,
  parseCsvFile,
  parseGammaJson,
  parsePricesHistory,
} from "./polymarket-sources.js";
import { BreakpointParams, detectBreakpoints, detectionTime, type PricePoint } from "./polymarket-truth.js";

export const POLYMARKET_BUILDER = "ingest/polymarket";
export const POLYMARKET_BUILDER_VERSION = "1";
/** breakout-news: a price point at t becomes visible at t + 10 min (tasks.md §1). */
export const DEFAULT_PRICE_DELAY_MS = 10 * MINUTE_MS;
/** Truth label holding the breakpoint parameters a world was built with. */
export const BREAKPOINT_PARAMS_LABEL = "breakpoint_params";

export interface PolymarketImportOptions {
  name: string;
  /** CLOB prices-history files and the token each belongs to (a file named `<token>.json` needs none) */
  clob?: { token: string; file: string }[];
  breakpoints?: Partial<BreakpointParams>;
  priceDelayMs?: number;
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** Sorted by t, one point per t (the last), consecutive repeats of a price dropped (sparse changes). */
function sparse(points: PricePoint[]): { points: PricePoint[]; dropped: number } {
  const byT = new Map<number, number>();
  for (const p of points) byT.set(p.t, p.p);
  const sorted = [...byT.entries()].sort((a, b) => a[0] - b[0]);
  const out: PricePoint[] = [];
  for (const [t, p] of sorted) if (out.length === 0 || (out[out.length - 1] as PricePoint).p !== p) out.push({ t, p });
  return { points: out, dropped: points.length - out.length };
}

/**
 * Imports Polymarket sources into a new market world with the truth of breakout-news
 * (breakpoints), resolution-detect (`t_det` labels) and forecast-portfolio (resolved binary
 * markets with prices). Inputs, in any mix:
 * - Gamma `/markets` or `/events` JSON (`outcomes`, `outcomePrices`, `clobTokenIds` as JSON strings);
 * - CLOB `/prices-history` JSON `{history:[{t,p}]}`, bound to a token by `opts.clob` or by its name;
 * - the flat CSV shape of the shared sample (markets CSV + prices CSV).
 * World rows: `market` (visible at open; open = Gamma startDate/createdAt, else the first price
 * point), `market_price` per outcome (sparse: repeats dropped; visible at t + `priceDelayMs`; the
 * other outcome of a binary market with one priced token is 1 − p), `market_resolution` for
 * markets with a clean inferred outcome (see `inferResult`), visible at `closedTime` (CSV: the last
 * price point). Truth: `breakpoint` rows from the first outcome's series (`detectBreakpoints`),
 * `t_det` labels (0.99 enter / 0.95 exit band on the winner's series), and the parameters used.
 */
export async function importPolymarket(
  files: string[],
  targetDir: string,
  opts: PolymarketImportOptions,
): Promise<ImportReport> {
  BreakpointParams.parse(opts.breakpoints ?? {}); // refused before any world is created
  const builder = WorldBuilder.create(targetDir, {
    name: opts.name,
    window: { start: 0, end: 0 },
    builder: POLYMARKET_BUILDER,
    builder_version: POLYMARKET_BUILDER_VERSION,
  });
  try {
    const r = await importPolymarketInto(builder, files, opts);
    return { manifest: builder.finish(), ...r };
  } catch (e) {
    builder.abort();
    throw e;
  }
}

/** `importPolymarket`'s rows written into `sink` (market, market_price, market_resolution; breakpoint and label truth; the window of the prices). */
export async function importPolymarketInto(
  sink: WorldSink,
  files: string[],
  opts: Omit<PolymarketImportOptions, "name">,
): Promise<Omit<ImportReport, "manifest">> {
  const params = BreakpointParams.parse(opts.breakpoints ?? {});
  const delay = opts.priceDelayMs ?? DEFAULT_PRICE_DELAY_MS;
  const rejected: RejectedRow[] = [];
  const perFile = new Map<string, { rows: number; rejected: number }>();
  const note = (file: string, rows: number, rej: RejectedRow[]) => {
    const f = perFile.get(file) ?? { rows: 0, rejected: 0 };
    f.rows += rows;
    f.rejected += rej.length;
    perFile.set(file, f);
    rejected.push(...rej);
  };
  let read = 0;
  const markets: PmMarket[] = [];
  const tokenPrices: PmTokenPrices[] = [];
  const csvMarkets: { m: Parameters<typeof csvMarket>[0]; file: string }[] = [];
  const clobByFile = new Map((opts.clob ?? []).map((c) => [c.file, c.token]));
  const allFiles = [...new Set([...files, ...(opts.clob ?? []).map((c) => c.file)])];
  for (const file of allFiles) {
    const text = readFileSync(file, "utf8");
    if (file.toLowerCase().endsWith(".csv")) {
      const r = parseCsvFile(text, file);
      switch (r.shape) {
        case "markets":
          read += r.read;
          for (const m of r.rows) csvMarkets.push({ m, file });
          note(file, 0, r.rejected);
          break;
        case "prices": {
          read += r.read;
          const byToken = new Map<string, PmTokenPrices>();
          for (const row of r.rows) {
            let tp = byToken.get(row.token_id);
            if (!tp) {
              tp = { token: row.token_id, market: row.market_id, outcome: row.outcome, points: [], file };
              byToken.set(row.token_id, tp);
            }
            tp.points.push({ t: Date.parse(`${row.timestamp.replace(" ", "T")}Z`), p: row.price });
          }
          tokenPrices.push(...byToken.values());
          note(file, r.rows.length, r.rejected);
          break;
        }
        case "unknown":
          note(file, 0, [
            {
              file,
              line: 1,
              reason: `CSV header ${JSON.stringify(r.header.join(","))} is neither a markets nor a prices file`,
            },
          ]);
          break;
      }
      continue;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      note(file, 0, [{ file, line: 0, reason: `not JSON: ${(e as Error).message}` }]);
      continue;
    }
    const hist = PricesHistory.safeParse(raw);
    if (hist.success) {
      const stem = basename(file).replace(/\.json$/i, "");
      const token = clobByFile.get(file) ?? (/^\d{10,}$/.test(stem) ? stem : undefined);
      if (token === undefined) {
        note(file, 0, [{ file, line: 0, reason: "a prices-history file with no token: pass --clob TOKEN=FILE" }]);
        continue;
      }
      const r = parsePricesHistory(hist.data, token, file);
      read += r.read;
      tokenPrices.push(r.prices);
      note(file, r.prices.points.length, r.rejected);
      continue;
    }
    const g = parseGammaJson(raw, file);
    read += g.read;
    markets.push(...g.markets);
    note(file, g.markets.length, g.rejected);
  }
  // CSV markets: outcomes and dates come from their price rows
  const pricesByMarket = new Map<string, PmTokenPrices[]>();
  for (const tp of tokenPrices)
    if (tp.market) pricesByMarket.set(tp.market, [...(pricesByMarket.get(tp.market) ?? []), tp]);
  for (const { m, file } of csvMarkets) {
    const r = csvMarket(m, file, pricesByMarket.get(m.market_id) ?? []);
    if ("reason" in r) note(file, 0, [r]);
    else {
      markets.push(r);
      note(file, 1, []);
    }
  }
  // one market per id (the first source wins)
  const byId = new Map<string, PmMarket>();
  let duplicates = 0;
  for (const m of markets) {
    const first = byId.get(m.id);
    if (first) {
      duplicates++;
      note(m.file, -1, [
        { file: m.file, line: m.line, reason: `market ${m.id} already read from ${first.file} (the first is kept)` },
      ]);
    } else byId.set(m.id, m);
  }
  const tokenOwner = new Map<string, { market: PmMarket; outcome: string }>();
  for (const m of byId.values())
    for (const [i, t] of m.tokens.entries()) tokenOwner.set(t, { market: m, outcome: m.outcomes[i] as string });
  // price series per market and outcome
  const series = new Map<string, Map<string, PricePoint[]>>();
  for (const tp of tokenPrices) {
    const own = tokenOwner.get(tp.token);
    if (!own) {
      note(tp.file, -tp.points.length, [
        {
          file: tp.file,
          line: 0,
          reason: `token ${tp.token} is not a token of any imported market (${tp.points.length} points dropped)`,
        },
      ]);
      continue;
    }
    const s = series.get(own.market.id) ?? new Map<string, PricePoint[]>();
    s.set(own.outcome, [...(s.get(own.outcome) ?? []), ...tp.points]);
    series.set(own.market.id, s);
  }
  // A market whose source names no scheduled end (the CSV has no end_date; some Gamma rows lack
  // endDate) is given the import's horizon, the last instant any price or close of the import
  // covers: its own last price point or close time would tell the agent, from the market's first
  // day, when it stopped trading (for an early resolution, that it resolved and when).
  let horizon = Number.NEGATIVE_INFINITY;
  for (const s of series.values()) for (const pts of s.values()) for (const p of pts) horizon = Math.max(horizon, p.t);
  for (const m of byId.values()) if (m.closedAt !== null) horizon = Math.max(horizon, m.closedAt);
  const marketRows: MarketRow[] = [];
  const priceRows: MarketPriceRow[] = [];
  const resolutions: MarketResolutionRow[] = [];
  const breakpoints: BreakpointRow[] = [];
  const labels: LabelRow[] = [];
  let repeats = 0;
  let complements = 0;
  let closedUnresolved = 0;
  let forecastQuestions = 0;
  let minT = Number.POSITIVE_INFINITY;
  let maxT = Number.NEGATIVE_INFINITY;
  for (const m of byId.values()) {
    const s = series.get(m.id) ?? new Map<string, PricePoint[]>();
    const clean = new Map<string, PricePoint[]>();
    for (const [o, pts] of s) {
      const r = sparse(pts);
      repeats += r.dropped;
      clean.set(o, r.points);
    }
    if (m.outcomes.length === 2 && clean.size === 1) {
      const [have, pts] = [...clean.entries()][0] as [string, PricePoint[]];
      const other = m.outcomes.find((o) => o !== have) as string;
      clean.set(
        other,
        pts.map((p) => ({ t: p.t, p: round6(1 - p.p) })),
      );
      complements += pts.length;
    }
    const allT = [...clean.values()].flat().map((p) => p.t);
    const firstT = allT.length ? Math.min(...allT) : null;
    const lastT = allT.length ? Math.max(...allT) : null;
    const open = m.open ?? firstT;
    // when the market stopped: its close, else its last price point (the CSV's resolution time)
    const stopped = m.end ?? m.closedAt ?? lastT;
    if (open === null || stopped === null) {
      note(m.file, -1, [
        { file: m.file, line: m.line, reason: `market ${m.id}: no open or end date and no price history` },
      ]);
      continue;
    }
    marketRows.push({
      id: m.id,
      question: m.question,
      description: m.description,
      outcomes: m.outcomes,
      open,
      scheduled_end: m.end ?? Math.max(open, horizon),
      visible_at: open,
    });
    for (const o of m.outcomes)
      for (const p of clean.get(o) ?? []) {
        priceRows.push({ market: m.id, outcome: o, t: p.t, p: p.p, visible_at: p.t + delay });
        if (p.t < minT) minT = p.t;
        if (p.t > maxT) maxT = p.t;
      }
    const first = clean.get(m.outcomes[0] as string);
    if (first) breakpoints.push(...detectBreakpoints(m.id, first, params));
    if (m.closed && m.result === null) closedUnresolved++;
    if (m.result !== null) {
      const closedAt = m.closedAt ?? stopped;
      resolutions.push({ market: m.id, closed_at: closedAt, result: m.result, visible_at: closedAt });
      if (m.outcomes.length === 2) forecastQuestions++;
      const win = clean.get(m.result);
      const tDet = win ? detectionTime(win) : null;
      if (tDet !== null) labels.push({ kind: "t_det", key: m.id, t: tDet, value: { outcome: m.result } });
    }
  }
  for (const [file, f] of perFile)
    sink.addSource({ path: file, sha256: await fileSha256(file), rows: f.rows, rejected: f.rejected });
  refuseIfEmpty("markets", read, marketRows.length, rejected);
  sink.insert("market", marketRows);
  for (let i = 0; i < priceRows.length; i += 5000) sink.insert("market_price", priceRows.slice(i, i + 5000));
  sink.insert("market_resolution", resolutions);
  sink.insertTruth("breakpoint", breakpoints);
  sink.insertTruth("label", [
    ...labels,
    { kind: BREAKPOINT_PARAMS_LABEL, key: "polymarket", t: null, value: { ...params, price_delay_ms: delay } },
  ]);
  if (priceRows.length > 0) sink.setWindow({ start: startOfUtcDay(minT), end: nextUtcMidnight(maxT) });
  else {
    const ts = marketRows.flatMap((r) => [r.open, r.scheduled_end]).concat(resolutions.map((r) => r.closed_at));
    sink.setWindow({ start: Math.min(...ts), end: Math.max(...ts) });
  }
  return {
    read,
    imported: marketRows.length,
    rejected,
    counts: {
      markets: marketRows.length,
      priced_markets: series.size,
      price_points: priceRows.length,
      repeated_prices_dropped: repeats,
      complement_points: complements,
      resolved: resolutions.length,
      closed_unresolved: closedUnresolved,
      duplicates,
      breakpoints: breakpoints.length,
      t_det: labels.length,
      forecast_questions: forecastQuestions,
    },
  };
}

type CsvMarketRow = {
  market_id: string;
  question: string;
  description: string;
  closed: boolean;
  created_at: string;
  end_date: string;
  clob_token_ids: string[];
  line: number;
};

/** A CSV market: outcome names by token from the prices CSV; result inferred from the final prices. */
function csvMarket(m: CsvMarketRow, file: string, prices: PmTokenPrices[]): PmMarket | RejectedRow {
  if (prices.length === 0)
    return {
      file,
      line: m.line,
      reason: `market ${m.market_id}: no price rows (the CSV gives its outcomes only there)`,
    };
  const outcomeOf = new Map(prices.map((p) => [p.token, p.outcome as string]));
  const tokens = m.clob_token_ids.length > 0 ? m.clob_token_ids : prices.map((p) => p.token);
  const outcomes = tokens.map((t) => outcomeOf.get(t));
  if (outcomes.some((o) => o === undefined) || outcomes.length < 2)
    return { file, line: m.line, reason: `market ${m.market_id}: price rows do not name an outcome for every token` };
  const finals = tokens.map((t) => {
    const pts = (prices.find((p) => p.token === t) as PmTokenPrices).points;
    return pts.reduce((a, b) => (b.t >= a.t ? b : a)).p;
  });
  const lastT = Math.max(...prices.flatMap((p) => p.points.map((x) => x.t)));
  const [result, why] = m.closed ? inferResult(outcomes as string[], finals, undefined) : [null, null];
  return {
    id: m.market_id,
    question: m.question,
    description: m.description,
    outcomes: outcomes as string[],
    tokens,
    open: m.created_at ? Date.parse(m.created_at) || null : null,
    end: m.end_date ? Date.parse(m.end_date) || null : null,
    closed: m.closed,
    closedAt: result !== null ? lastT : null,
    result,
    unresolvedReason: why,
    file,
    line: m.line,
  };
}
