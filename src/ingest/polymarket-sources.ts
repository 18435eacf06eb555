import { parse as parseCsv } from "csv-parse/sync";
import { z } from "zod";
import { zodReason } from "./import-report.js";
import type { RejectedRow } from "./kraken-ohlcvt.js";
import { parsePublishedAt } from "./news-jsonl.js";
import type { PricePoint } from "./polymarket-truth.js";

/** A market as read from any Polymarket source, before it becomes world rows. */
export interface PmMarket {
  id: string;
  question: string;
  description: string;
  outcomes: string[];
  /** CLOB token id per outcome (same order), when known */
  tokens: string[];
  open: number | null;
  end: number | null;
  closed: boolean;
  closedAt: number | null;
  /** the winning outcome when the source states it cleanly (Gamma `outcomePrices` 1/0, UMA resolved) */
  result: string | null;
  /** why a closed market has no result (null when it has one or is open) */
  unresolvedReason: string | null;
  file: string;
  line: number;
}

/** Price points of one CLOB token. */
export interface PmTokenPrices {
  token: string;
  /** set when the source names the market and outcome itself (the CSV); else resolved by token */
  market?: string;
  outcome?: string;
  points: PricePoint[];
  file: string;
}

/** Instants as Polymarket writes them: ISO with `Z`, with microseconds, or `2026-01-23 20:56:36+00`. */
export function pmInstant(s: string | null | undefined): number | null {
  if (s === null || s === undefined || s.trim() === "") return null;
  const fixed = s.trim().replace(/([+-]\d{2})$/, "$1:00");
  return parsePublishedAt(fixed);
}

/** A JSON-encoded string list (`"[\"Yes\", \"No\"]"`, Gamma's habit) or a real list. */
const StrList = z.union([
  z.array(z.union([z.string(), z.number()]).transform(String)),
  z.string().transform((s, ctx) => {
    try {
      const v = JSON.parse(s) as unknown;
      if (Array.isArray(v) && v.every((x) => typeof x === "string" || typeof x === "number")) return v.map(String);
    } catch {
      // reported below
    }
    ctx.addIssue({ code: "custom", message: "not a JSON list of strings" });
    return z.NEVER;
  }),
]);

const OptStr = z.string().nullish();

/** A Gamma `/markets` entry (the fields relive uses; extra fields ignored). */
export const GammaMarket = z.object({
  id: z.union([z.string().min(1), z.number().int()]).transform(String),
  question: z.string().min(1),
  description: OptStr,
  outcomes: StrList,
  outcomePrices: StrList.nullish(),
  clobTokenIds: StrList.nullish(),
  startDate: OptStr,
  createdAt: OptStr,
  endDate: OptStr,
  closedTime: OptStr,
  closed: z.boolean().nullish(),
  umaResolutionStatus: OptStr,
});

/** A Gamma `/events` entry: an event with its markets. */
const GammaEvent = z.object({ markets: z.array(z.unknown()) }).passthrough();

/**
 * Outcome inference for a closed market: the outcome whose final price is ≥ 0.99 while every other
 * is ≤ 0.01 (Gamma writes "1" / "0" once resolved), unless UMA says it is not resolved (proposed,
 * disputed). Returns [result, reason-if-none].
 */
export function inferResult(
  outcomes: readonly string[],
  finalPrices: readonly number[] | null,
  umaStatus: string | null | undefined,
): [string | null, string | null] {
  if (umaStatus && umaStatus !== "resolved") return [null, `UMA resolution status is ${JSON.stringify(umaStatus)}`];
  if (!finalPrices || finalPrices.length !== outcomes.length)
    return [null, "no final prices to infer the outcome from"];
  const win = finalPrices.findIndex((p) => p >= 0.99);
  if (win < 0 || finalPrices.some((p, i) => i !== win && p > 0.01))
    return [null, `final prices ${JSON.stringify(finalPrices)} name no single winner (void or 50-50 resolution)`];
  return [outcomes[win] as string, null];
}

function gammaToMarket(raw: unknown, file: string, line: number): PmMarket | RejectedRow {
  const g = GammaMarket.safeParse(raw);
  if (!g.success) return { file, line, reason: `gamma market: ${zodReason(g.error.issues)}` };
  const m = g.data;
  if (m.outcomes.length < 2) return { file, line, reason: `market ${m.id}: fewer than two outcomes` };
  const tokens = m.clobTokenIds ?? [];
  if (tokens.length > 0 && tokens.length !== m.outcomes.length)
    return { file, line, reason: `market ${m.id}: ${tokens.length} token ids for ${m.outcomes.length} outcomes` };
  const prices = m.outcomePrices ? m.outcomePrices.map(Number) : null;
  if (prices?.some((p) => !Number.isFinite(p)))
    return { file, line, reason: `market ${m.id}: outcomePrices are not numbers` };
  const closed = m.closed === true;
  const [result, why] = closed ? inferResult(m.outcomes, prices, m.umaResolutionStatus) : [null, null];
  return {
    id: m.id,
    question: m.question,
    description: m.description ?? "",
    outcomes: m.outcomes,
    tokens,
    open: pmInstant(m.startDate) ?? pmInstant(m.createdAt),
    end: pmInstant(m.endDate),
    closed,
    closedAt: pmInstant(m.closedTime),
    result,
    unresolvedReason: why,
    file,
    line,
  };
}

