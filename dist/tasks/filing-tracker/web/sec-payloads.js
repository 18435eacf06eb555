import { edgarStamp } from "../edgar-time.js";
function cikOfSegment(seg, suffix) {
  const m = new RegExp(`^CIK(\\d{10})${suffix.replace(".", "\\.")}$`).exec(seg);
  return m ? m[1] : null;
}
function companyTickersPayload(companies) {
  const out = {};
  [...companies].sort((a, b) => a.cik < b.cik ? -1 : a.cik > b.cik ? 1 : 0).forEach((c, i) => {
    out[String(i)] = { cik_str: Number(c.cik), ticker: c.ticker, title: c.name };
  });
  return out;
}
const compact = (d) => d.replace(/-/g, "");
const EXCHANGE_ACT = /^(8-K|10-Q|10-K)(\/A)?$/;
function primaryDocument(f, ticker) {
  const t = ticker.toLowerCase() || "doc";
  if (/^10-[QK]/.test(f.form)) return `${t}-${compact(f.report_date || f.filed)}.htm`;
  if (/^8-K/.test(f.form)) return `${t}-8k_${compact(f.report_date || f.filed)}.htm`;
  return `${compact(f.accession)}.txt`;
}
function fiscalYearEnd(filings) {
  const k = [...filings].reverse().find((f) => f.form === "10-K" && f.report_date.length === 10);
  return k ? `${k.report_date.slice(5, 7)}${k.report_date.slice(8, 10)}` : "";
}
const address = () => ({
  street1: null,
  street2: null,
  city: null,
  stateOrCountry: null,
  zipCode: null,
  stateOrCountryDescription: null
});
function submissionsPayload(company, filings) {
  const recent = [...filings].reverse();
  const col = (f) => recent.map(f);
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
        act: col((f) => EXCHANGE_ACT.test(f.form) ? "34" : ""),
        form: col((f) => f.form),
        fileNumber: col(() => ""),
        filmNumber: col(() => ""),
        items: col((f) => f.items),
        size: col(() => 0),
        isXBRL: col((f) => EXCHANGE_ACT.test(f.form) ? 1 : 0),
        isInlineXBRL: col((f) => EXCHANGE_ACT.test(f.form) ? 1 : 0),
        primaryDocument: col((f) => primaryDocument(f, company.ticker)),
        primaryDocDescription: col((f) => f.form)
      },
      files: []
    }
  };
}
function conceptLabel(tag) {
  return tag.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2").trim();
}
const cmp = (a, b) => a < b ? -1 : a > b ? 1 : 0;
function unitsOf(facts) {
  const units = {};
  const sorted = [...facts].sort(
    (a, b) => cmp(a.unit, b.unit) || cmp(a.end, b.end) || cmp(a.start ?? "", b.start ?? "") || cmp(a.filed, b.filed) || cmp(a.accn, b.accn) || a.val - b.val
  );
  for (const f of sorted) {
    const list = units[f.unit] ?? [];
    units[f.unit] = list;
    list.push({
      ...f.start === null ? {} : { start: f.start },
      end: f.end,
      val: f.val,
      accn: f.accn,
      fy: f.fy,
      fp: f.fp,
      form: f.form,
      filed: f.filed
    });
  }
  return units;
}
function companyFactsPayload(company, facts) {
  if (facts.length === 0) return null;
  const byTax = /* @__PURE__ */ new Map();
  for (const f of facts) {
    const t = byTax.get(f.taxonomy) ?? /* @__PURE__ */ new Map();
    byTax.set(f.taxonomy, t);
    const list = t.get(f.concept) ?? [];
    t.set(f.concept, list);
    list.push(f);
  }
  const out = {};
  for (const tax of [...byTax.keys()].sort()) {
    const concepts = byTax.get(tax);
    const o = {};
    for (const c of [...concepts.keys()].sort())
      o[c] = { label: conceptLabel(c), description: null, units: unitsOf(concepts.get(c)) };
    out[tax] = o;
  }
  return { cik: Number(company.cik), entityName: company.name, facts: out };
}
function companyConceptPayload(company, taxonomy, tag, facts) {
  const mine = facts.filter((f) => f.taxonomy === taxonomy && f.concept === tag);
  if (mine.length === 0) return null;
  return {
    cik: Number(company.cik),
    taxonomy,
    tag,
    label: conceptLabel(tag),
    description: null,
    entityName: company.name,
    units: unitsOf(mine)
  };
}
export {
  cikOfSegment,
  companyConceptPayload,
  companyFactsPayload,
  companyTickersPayload,
  conceptLabel,
  submissionsPayload
};
//# sourceMappingURL=sec-payloads.js.map
