import type { CompanyRow, FilingRow, XbrlFactRow } from "../../../world/types.js";
import { edgarStamp } from "../edgar-time.js";

/**
 * The SEC JSON API's payload shapes, built from as-of rows. Fields the world does not store are
 * filled deterministically (README, "SEC replay"): company metadata other than cik, name and
 * ticker is empty; a filing's act is "34" for 8-K/10-Q/10-K families, file and film numbers are
 * empty, size 0, isXBRL/isInlineXBRL 1 for the 8-K/10-Q/10-K families (0 otherwise), the primary
 * document is named like a real 10-Q's; concept labels are the tag split into words, descriptions null,
 * frames omitted.
 */

/** "CIK0001318605" → "0001318605" (null unless exactly 10 digits) */
export function cikOfSegment(seg: string, suffix: string): string | null {
  const m = new RegExp(`^CIK(\\d{10})${suffix.replace(".", "\\.")}$`).exec(seg);
  return m ? m[1]! : null;
}

/** `/files/company_tickers.json`: {"0": {cik_str, ticker, title}, ...} in CIK order */
export function companyTickersPayload(companies: readonly CompanyRow[]) {
  const out: Record<string, { cik_str: number; ticker: string; title: string }> = {};
  [...companies]
    .sort((a, b) => (a.cik < b.cik ? -1 : a.cik > b.cik ? 1 : 0))
    .forEach((c, i) => {
      out[String(i)] = { cik_str: Number(c.cik), ticker: c.ticker, title: c.name };
    });
  return out;
}

const compact = (d: string) => d.replace(/-/g, "");
const EXCHANGE_ACT = /^(8-K|10-Q|10-K)(\/A)?$/;

function primaryDocument(f: FilingRow, ticker: string): string {
  const t = ticker.toLowerCase() || "doc";
  if (/^10-[QK]/.test(f.form)) return `${t}-${compact(f.report_date || f.filed)}.htm`;
  if (/^8-K/.test(f.form)) return `${t}-8k_${compact(f.report_date || f.filed)}.htm`;
  return `${compact(f.accession)}.txt`;
}

/** "1231" from the latest 10-K's report date, "" when none is visible */
function fiscalYearEnd(filings: readonly FilingRow[]): string {
  const k = [...filings].reverse().find((f) => f.form === "10-K" && f.report_date.length === 10);
  return k ? `${k.report_date.slice(5, 7)}${k.report_date.slice(8, 10)}` : "";
}

const address = () => ({
  street1: null,
  street2: null,
  city: null,
  stateOrCountry: null,
  zipCode: null,
  stateOrCountryDescription: null,
});

/**
 * `/submissions/CIK##########.json`: company metadata and `filings.recent` as parallel arrays,
 * newest first. `filings` are the visible rows in ascending acceptance order.
 */
export function submissionsPayload(company: CompanyRow, filings: readonly FilingRow[]) {
  const recent = [...filings].reverse();
  const col = <T>(f: (x: FilingRow) => T) => recent.map(f);
  return {
    cik: String(Number(company.cik)),
    entityType: "operating",
    sic: "",
    sicDescription: "",
    insiderTransactionForOwnerExists: 0,
    insiderTransactionForIssuerExists: 0,
    name: company.name,
    tickers: [company.ticker],
    exchanges: [""],
    ein: "",
    description: "",
    website: "",
    investorWebsite: "",
    category: "",
    fiscalYearEnd: fiscalYearEnd(filings),
    stateOfIncorporation: "",
    stateOfIncorporationDescription: "",
    addresses: { mailing: address(), business: address() },
    phone: "",
    flags: "",
    formerNames: [],
    filings: {
      recent: {
        accessionNumber: col((f) => f.accession),
        filingDate: col((f) => f.filed),
        reportDate: col((f) => f.report_date),
        acceptanceDateTime: col((f) => edgarStamp(f.accepted_at)),
        act: col((f) => (EXCHANGE_ACT.test(f.form) ? "34" : "")),
        form: col((f) => f.form),
        fileNumber: col(() => ""),
        filmNumber: col(() => ""),
        items: col((f) => f.items),
        size: col(() => 0),
        isXBRL: col((f) => (EXCHANGE_ACT.test(f.form) ? 1 : 0)),
        isInlineXBRL: col((f) => (EXCHANGE_ACT.test(f.form) ? 1 : 0)),
        primaryDocument: col((f) => primaryDocument(f, company.ticker)),
        primaryDocDescription: col((f) => f.form),
      },
      files: [],
    },
  };
}

/** "EarningsPerShareDiluted" → "Earnings Per Share Diluted" */
export function conceptLabel(tag: string): string {
  return tag
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .trim();
}

type FactJson = {
  start?: string;
  end: string;
  val: number;
  accn: string;
  fy: number | null;
  fp: string | null;
  form: string;
  filed: string;
};

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function unitsOf(facts: readonly XbrlFactRow[]): Record<string, FactJson[]> {
  const units: Record<string, FactJson[]> = {};
  const sorted = [...facts].sort(
    (a, b) =>
      cmp(a.unit, b.unit) ||
      cmp(a.end, b.end) ||
      cmp(a.start ?? "", b.start ?? "") ||
      cmp(a.filed, b.filed) ||
      cmp(a.accn, b.accn) ||
      a.val - b.val,
  );
  for (const f of sorted) {
    const list = units[f.unit] ?? [];
    units[f.unit] = list;
    list.push({
      ...(f.start === null ? {} : { start: f.start }),
      end: f.end,
      val: f.val,
      accn: f.accn,
      fy: f.fy,
      fp: f.fp,
      form: f.form,
      filed: f.filed,
    });
  }
  return units;
}

/** `/api/xbrl/companyfacts/CIK##########.json` (null when no fact is visible: the API answers 404) */
export function companyFactsPayload(company: CompanyRow, facts: readonly XbrlFactRow[]) {
  if (facts.length === 0) return null;
  const byTax = new Map<string, Map<string, XbrlFactRow[]>>();
  for (const f of facts) {
    const t = byTax.get(f.taxonomy) ?? new Map<string, XbrlFactRow[]>();
    byTax.set(f.taxonomy, t);
    const list = t.get(f.concept) ?? [];
    t.set(f.concept, list);
    list.push(f);
  }
  const out: Record<
    string,
    Record<string, { label: string; description: null; units: Record<string, FactJson[]> }>
  > = {};
  for (const tax of [...byTax.keys()].sort()) {
    const concepts = byTax.get(tax)!;
    const o: (typeof out)[string] = {};
    for (const c of [...concepts.keys()].sort())
      o[c] = { label: conceptLabel(c), description: null, units: unitsOf(concepts.get(c)!) };
    out[tax] = o;
  }
  return { cik: Number(company.cik), entityName: company.name, facts: out };
}

/** `/api/xbrl/companyconcept/CIK##########/{taxonomy}/{tag}.json` (null when nothing is visible) */
export function companyConceptPayload(
  company: CompanyRow,
  taxonomy: string,
  tag: string,
  facts: readonly XbrlFactRow[],
) {
  const mine = facts.filter((f) => f.taxonomy === taxonomy && f.concept === tag);
  if (mine.length === 0) return null;
  return {
    cik: Number(company.cik),
    taxonomy,
    tag,
    label: conceptLabel(tag),
    description: null,
    entityName: company.name,
    units: unitsOf(mine),
  };
}
