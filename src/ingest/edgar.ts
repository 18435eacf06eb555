import { DateTime } from "luxon";
import { z } from "zod";
import type { CompanyRow, FilingRow, XbrlFactRow } from "../world/types.js";
import type { RejectedRow } from "./kraken-ohlcvt.js";

/**
 * Parsers of the SEC EDGAR JSON API payloads (data.sec.gov): `submissions/CIK##########.json` and
 * `api/xbrl/companyfacts/CIK##########.json`, for any company. EDGAR's `acceptanceDateTime` is the
 * US-Eastern wall clock written with a `Z` ("2022-02-04T20:11:27.000Z" is 20:11:27 in New York):
 * it is converted here to the true UTC instant (America/New_York, daylight saving included).
 */

export const EDGAR_ZONE = "America/New_York";

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ACCESSION = /^\d{10}-\d{2}-\d{6}$/;
const EDGAR_STAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d{1,3})?Z$/;

/** A 10-digit, zero-padded CIK from a number or a string of digits. */
export function padCik(cik: string | number): string {
  const s = String(cik).trim();
  if (!/^\d{1,10}$/.test(s)) throw new RangeError(`not a CIK: ${JSON.stringify(cik)}`);
  return s.padStart(10, "0");
}

/**
 * The true UTC instant of an EDGAR `acceptanceDateTime` (US-Eastern wall clock despite its `Z`).
 * A wall time in the spring-forward gap is moved forward by an hour, an ambiguous fall-back time
 * is read as daylight time (luxon's rules); EDGAR accepts filings only 06:00–22:00 ET, where
 * neither happens.
 */
export function edgarAcceptanceToUtc(stamp: string): number {
  const m = EDGAR_STAMP.exec(stamp);
  if (!m) throw new RangeError(`not an EDGAR acceptanceDateTime: ${JSON.stringify(stamp)}`);
  const dt = DateTime.fromISO(`${m[1]}${m[2] ?? ""}`, { zone: EDGAR_ZONE });
  if (!dt.isValid) throw new RangeError(`not a valid date-time: ${JSON.stringify(stamp)}`);
  return dt.toMillis();
}

/** The EDGAR `acceptanceDateTime` of a true UTC instant: the New York wall clock, written with `.000Z`. */
export function utcToEdgarAcceptance(t: number): string {
  return DateTime.fromMillis(t, { zone: EDGAR_ZONE }).toFormat("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'");
}

/**
 * The latest instant a filing with EDGAR filing date `filed` can have been accepted: 22:00 New York
 * time that day (EDGAR closes then; later submissions get the next filing date). Used as the
 * visibility of facts whose filing is not in the submissions file (older filings).
 */
export function filedDateUpperBound(filed: string): number {
  const dt = DateTime.fromISO(`${filed}T22:00:00`, { zone: EDGAR_ZONE });
  if (!ISO_DATE.test(filed) || !dt.isValid) throw new RangeError(`not a filing date: ${JSON.stringify(filed)}`);
  return dt.toMillis();
}

function issueText(e: z.ZodError): string {
  const i = e.issues[0];
  return i ? `${i.path.length ? `${i.path.join(".")}: ` : ""}${i.message}` : "invalid row";
}

// ---- submissions -----------------------------------------------------------------------------

/**
 * The parallel arrays of `filings.recent` (and of a `filings.files` page, where they are the top
 * level). Required in every schema: accession, filing date, acceptance, form. `reportDate` and
 * `items` are absent from some payloads (pages of old filers): an absent array reads as "" for
 * every row. Newer payloads add arrays (`core_type`, `isXBRLNumeric`, …): kept loose, not read.
 */
const FilingArrays = z.looseObject({
  accessionNumber: z.array(z.string()),
  filingDate: z.array(z.string()),
  reportDate: z.array(z.string()).optional(),
  acceptanceDateTime: z.array(z.string()),
  form: z.array(z.string()),
  items: z.array(z.string()).optional(),
});
type FilingArrays = z.infer<typeof FilingArrays>;

