import { z } from "zod";
import { isoInstant } from "../../common/time.js";

/**
 * A row of the filings portal, keyed by (ticker, accession). One schema for the portal's form and
 * API, the `record_filing` tool and the scorer (which re-parses every saved body itself).
 */

export const RECORD_FORMS = ["8-K", "10-Q", "10-K"] as const;
export const FISCAL_PERIODS = ["Q1", "Q2", "Q3", "Q4", "FY"] as const;
export type RecordForm = (typeof RECORD_FORMS)[number];
export type FiscalPeriod = (typeof FISCAL_PERIODS)[number];

const ACCESSION = /^\d{10}-\d{2}-\d{6}$/;
/** UTC with a Z, minutes required, seconds optional: 2022-10-24T10:08Z or 2022-10-24T10:08:50Z */
const UTC_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z$/;

/** The record as the API and `record_filing` take it (JSON). */
export const FilingRecordInput = z
  .object({
    ticker: z
      .string()
      .trim()
      .regex(/^[A-Za-z][A-Za-z0-9.-]{0,9}$/, "must be 1–10 letters, digits, dots or dashes")
      .transform((s) => s.toUpperCase()),
    accession: z.string().trim().regex(ACCESSION, "must look like 0000950170-22-019867"),
    form: z.enum(RECORD_FORMS),
    accepted_at: z
      .string()
      .trim()
      .regex(UTC_TIME, "must be UTC with a Z, to the minute (2022-10-24T10:08Z)")
      .refine((s) => Number.isFinite(Date.parse(s)), "is not a valid date-time"),
    fy: z.number().int().min(1900).max(2200).nullable().default(null),
    fp: z.enum(FISCAL_PERIODS).nullable().default(null),
    revenue: z.number().finite().nullable().default(null).describe("USD, for the period (10-Q: the quarter)"),
    eps_diluted: z.number().finite().nullable().default(null).describe("USD per share, diluted, for the period"),
  })
  .strict();
export type FilingRecordInput = z.input<typeof FilingRecordInput>;

export interface FilingRecord {
  ticker: string;
  accession: string;
  form: RecordForm;
  /** UTC epoch ms */
  accepted_at: number;
  fy: number | null;
  fp: FiscalPeriod | null;
  revenue: number | null;
  eps_diluted: number | null;
}

export const recordKey = (r: { ticker: string; accession: string }) => `${r.ticker}:${r.accession}`;

export type RecordParse = { ok: true; record: FilingRecord } | { ok: false; errors: string[] };

const issues = (e: z.ZodError) =>
  e.issues.map((i) => (i.path.length === 0 ? i.message : `${i.path.join(".")}: ${i.message}`));

/** Validate a JSON record (API, tool, scorer). */
export function parseRecord(input: unknown): RecordParse {
  const p = FilingRecordInput.safeParse(input);
  if (!p.success) return { ok: false, errors: issues(p.error) };
  const x = p.data;
  return {
    ok: true,
    record: {
      ticker: x.ticker,
      accession: x.accession,
      form: x.form,
      accepted_at: Date.parse(x.accepted_at),
      fy: x.fy,
      fp: x.fp,
      revenue: x.revenue,
      eps_diluted: x.eps_diluted,
    },
  };
}

/** "18,756,000,000" / "$2.86" / " -0.5 " → number; "" → null; anything else → NaN (rejected) */
function numberField(s: string): number | null {
  const t = s
    .trim()
    .replace(/^\$/, "")
    .replace(/[,_\s]/g, "");
  if (t === "") return null;
  return /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(t) ? Number(t) : Number.NaN;
}

/**
 * Validate the portal's form body (application/x-www-form-urlencoded): empty optional fields are
 * null, numbers may carry thousands separators and a leading "$". Unknown fields are ignored.
 */
export function parseRecordForm(form: URLSearchParams): RecordParse {
  const get = (k: string) => form.get(k) ?? "";
  const errors: string[] = [];
  const num = (k: "fy" | "revenue" | "eps_diluted") => {
    const v = numberField(get(k));
    if (v !== null && !Number.isFinite(v)) {
      errors.push(`${k}: not a number: ${JSON.stringify(get(k))}`);
      return null;
    }
    return v;
  };
  const fy = num("fy");
  const revenue = num("revenue");
  const eps = num("eps_diluted");
  const fp = get("fp").trim();
  if (errors.length) return { ok: false, errors };
  return parseRecord({
    ticker: get("ticker"),
    accession: get("accession"),
    form: get("form").trim(),
    accepted_at: get("accepted_at"),
    fy,
    fp: fp === "" ? null : fp.toUpperCase(),
    revenue,
    eps_diluted: eps,
  });
}

/** The record as the portal shows and returns it (ISO times). */
export function recordJson(r: FilingRecord) {
  return { ...r, accepted_at: isoInstant(r.accepted_at) };
}
