import { DateTime } from "luxon";
import type { Rng } from "../common/random.js";
import type { CompanyRow, FilingRow, LabelRow, XbrlFactRow } from "../world/types.js";
import type { FutureStream } from "./future.js";
import type { IdMinter } from "./ids.js";
import { composeBody, type NewsDraft, pickDomain } from "./news-draft.js";
import { DAY } from "./time.js";

const ET = "America/New_York";

interface CompanySpec {
  cik: string;
  ticker: string;
  name: string;
  /** fiscal year end month (1-12) */
  fye: number;
  revenueConcept: "Revenues" | "RevenueFromContractWithCustomerExcludingAssessedTax";
  /** quarterly revenue (USD) eight quarters before the window */
  baseRevenue: number;
  dilutedShares: number;
  margin: number;
  /** earnings released before the open (true) or after the close (false) */
  preMarket: boolean;
}

export const SYNTH_COMPANIES: readonly CompanySpec[] = [
  {
    cik: "0001904512",
    ticker: "NWD",
    name: "Norwood Dynamics Inc.",
    fye: 12,
    revenueConcept: "Revenues",
    baseRevenue: 2.4e9,
    dilutedShares: 410e6,
    margin: 0.11,
    preMarket: false,
  },
  {
    cik: "0001877340",
    ticker: "HLCN",
    name: "Halcyon Biosciences Corp.",
    fye: 12,
    revenueConcept: "RevenueFromContractWithCustomerExcludingAssessedTax",
    baseRevenue: 3.8e8,
    dilutedShares: 95e6,
    margin: -0.06,
    preMarket: true,
  },
  {
    cik: "0001650021",
    ticker: "BWR",
    name: "Brightwater Retail Group",
    fye: 1,
    revenueConcept: "Revenues",
    baseRevenue: 5.1e9,
    dilutedShares: 260e6,
    margin: 0.04,
    preMarket: true,
  },
  {
    cik: "0001733968",
    ticker: "QPS",
    name: "Quarry Peak Semiconductor Ltd.",
    fye: 9,
    revenueConcept: "RevenueFromContractWithCustomerExcludingAssessedTax",
    baseRevenue: 1.7e9,
    dilutedShares: 180e6,
    margin: 0.19,
    preMarket: false,
  },
  {
    cik: "0001588207",
    ticker: "TDW",
    name: "Tidewell Energy Co.",
    fye: 12,
    revenueConcept: "Revenues",
    baseRevenue: 3.3e9,
    dilutedShares: 520e6,
    margin: 0.08,
    preMarket: true,
  },
  {
    cik: "0001810449",
    ticker: "LHS",
    name: "Lumen Harbor Software Inc.",
    fye: 6,
    revenueConcept: "RevenueFromContractWithCustomerExcludingAssessedTax",
    baseRevenue: 6.4e8,
    dilutedShares: 140e6,
    margin: 0.15,
    preMarket: false,
  },
];

/**
 * One scheduled earnings release (the filing calendar, generator-side): the day is fixed from the
 * history start (companies announce it in advance) and the same in every different future, so a
 * question may be dated by it. The report's accession hashes (cik, form, report date), so it is
 * the same in every future too.
 */
export interface EarningsRelease {
  ticker: string;
  cik: string;
  /** 00:00 UTC of the release's date (the 8-K and its press release come that day, from 10:00 UTC) */
  day: number;
  /** the report the release is for (its 10-Q/10-K follows the same day or up to 5 business days later) */
  accession: string;
  form: "10-Q" | "10-K";
  fy: number;
  /** "Q1".."Q3" or "FY" */
  fp: string;
}

export interface FilingStreams {
  companies: CompanyRow[];
  filings: FilingRow[];
  facts: XbrlFactRow[];
  labels: LabelRow[];
  news: NewsDraft[];
  /** the filing calendar (not written to the world) */
  calendar: EarningsRelease[];
}

function etDate(t: number): DateTime {
  return DateTime.fromMillis(t, { zone: ET });
}

/** instant of an ET wall-clock time on the ET date of `day` */
function atEt(day: DateTime, hour: number, minute: number, second: number): number {
  return DateTime.fromObject(
    { year: day.year, month: day.month, day: day.day, hour, minute, second },
    { zone: ET },
  ).toMillis();
}

function nextBusinessDay(d: DateTime): DateTime {
  let x = d.plus({ days: 1 });
  while (x.weekday > 5) x = x.plus({ days: 1 });
  return x;
}