/**
 * The company document. Both schemas are read: the one served to 2022 (the two shared samples)
 * and the newer one (adds `ownerOrg`, `lei`, and arrays such as `core_type` and `isXBRLNumeric` to
 * `filings.recent`); every field beyond these is ignored. `tickers` may be absent or empty (a
 * deregistered company): the ticker is then "".
 */
const SubmissionsFile = z.looseObject({
  cik: z.union([z.string(), z.number()]),
  name: z.string().min(1),
  tickers: z.array(z.string()).optional(),
  formerNames: z.array(z.unknown()).optional(),
  filings: z.looseObject({
    recent: FilingArrays,
    files: z.array(z.looseObject({ name: z.string() })).optional(),
  }),
});

const SubmissionRow = z.object({
  accessionNumber: z.string().regex(ACCESSION, "must look like 0000950170-22-019867"),
  filingDate: z.string().regex(ISO_DATE, "must be YYYY-MM-DD"),
  reportDate: z.union([z.literal(""), z.string().regex(ISO_DATE, "must be YYYY-MM-DD or empty")]),
  acceptanceDateTime: z.string().regex(EDGAR_STAMP, "must look like 2022-10-24T06:08:50.000Z"),
  form: z.string().min(1),
  items: z.string(),
});

export interface ParsedSubmissions {
  /** the company under its current name, visible from its first accepted filing of this file */
  company: CompanyRow;
  /** the file's `formerNames`, validated (`companyNameRows` turns them into dated company rows) */
  formerNames: FormerName[];
  filings: FilingRow[];
  rejected: RejectedRow[];
  /** names of the older pages listed in `filings.files` (`CIK##########-submissions-001.json`, …) */
  pages: string[];
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`${file}: not JSON (${(e as Error).message})`);
  }
}

/** Rows of one block of parallel arrays (refused when their lengths differ); rejects with the array index. */
function filingRows(
  r: FilingArrays,
  cik: string,
  file: string,
  where: string,
  known: ReadonlySet<string> = new Set(),
): { filings: FilingRow[]; rejected: RejectedRow[] } {
  const n = r.accessionNumber.length;
  for (const k of ["filingDate", "reportDate", "acceptanceDateTime", "form", "items"] as const) {
    const a = r[k];
    if (a !== undefined && a.length !== n)
      throw new Error(`${file}: ${where}${k} has ${a.length} entries, accessionNumber has ${n}`);
  }
  const filings: FilingRow[] = [];
  const rejected: RejectedRow[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < n; i++) {
    const row = SubmissionRow.safeParse({
      accessionNumber: r.accessionNumber[i],
      filingDate: r.filingDate[i],
      reportDate: r.reportDate ? r.reportDate[i] : "",
      acceptanceDateTime: r.acceptanceDateTime[i],
      form: r.form[i],
      items: r.items ? r.items[i] : "",
    });
    if (!row.success) {
      rejected.push({ file, line: i, reason: issueText(row.error) });
      continue;
    }
    const x = row.data;
    if (seen.has(x.accessionNumber) || known.has(x.accessionNumber)) {
      rejected.push({
        file,
        line: i,
        reason: `repeated accession ${x.accessionNumber}${known.has(x.accessionNumber) ? " (already read from another file of this company)" : ""}`,
      });
      continue;
    }
    let accepted: number;
    try {
      accepted = edgarAcceptanceToUtc(x.acceptanceDateTime);
    } catch (e) {
      rejected.push({ file, line: i, reason: (e as Error).message });
      continue;
    }
    seen.add(x.accessionNumber);
    filings.push({
      cik,
      accession: x.accessionNumber,
      form: x.form,
      items: x.items,
      filed: x.filingDate,
      accepted_at: accepted,
      report_date: x.reportDate,
      visible_at: accepted,
    });
  }
  filings.sort((a, b) => a.accepted_at - b.accepted_at || (a.accession < b.accession ? -1 : 1));
  return { filings, rejected };
}

/** One entry of a submissions file's `formerNames` (the EDGAR API writes the dates as midnight UTC instants). */
const FormerName = z.object({
  name: z.string().min(1),
  from: z.union([z.string(), z.null()]).optional(),
  to: z.string(),
});

