import { DateTime } from "luxon";
import { composeBody, pickDomain } from "./news-draft.js";
import { DAY } from "./time.js";
const ET = "America/New_York";
const SYNTH_COMPANIES = [
  {
    cik: "0001904512",
    ticker: "NWD",
    name: "Norwood Dynamics Inc.",
    fye: 12,
    revenueConcept: "Revenues",
    baseRevenue: 24e8,
    dilutedShares: 41e7,
    margin: 0.11,
    preMarket: false
  },
  {
    cik: "0001877340",
    ticker: "HLCN",
    name: "Halcyon Biosciences Corp.",
    fye: 12,
    revenueConcept: "RevenueFromContractWithCustomerExcludingAssessedTax",
    baseRevenue: 38e7,
    dilutedShares: 95e6,
    margin: -0.06,
    preMarket: true
  },
  {
    cik: "0001650021",
    ticker: "BWR",
    name: "Brightwater Retail Group",
    fye: 1,
    revenueConcept: "Revenues",
    baseRevenue: 51e8,
    dilutedShares: 26e7,
    margin: 0.04,
    preMarket: true
  },
  {
    cik: "0001733968",
    ticker: "QPS",
    name: "Quarry Peak Semiconductor Ltd.",
    fye: 9,
    revenueConcept: "RevenueFromContractWithCustomerExcludingAssessedTax",
    baseRevenue: 17e8,
    dilutedShares: 18e7,
    margin: 0.19,
    preMarket: false
  },
  {
    cik: "0001588207",
    ticker: "TDW",
    name: "Tidewell Energy Co.",
    fye: 12,
    revenueConcept: "Revenues",
    baseRevenue: 33e8,
    dilutedShares: 52e7,
    margin: 0.08,
    preMarket: true
  },
  {
    cik: "0001810449",
    ticker: "LHS",
    name: "Lumen Harbor Software Inc.",
    fye: 6,
    revenueConcept: "RevenueFromContractWithCustomerExcludingAssessedTax",
    baseRevenue: 64e7,
    dilutedShares: 14e7,
    margin: 0.15,
    preMarket: false
  }
];
function etDate(t) {
  return DateTime.fromMillis(t, { zone: ET });
}
function atEt(day, hour, minute, second) {
  return DateTime.fromObject(
    { year: day.year, month: day.month, day: day.day, hour, minute, second },
    { zone: ET }
  ).toMillis();
}
function nextBusinessDay(d) {
  let x = d.plus({ days: 1 });
  while (x.weekday > 5) x = x.plus({ days: 1 });
  return x;
}
function edgarFilingDate(acceptedAt) {
  let d = etDate(acceptedAt);
  const late = d.hour * 60 + d.minute > 17 * 60 + 30;
  if (late || d.weekday > 5) {
    d = nextBusinessDay(d.startOf("day"));
  }
  return d.toISODate();
}
function monthEnd(year, month) {
  return DateTime.fromObject({ year, month, day: 1 }, { zone: "UTC" }).endOf("month").startOf("day");
}
function periodOf(fye, year, month) {
  const end = monthEnd(year, month);
  const monthsIntoFy = ((month - fye - 1) % 12 + 12) % 12;
  const q = Math.floor(monthsIntoFy / 3) + 1;
  const qStart = end.minus({ months: 2 }).startOf("month");
  const fyStart = end.minus({ months: monthsIntoFy }).startOf("month");
  const fy = month <= fye ? year : year + 1;
  return { end, qStart, fyStart, fy, q };
}
function latestQuarterEnd(fye, before, lagDays) {
  let d = before.minus({ days: lagDays });
  for (; ; ) {
    const m = d.month;
    if (((m - fye) % 3 + 3) % 3 === 0) {
      const end = monthEnd(d.year, m);
      if (end <= before.minus({ days: lagDays })) return periodOf(fye, d.year, m);
    }
    d = d.minus({ months: 1 }).endOf("month");
  }
}
const iso = (d) => d.toISODate();
function financials(rng, c, ends) {
  const out = /* @__PURE__ */ new Map();
  let rev = c.baseRevenue;
  const growth = 1 + rng.uniform(-0.01, 0.04);
  for (const e of ends) {
    rev = rev * growth * (1 + 0.03 * rng.normal());
    const r = Math.round(rev / 1e3) * 1e3;
    const ni = r * c.margin * (1 + 0.2 * rng.normal());
    out.set(iso(e), { rev: r, ni });
  }
  return out;
}
function generateFilings(rng, from, start, end, ids) {
  const out = { companies: [], filings: [], facts: [], labels: [], news: [] };
  const W = end - start;
  SYNTH_COMPANIES.forEach((c, ci) => {
    const r = rng.split(`company-${c.ticker}`);
    out.companies.push({ cik: c.cik, ticker: c.ticker, name: c.name, visible_at: from });
    let day = etDate(
      start + (ci + 0.5) / SYNTH_COMPANIES.length * W + r.uniform(-0.25, 0.25) * (W / SYNTH_COMPANIES.length)
    ).startOf("day");
    if (day.weekday > 5) day = day.plus({ days: 8 - day.weekday });
    if (day.toMillis() >= end - DAY) day = day.minus({ days: day.weekday > 5 ? day.weekday - 5 : 0 });
    const cycles = [day.minus({ days: 91 }), day];
    const cur = latestQuarterEnd(c.fye, day, 25);
    const ends = [];
    for (let k = 7; k >= 0; k--)
      ends.push(monthEnd(cur.end.minus({ months: 3 * k }).year, cur.end.minus({ months: 3 * k }).month));
    const fin = financials(r.split("financials"), c, ends);
    r.int(40);
    cycles.forEach((d0, cyc) => {
      let d = d0;
      while (d.weekday > 5) d = d.plus({ days: 1 });
      const period = latestQuarterEnd(c.fye, d, 25);
      const yy = String(d.year % 100).padStart(2, "0");
      const accession = (form2, reportDate) => `${c.cik}-${yy}-${ids.decimal("accession", [c.cik, form2, reportDate], 6)}`;
      const accn8k = accession("8-K", iso(d));
      const acc8k = c.preMarket ? atEt(d, 6 + r.int(2), r.int(60), r.int(60)) : atEt(d, 16, 1 + r.int(40), r.int(60));
      const isK = period.q === 4;
      const form = isK ? "10-K" : "10-Q";
      let dq = d;
      let accQ;
      if (r.chance(0.5)) {
        accQ = atEt(dq, 16 + r.int(3), 5 + r.int(54), r.int(60));
        if (accQ <= acc8k) accQ = acc8k + (10 + r.int(50)) * 6e4;
      } else {
        const k = 1 + r.int(5);
        for (let i = 0; i < k; i++) dq = nextBusinessDay(dq);
        accQ = atEt(dq, 8 + r.int(13), r.int(60), r.int(60));
      }
      const accnQ = accession(form, iso(period.end));
      out.filings.push({
        cik: c.cik,
        accession: accn8k,
        form: "8-K",
        items: "2.02",
        filed: edgarFilingDate(acc8k),
        accepted_at: acc8k,
        report_date: iso(d),
        visible_at: acc8k
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
        visible_at: accQ
      });
      const qv = (e) => fin.get(iso(monthEnd(e.year, e.month))) ?? { rev: 0, ni: 0 };
      const sumQuarters = (e, n) => {
        let rev = 0;
        let ni = 0;
        for (let k = 0; k < n; k++) {
          const x = qv(e.minus({ months: 3 * k }));
          rev += x.rev;
          ni += x.ni;
        }
        return { rev, ni };
      };
      const eps = (ni) => Math.round(ni / c.dilutedShares * 100) / 100;
      const fp = isK ? "FY" : `Q${period.q}`;
      const fact = (concept, unit, s, e, val) => ({
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
        visible_at: accQ
      });
      const lastYear = (x) => monthEnd(x.year - 1, x.month);
      const periods = isK ? [
        { s: period.fyStart, e: period.end, n: 4 },
        { s: period.fyStart.minus({ years: 1 }), e: lastYear(period.end), n: 4 }
      ] : [
        { s: period.qStart, e: period.end, n: 1 },
        { s: period.qStart.minus({ years: 1 }), e: lastYear(period.end), n: 1 }
      ];
      if (!isK && period.q > 1) {
        periods.push({ s: period.fyStart, e: period.end, n: period.q });
        periods.push({ s: period.fyStart.minus({ years: 1 }), e: lastYear(period.end), n: period.q });
      }
      for (const p of periods) {
        const v = p.e.year === period.end.year ? sumQuarters(p.e, p.n) : backcast(sumQuarters(period.end, p.n));
        out.facts.push(fact(c.revenueConcept, "USD", p.s, p.e, v.rev));
        out.facts.push(fact("EarningsPerShareDiluted", "USD/shares", p.s, p.e, eps(v.ni)));
      }
      const cur2 = sumQuarters(period.end, isK ? 4 : 1);
      out.labels.push({
        kind: "filing_gold",
        key: `${c.ticker}:${accn8k}`,
        t: acc8k,
        value: { ticker: c.ticker, cik: c.cik, accession: accn8k, form: "8-K", items: "2.02", accepted_at: acc8k }
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
          revenue: cur2.rev,
          revenue_concept: c.revenueConcept,
          eps_diluted: eps(cur2.ni)
        }
      });
      const nr = r.split(`news-${cyc}`);
      const qLabel = isK ? `fiscal ${period.fy}` : `fiscal Q${period.q} ${period.fy}`;
      const title = `${c.name.replace(/ (Inc\.|Corp\.|Ltd\.|Co\.|Group)$/, "")} reports ${qLabel} revenue of $${(cur2.rev / 1e9).toFixed(2)} billion`;
      out.news.push({
        key: `${c.ticker}:${accn8k}:press`,
        published_at: Math.floor((acc8k + nr.uniform(5, 40) * 6e4) / 1e3) * 1e3,
        domain: pickDomain(nr),
        title,
        text: composeBody(nr, `${title}, according to a statement filed with regulators (ticker ${c.ticker}).`, [
          `Diluted earnings per share came in at $${eps(cur2.ni).toFixed(2)} for the period ended ${iso(period.end)}.`,
          `The full ${form} report is expected ${dq.hasSame(d, "day") ? "later today" : "in the coming days"}.`
        ])
      });
    });
  });
  return out;
}
function backcast(v) {
  return { rev: Math.round(v.rev / 1.06 / 1e3) * 1e3, ni: v.ni / 1.08 };
}
export {
  SYNTH_COMPANIES,
  edgarFilingDate,
  generateFilings
};
//# sourceMappingURL=filings.js.map