/**
 * A Gamma JSON file: a `/markets` array, a `/events` array, or one event object. `line` in
 * rejections is the 1-based index of the market in the file (events flattened in order).
 */
export function parseGammaJson(
  raw: unknown,
  file: string,
): { markets: PmMarket[]; rejected: RejectedRow[]; read: number } {
  const markets: PmMarket[] = [];
  const rejected: RejectedRow[] = [];
  const entries: unknown[] = [];
  const list = Array.isArray(raw) ? raw : [raw];
  for (const item of list) {
    const ev = GammaEvent.safeParse(item);
    if (ev.success) entries.push(...ev.data.markets);
    else entries.push(item);
  }
  entries.forEach((e, i) => {
    const r = gammaToMarket(e, file, i + 1);
    if ("reason" in r) rejected.push(r);
    else markets.push(r);
  });
  return { markets, rejected, read: entries.length };
}

const HistoryPoint = z.object({ t: z.number().finite().nonnegative(), p: z.number().min(0).max(1) });
/** The CLOB `/prices-history` body: `{"history":[{"t": epoch_s, "p": price}, …]}`. */
export const PricesHistory = z.object({ history: z.array(z.unknown()) });

export function parsePricesHistory(
  raw: z.infer<typeof PricesHistory>,
  token: string,
  file: string,
): { prices: PmTokenPrices; rejected: RejectedRow[]; read: number } {
  const points: PricePoint[] = [];
  const rejected: RejectedRow[] = [];
  raw.history.forEach((h, i) => {
    const p = HistoryPoint.safeParse(h);
    if (!p.success) rejected.push({ file, line: i + 1, reason: `history point: ${zodReason(p.error.issues)}` });
    else points.push({ t: Math.round(p.data.t * 1000), p: p.data.p });
  });
  return { prices: { token, points, file }, rejected, read: raw.history.length };
}

const BoolText = z.enum(["True", "False", "true", "false", ""]).transform((s) => s.toLowerCase() === "true");
/** A row of the Betting-on-War markets CSV (Gamma fields flattened by its collector). */
const CsvMarket = z.object({
  market_id: z.string().min(1),
  question: z.string().min(1),
  description: z.string(),
  closed: BoolText,
  created_at: z.string(),
  end_date: z.string(),
  clob_token_ids: StrList,
});
/** A row of its prices CSV: one CLOB prices-history point. */
const CsvPrice = z.object({
  market_id: z.string().min(1),
  token_id: z.string().regex(/^\d+$/, "not a CLOB token id"),
  outcome: z.string().min(1),
  timestamp: z.string().regex(/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}$/, "not a `YYYY-MM-DD hh:mm:ss` UTC time"),
  price: z
    .string()
    .regex(/^\d+(\.\d+)?([eE]-?\d+)?$/, "not a decimal")
    .transform(Number)
    .pipe(z.number().min(0).max(1)),
});

export type CsvShape = "markets" | "prices" | "unknown";

export function csvShape(header: readonly string[]): CsvShape {
  const h = new Set(header);
  if (h.has("token_id") && h.has("price") && h.has("timestamp")) return "prices";
  if (h.has("market_id") && h.has("question") && h.has("clob_token_ids")) return "markets";
  return "unknown";
}

/**
 * The CSV shape of the shared sample (a Gamma + CLOB collector's flat files): markets CSV rows give
 * id, question, description, closed and token ids (no outcomes, no dates: both come from the
 * prices CSV, `outcome` per token, first and last point); prices CSV rows give one point each.
 * `line` is the 1-based file line (header = 1).
 */
export function parseCsvFile(
  text: string,
  file: string,
):
  | { shape: "markets"; rows: (z.infer<typeof CsvMarket> & { line: number })[]; rejected: RejectedRow[]; read: number }
  | { shape: "prices"; rows: (z.infer<typeof CsvPrice> & { line: number })[]; rejected: RejectedRow[]; read: number }
  | { shape: "unknown"; header: string[] } {
  const records = parseCsv(text, { columns: true, skip_empty_lines: true, relax_column_count: true, info: true }) as {
    record: Record<string, string>;
    info: { lines: number };
  }[];
  const header = records[0] ? Object.keys(records[0].record) : (text.split(/\r?\n/)[0] ?? "").split(",");
  const shape = csvShape(header);
  const rejected: RejectedRow[] = [];
  switch (shape) {
    case "markets": {
      const rows: (z.infer<typeof CsvMarket> & { line: number })[] = [];
      for (const { record, info } of records) {
        const r = CsvMarket.safeParse(record);
        if (r.success) rows.push({ ...r.data, line: info.lines });
        else rejected.push({ file, line: info.lines, reason: `markets CSV: ${zodReason(r.error.issues)}` });
      }
      return { shape, rows, rejected, read: records.length };
    }
    case "prices": {
      const rows: (z.infer<typeof CsvPrice> & { line: number })[] = [];
      for (const { record, info } of records) {
        const r = CsvPrice.safeParse(record);
        if (r.success) rows.push({ ...r.data, line: info.lines });
        else rejected.push({ file, line: info.lines, reason: `prices CSV: ${zodReason(r.error.issues)}` });
      }
      return { shape, rows, rejected, read: records.length };
    }
    case "unknown":
      return { shape, header };
  }
}