export interface FormerName {
  name: string;
  /** UTC ms the name took effect (null: not given) */
  from: number | null;
  /** UTC ms the name stopped being the company's */
  to: number;
}

function parseInstant(v: string, file: string, where: string): number {
  const t = Date.parse(v);
  if (!/^\d{4}-\d{2}-\d{2}/.test(v) || !Number.isFinite(t))
    throw new Error(`${file}: ${where} must be an ISO date-time, got ${JSON.stringify(v)}`);
  return t;
}

/** `formerNames` of a submissions file, validated (a bad entry names its index and field). */
export function parseFormerNames(raw: readonly unknown[], file: string): FormerName[] {
  return raw.map((x, i) => {
    const r = FormerName.safeParse(x);
    if (!r.success) throw new Error(`${file}: formerNames[${i}]: ${issueText(r.error)}`);
    const from = r.data.from ? parseInstant(r.data.from, file, `formerNames[${i}].from`) : null;
    const to = parseInstant(r.data.to, file, `formerNames[${i}].to`);
    if (from !== null && from > to) throw new Error(`${file}: formerNames[${i}]: from is after to`);
    return { name: r.data.name, from, to };
  });
}

/**
 * A company's name history as dated `company` rows (DESIGN invariant 2: the name served at `now` is
 * the one valid then): each former name from when it took effect, the current name from the end of
 * the latest former name, none before `firstVisible` (the company's first accepted filing; a row
 * that would start earlier starts then). A name superseded before it could become visible is left
 * out, so the rows' `visible_at` strictly increase. EDGAR keeps no ticker history: every row carries
 * the current ticker.
 */
export function companyNameRows(
  current: CompanyRow,
  former: readonly FormerName[],
  firstVisible: number,
): CompanyRow[] {
  const spans = [...former].sort((a, b) => a.to - b.to || (a.from ?? a.to) - (b.from ?? b.to));
  const rows: CompanyRow[] = [];
  const push = (name: string, t: number) => {
    const visible_at = Math.max(t, firstVisible);
    while (rows.length > 0 && rows[rows.length - 1]!.visible_at >= visible_at) rows.pop();
    rows.push({ cik: current.cik, ticker: current.ticker, name, visible_at });
  };
  // a former name is valid from its `from` (or, unknown, from the previous name's end)
  let prevEnd = Number.NEGATIVE_INFINITY;
  for (const f of spans) {
    push(f.name, f.from ?? prevEnd);
    prevEnd = f.to;
  }
  push(current.name, prevEnd);
  return rows;
}

/**
 * One company's submissions file → its company row and one filing row per entry of
 * `filings.recent` (the parallel arrays; the older pages named in `filings.files` are read by
 * `parseEdgarSubmissionsPage`). A filing is visible at its true-UTC acceptance. The company row is
 * visible from its first accepted filing. Rows that fail validation (or repeat an accession) are
 * rejected with their array index.
 */
export function parseEdgarSubmissions(text: string, file: string): ParsedSubmissions {
  const top = SubmissionsFile.safeParse(parseJson(text, file));
  if (!top.success) throw new Error(`${file}: not an EDGAR submissions payload (${issueText(top.error)})`);
  const s = top.data;
  const cik = padCik(s.cik);
  const { filings, rejected } = filingRows(s.filings.recent, cik, file, "filings.recent.");
  const first = filings[0]?.accepted_at;
  if (first === undefined) throw new Error(`${file}: no valid filing in filings.recent`);
  const company = { cik, ticker: s.tickers?.[0] ?? "", name: s.name, visible_at: first };
  return {
    company,
    formerNames: parseFormerNames(s.formerNames ?? [], file),
    filings,
    rejected,
    pages: (s.filings.files ?? []).map((f) => f.name),
  };
}

/**
 * An older page of a company's submissions (`submissions/CIK##########-submissions-001.json`, named
 * in `filings.files`): the same parallel arrays at the top level, no company document. `cik` is
 * the company's (from its main file): the page does not carry it. Accessions in `known` (already
 * read from the company's other files) are rejected as repeats.
 */