/** EDGAR filing date: the ET acceptance date, moved to the next business day after 17:30 ET or on weekends */
export function edgarFilingDate(acceptedAt: number): string {
  let d = etDate(acceptedAt);
  const late = d.hour * 60 + d.minute > 17 * 60 + 30;
  if (late || d.weekday > 5) {
    d = nextBusinessDay(d.startOf("day"));
  }
  return d.toISODate() as string;
}

function monthEnd(year: number, month: number): DateTime {
  return DateTime.fromObject({ year, month, day: 1 }, { zone: "UTC" }).endOf("month").startOf("day");
}

interface Period {
  end: DateTime;
  /** quarter start */
  qStart: DateTime;
  /** fiscal year start */
  fyStart: DateTime;
  fy: number;
  /** 1..4 */
  q: number;
}

/** the fiscal quarter ending at the month end (year, month) for a company with fiscal-year-end month fye */
function periodOf(fye: number, year: number, month: number): Period {
  const end = monthEnd(year, month);
  const monthsIntoFy = (((month - fye - 1) % 12) + 12) % 12; // 0 = first month of the fiscal year
  const q = Math.floor(monthsIntoFy / 3) + 1;
  const qStart = end.minus({ months: 2 }).startOf("month");
  const fyStart = end.minus({ months: monthsIntoFy }).startOf("month");
  const fy = month <= fye ? year : year + 1;
  return { end, qStart, fyStart, fy, q };
}

/** latest fiscal quarter end at least `lagDays` before the date */
function latestQuarterEnd(fye: number, before: DateTime, lagDays: number): Period {
  let d = before.minus({ days: lagDays });
  for (;;) {
    const m = d.month;
    if ((((m - fye) % 3) + 3) % 3 === 0) {
      const end = monthEnd(d.year, m);
      if (end <= before.minus({ days: lagDays })) return periodOf(fye, d.year, m);
    }
    d = d.minus({ months: 1 }).endOf("month");
  }
}

const iso = (d: DateTime) => d.toISODate() as string;

/** one quarter's revenue (from the previous quarter's unrounded revenue) and net income */
function quarter(rng: Rng, c: CompanySpec, prev: number, growth: number): { raw: number; rev: number; ni: number } {
  const raw = prev * growth * (1 + 0.03 * rng.normal());
  const rev = Math.round(raw / 1000) * 1000;
  return { raw, rev, ni: rev * c.margin * (1 + 0.2 * rng.normal()) };
}

interface Financials {
  /** revenue and net income by quarter-end ISO date */
  q: Map<string, { rev: number; ni: number }>;
  /** the unrounded revenue by quarter-end ISO date (the next quarter grows from it) */
  raw: Map<string, number>;
  growth: number;
}

/** quarterly revenue and net income, indexed by quarter-end ISO date */
function financials(rng: Rng, c: CompanySpec, ends: DateTime[]): Financials {
  const out: Financials = { q: new Map(), raw: new Map(), growth: 1 + rng.uniform(-0.01, 0.04) };
  let rev = c.baseRevenue;
  for (const e of ends) {
    const x = quarter(rng, c, rev, out.growth);
    rev = x.raw;
    out.q.set(iso(e), { rev: x.rev, ni: x.ni });
    out.raw.set(iso(e), x.raw);
  }
  return out;
}

/**
 * A time drawn from `draw` that lies after the cut and on the same side of `end` as `fallback` (the
 * ordinary world's time, used when 64 draws find none): a re-drawn row is never visible before the
 * cut and never leaves or enters the window.
 */
function after(cut: number, end: number, fallback: number, draw: () => number): number {
  for (let i = 0; i < 64; i++) {
    const t = draw();
    if (t > cut && t < end === fallback < end) return t;
  }
  return fallback;
}

/**
 * Companies with one earnings cycle inside the window (8-K item 2.02, then the 10-Q/10-K with
 * XBRL facts) and the previous cycle as history.
 */
