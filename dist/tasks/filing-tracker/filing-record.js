import { z } from "zod";
import { isoInstant } from "../../kernel/day.js";
const RECORD_FORMS = ["8-K", "10-Q", "10-K"];
const FISCAL_PERIODS = ["Q1", "Q2", "Q3", "Q4", "FY"];
const ACCESSION = /^\d{10}-\d{2}-\d{6}$/;
const UTC_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z$/;
const FilingRecordInput = z.object({
  ticker: z.string().trim().regex(/^[A-Za-z][A-Za-z0-9.-]{0,9}$/, "must be 1\u201310 letters, digits, dots or dashes").transform((s) => s.toUpperCase()),
  accession: z.string().trim().regex(ACCESSION, "must look like 0000950170-22-019867"),
  form: z.enum(RECORD_FORMS),
  accepted_at: z.string().trim().regex(UTC_TIME, "must be UTC with a Z, to the minute (2022-10-24T10:08Z)").refine((s) => Number.isFinite(Date.parse(s)), "is not a valid date-time"),
  fy: z.number().int().min(1900).max(2200).nullable().default(null),
  fp: z.enum(FISCAL_PERIODS).nullable().default(null),
  revenue: z.number().finite().nullable().default(null).describe("USD, for the period (10-Q: the quarter)"),
  eps_diluted: z.number().finite().nullable().default(null).describe("USD per share, diluted, for the period")
}).strict();
const recordKey = (r) => `${r.ticker}:${r.accession}`;
const issues = (e) => e.issues.map((i) => i.path.length === 0 ? i.message : `${i.path.join(".")}: ${i.message}`);
function parseRecord(input) {
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
      eps_diluted: x.eps_diluted
    }
  };
}
function numberField(s) {
  const t = s.trim().replace(/^\$/, "").replace(/[,_\s]/g, "");
  if (t === "") return null;
  return /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(t) ? Number(t) : Number.NaN;
}
function parseRecordForm(form) {
  const get = (k) => form.get(k) ?? "";
  const errors = [];
  const num = (k) => {
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
    eps_diluted: eps
  });
}
function recordJson(r) {
  return { ...r, accepted_at: isoInstant(r.accepted_at) };
}
export {
  FISCAL_PERIODS,
  FilingRecordInput,
  RECORD_FORMS,
  parseRecord,
  parseRecordForm,
  recordJson,
  recordKey
};
//# sourceMappingURL=filing-record.js.map