export function parseEdgarSubmissionsPage(
  text: string,
  file: string,
  cik: string,
  known: ReadonlySet<string> = new Set(),
): { filings: FilingRow[]; rejected: RejectedRow[] } {
  const top = FilingArrays.safeParse(parseJson(text, file));
  if (!top.success) throw new Error(`${file}: not an EDGAR submissions page (${issueText(top.error)})`);
  return filingRows(top.data, padCik(cik), file, "", known);
}

// ---- companyfacts ----------------------------------------------------------------------------

const CompanyFactsFile = z.looseObject({
  cik: z.union([z.string(), z.number()]),
  entityName: z.string(),
  facts: z.record(
    z.string(),
    z.record(z.string(), z.looseObject({ units: z.record(z.string(), z.array(z.unknown())) })),
  ),
});

const FactEntry = z.looseObject({
  start: z.string().regex(ISO_DATE, "must be YYYY-MM-DD").optional(),
  end: z.string().regex(ISO_DATE, "must be YYYY-MM-DD"),
  val: z.number().finite(),
  accn: z.string().regex(ACCESSION, "must look like 0000950170-22-019867"),
  fy: z.number().int().nullable().optional(),
  fp: z.string().nullable().optional(),
  form: z.string().min(1),
  filed: z.string().regex(ISO_DATE, "must be YYYY-MM-DD"),
});

export interface ParsedFacts {
  cik: string;
  facts: XbrlFactRow[];
  rejected: RejectedRow[];
  /** facts whose accession is not in `acceptedByAccn`: visible at 22:00 New York time of their filing date */
  boundedByFiledDate: number;
}

/**
 * One company's companyfacts file → one fact row per entry of `facts.<taxonomy>.<concept>.units.<unit>[]`.
 * A fact is visible when the filing carrying its accession was accepted (`acceptedByAccn`, from
 * the submissions file); a fact of a filing not listed there (older pages) becomes visible at 22:00
 * New York time of its `filed` date, the latest acceptance that filing date allows. Labels,
 * descriptions and frames are not kept. Bad entries are rejected with their
 * `taxonomy/concept/unit[index]` as the line.
 */
export function parseEdgarCompanyFacts(
  text: string,
  file: string,
  acceptedByAccn: ReadonlyMap<string, number>,
): ParsedFacts {
  const top = CompanyFactsFile.safeParse(parseJson(text, file));
  if (!top.success) throw new Error(`${file}: not an EDGAR companyfacts payload (${issueText(top.error)})`);
  const cik = padCik(top.data.cik);
  const facts: XbrlFactRow[] = [];
  const rejected: RejectedRow[] = [];
  let bounded = 0;
  let index = 0;
  for (const taxonomy of Object.keys(top.data.facts).sort()) {
    const concepts = top.data.facts[taxonomy] ?? {};
    for (const concept of Object.keys(concepts).sort()) {
      const units = concepts[concept]?.units ?? {};
      for (const unit of Object.keys(units).sort()) {
        (units[unit] ?? []).forEach((entry, i) => {
          index++;
          const where = `${taxonomy}/${concept}/${unit}[${i}]`;
          const f = FactEntry.safeParse(entry);
          if (!f.success) {
            rejected.push({ file, line: index, reason: `${where}: ${issueText(f.error)}` });
            return;
          }
          const x = f.data;
          let visible = acceptedByAccn.get(x.accn);
          if (visible === undefined) {
            visible = filedDateUpperBound(x.filed);
            bounded++;
          }
          facts.push({
            cik,
            taxonomy,
            concept,
            unit,
            start: x.start ?? null,
            end: x.end,
            val: x.val,
            accn: x.accn,
            fy: x.fy ?? null,
            fp: x.fp ?? null,
            form: x.form,
            filed: x.filed,
            visible_at: visible,
          });
        });
      }
    }
  }
  return { cik, facts, rejected, boundedByFiledDate: bounded };
}