export function generateFilings(
  rng: Rng,
  from: number,
  start: number,
  end: number,
  ids: IdMinter,
  future: FutureStream = null,
): FilingStreams {
  const out: FilingStreams = { companies: [], filings: [], facts: [], labels: [], news: [], calendar: [] };
  const W = end - start;
  SYNTH_COMPANIES.forEach((c, ci) => {
    const r = rng.split(`company-${c.ticker}`);
    out.companies.push({ cik: c.cik, ticker: c.ticker, name: c.name, visible_at: from });
    // earnings day inside the window (ET weekday)
    let day = etDate(
      start + ((ci + 0.5) / SYNTH_COMPANIES.length) * W + r.uniform(-0.25, 0.25) * (W / SYNTH_COMPANIES.length),
    ).startOf("day");
    if (day.weekday > 5) day = day.plus({ days: 8 - day.weekday });
    if (day.toMillis() >= end - DAY) day = day.minus({ days: day.weekday > 5 ? day.weekday - 5 : 0 });
    const cycles = [day.minus({ days: 91 }), day];
    // quarter ends for 8 quarters up to the current one
    const cur = latestQuarterEnd(c.fye, day, 25);
    const ends: DateTime[] = [];
    for (let k = 7; k >= 0; k--)
      ends.push(monthEnd(cur.end.minus({ months: 3 * k }).year, cur.end.minus({ months: 3 * k }).month));
    const fin = financials(r.split("financials"), c, ends);
    r.int(40); // (was the first accession counter; kept so the company's later draws stay as they were)
    const fr = future?.rng.split(`company-${c.ticker}`) ?? null;
    const cut = future?.from ?? Number.POSITIVE_INFINITY;
    cycles.forEach((d0, cyc) => {
      let d = d0;
      while (d.weekday > 5) d = d.plus({ days: 1 });
      const period = latestQuarterEnd(c.fye, d, 25);
      const yy = String(d.year % 100).padStart(2, "0");
      const accession = (form: string, reportDate: string) =>
        `${c.cik}-${yy}-${ids.decimal("accession", [c.cik, form, reportDate], 6)}`;
      const accn8k = accession("8-K", iso(d));
      let acc8k = c.preMarket ? atEt(d, 6 + r.int(2), r.int(60), r.int(60)) : atEt(d, 16, 1 + r.int(40), r.int(60));
      const isK = period.q === 4;
      const form = isK ? "10-K" : "10-Q";
      let dq = d;
      let accQ: number;
      if (r.chance(0.5)) {
        accQ = atEt(dq, 16 + r.int(3), 5 + r.int(54), r.int(60));
        if (accQ <= acc8k) accQ = acc8k + (10 + r.int(50)) * 60_000;
      } else {
        const k = 1 + r.int(5);
        for (let i = 0; i < k; i++) dq = nextBusinessDay(dq);
        accQ = atEt(dq, 8 + r.int(13), r.int(60), r.int(60));
      }
      const accnQ = accession(form, iso(period.end));
      // different futures (README, "Prefix stability"): what is not visible at the cut is re-drawn
      let nr = r.split(`news-${cyc}`);
      if (fr !== null) {
        const f = fr.split(`cycle-${cyc}`);
        if (acc8k > cut) {
          // the whole release: the 8-K's time, the quarter's figures, the 10-Q's time and the press
          const dayQ = dq;
          acc8k = after(cut, end, acc8k, () =>
            c.preMarket ? atEt(d, 6 + f.int(2), f.int(60), f.int(60)) : atEt(d, 16, 1 + f.int(40), f.int(60)),
          );
          const e = iso(period.end);
          const prev = fin.raw.get(
            iso(monthEnd(period.end.minus({ months: 3 }).year, period.end.minus({ months: 3 }).month)),
          );
          if (prev !== undefined) {
            const x = quarter(f.split("financials"), c, prev, fin.growth);
            fin.q.set(e, { rev: x.rev, ni: x.ni });
          }
          accQ = after(cut, end, accQ, () => {
            const t = dayQ.hasSame(d, "day")
              ? atEt(d, 16 + f.int(3), 5 + f.int(54), f.int(60))
              : atEt(dayQ, 8 + f.int(13), f.int(60), f.int(60));
            return t <= acc8k ? acc8k + (10 + f.int(50)) * 60_000 : t;
          });
          nr = f.split("news");
        } else if (accQ > cut) {
          // the 8-K (and perhaps its press release, which says whether the report comes the same day) is out
          accQ = after(cut, end, accQ, () => {
            const t = dq.hasSame(d, "day")
              ? atEt(d, 16 + f.int(3), 5 + f.int(54), f.int(60))
              : atEt(dq, 8 + f.int(13), f.int(60), f.int(60));
            return t <= acc8k ? acc8k + (10 + f.int(50)) * 60_000 : t;
          });
        }
      }
      out.filings.push({
        cik: c.cik,
        accession: accn8k,
        form: "8-K",
        items: "2.02",
        filed: edgarFilingDate(acc8k),
        accepted_at: acc8k,
        report_date: iso(d),
        visible_at: acc8k,
      });
      const filedQ = edgarFilingDate(accQ);
      out.filings.push({
        cik: c.cik,
        accession: accnQ,
        form,
        items: "",
        filed: filedQ,
        accepted_at: accQ,
        report_date: iso(period.end),
        visible_at: accQ,
      });
      // values
      const qv = (e: DateTime) => fin.q.get(iso(monthEnd(e.year, e.month))) ?? { rev: 0, ni: 0 };
      const sumQuarters = (e: DateTime, n: number) => {
        let rev = 0;
        let ni = 0;
        for (let k = 0; k < n; k++) {
          const x = qv(e.minus({ months: 3 * k }));
          rev += x.rev;
          ni += x.ni;
        }
        return { rev, ni };
      };
      const eps = (ni: number) => Math.round((ni / c.dilutedShares) * 100) / 100;
      const fp = isK ? "FY" : `Q${period.q}`;
      out.calendar.push({
        ticker: c.ticker,
        cik: c.cik,
        day: Date.UTC(d.year, d.month - 1, d.day),
        accession: accnQ,
        form,
        fy: period.fy,
        fp,
      });
      const fact = (concept: string, unit: string, s: DateTime, e: DateTime, val: number): XbrlFactRow => ({
        cik: c.cik,
        taxonomy: "us-gaap",
        concept,
        unit,
        start: iso(s),
        end: iso(e),
        val,
        accn: accnQ,
        fy: period.fy,
        fp,
        form,
        filed: filedQ,
        visible_at: accQ,
      });
      const lastYear = (x: DateTime) => monthEnd(x.year - 1, x.month);
      const periods: { s: DateTime; e: DateTime; n: number }[] = isK
        ? [
            { s: period.fyStart, e: period.end, n: 4 },
            { s: period.fyStart.minus({ years: 1 }), e: lastYear(period.end), n: 4 },
          ]
        : [
            { s: period.qStart, e: period.end, n: 1 },
            { s: period.qStart.minus({ years: 1 }), e: lastYear(period.end), n: 1 },
          ];
      if (!isK && period.q > 1) {
        periods.push({ s: period.fyStart, e: period.end, n: period.q });
        periods.push({ s: period.fyStart.minus({ years: 1 }), e: lastYear(period.end), n: period.q });
      }
      for (const p of periods) {
        // prior-year values come from a deterministic back-cast of the financials
        const v = p.e.year === period.end.year ? sumQuarters(p.e, p.n) : backcast(sumQuarters(period.end, p.n));
        out.facts.push(fact(c.revenueConcept, "USD", p.s, p.e, v.rev));
        out.facts.push(fact("EarningsPerShareDiluted", "USD/shares", p.s, p.e, eps(v.ni)));
      }
      const cur = sumQuarters(period.end, isK ? 4 : 1);
      out.labels.push({
        kind: "filing_gold",
        key: `${c.ticker}:${accn8k}`,
        t: acc8k,
        value: { ticker: c.ticker, cik: c.cik, accession: accn8k, form: "8-K", items: "2.02", accepted_at: acc8k },
      });
      out.labels.push({
        kind: "filing_gold",
        key: `${c.ticker}:${accnQ}`,
        t: accQ,
        value: {
          ticker: c.ticker,
          cik: c.cik,
          accession: accnQ,
          form,
          accepted_at: accQ,
          report_date: iso(period.end),
          fy: period.fy,
          fp,
          revenue: cur.rev,
          revenue_concept: c.revenueConcept,
          eps_diluted: eps(cur.ni),
        },
      });
      const qLabel = isK ? `fiscal ${period.fy}` : `fiscal Q${period.q} ${period.fy}`;
      const title = `${c.name.replace(/ (Inc\.|Corp\.|Ltd\.|Co\.|Group)$/, "")} reports ${qLabel} revenue of $${(cur.rev / 1e9).toFixed(2)} billion`;
      const pressAt = (g: Rng) => Math.floor((acc8k + g.uniform(5, 40) * 60_000) / 1000) * 1000;
      let published_at = pressAt(nr);
      if (fr !== null && published_at > cut && acc8k <= cut) {
        // the 8-K is out, its press release is not: re-drawn (its figures are the filing's)
        nr = fr.split(`cycle-${cyc}`).split("news");
        const fallback = published_at;
        published_at = after(cut, end, fallback, () => pressAt(nr));
      }
      out.news.push({
        key: `${c.ticker}:${accn8k}:press`,
        published_at,
        domain: pickDomain(nr),
        title,
        text: composeBody(nr, `${title}, according to a statement filed with regulators (ticker ${c.ticker}).`, [
          `Diluted earnings per share came in at $${eps(cur.ni).toFixed(2)} for the period ended ${iso(period.end)}.`,
          `The full ${form} report is expected ${dq.hasSame(d, "day") ? "later today" : "in the coming days"}.`,
        ]),
      });
    });
  });
  return out;
}

/** prior-year comparatives: 6% lower revenue and 8% lower income, deterministic */
function backcast(v: { rev: number; ni: number }): { rev: number; ni: number } {
  return { rev: Math.round(v.rev / 1.06 / 1000) * 1000, ni: v.ni / 1.08 };
}
