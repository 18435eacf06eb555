import { DateTime } from "luxon";
import { z } from "zod";
const EDGAR_ZONE = "America/New_York";
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ACCESSION = /^\d{10}-\d{2}-\d{6}$/;
const EDGAR_STAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d{1,3})?Z$/;
function padCik(cik) {
  const s = String(cik).trim();
  if (!/^\d{1,10}$/.test(s)) throw new RangeError(`not a CIK: ${JSON.stringify(cik)}`);
  return s.padStart(10, "0");
}
function edgarAcceptanceToUtc(stamp) {
  const m = EDGAR_STAMP.exec(stamp);
  if (!m) throw new RangeError(`not an EDGAR acceptanceDateTime: ${JSON.stringify(stamp)}`);
  const dt = DateTime.fromISO(`${m[1]}${m[2] ?? ""}`, { zone: EDGAR_ZONE });
  if (!dt.isValid) throw new RangeError(`not a valid date-time: ${JSON.stringify(stamp)}`);
  return dt.toMillis();
}
function utcToEdgarAcceptance(t) {
  return DateTime.fromMillis(t, { zone: EDGAR_ZONE }).toFormat("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'");
}
function filedDateUpperBound(filed) {
  const dt = DateTime.fromISO(`${filed}T22:00:00`, { zone: EDGAR_ZONE });
  if (!ISO_DATE.test(filed) || !dt.isValid) throw new RangeError(`not a filing date: ${JSON.stringify(filed)}`);
  return dt.toMillis();
}
function issueText(e) {
  const i = e.issues[0];
  return i ? `${i.path.length ? `${i.path.join(".")}: ` : ""}${i.message}` : "invalid row";
}
const FilingArrays = z.looseObject({
  accessionNumber: z.array(z.string()),
  filingDate: z.array(z.string()),
  reportDate: z.array(z.string()).optional(),
  acceptanceDateTime: z.array(z.string()),
  form: z.array(z.string()),
  items: z.array(z.string()).optional()
});
const SubmissionsFile = z.looseObject({
  cik: z.union([z.string(), z.number()]),
  name: z.string().min(1),
  tickers: z.array(z.string()).optional(),
  filings: z.looseObject({
    recent: FilingArrays,
    files: z.array(z.looseObject({ name: z.string() })).optional()
  })
});
const SubmissionRow = z.object({
  accessionNumber: z.string().regex(ACCESSION, "must look like 0000950170-22-019867"),
  filingDate: z.string().regex(ISO_DATE, "must be YYYY-MM-DD"),
  reportDate: z.union([z.literal(""), z.string().regex(ISO_DATE, "must be YYYY-MM-DD or empty")]),
  acceptanceDateTime: z.string().regex(EDGAR_STAMP, "must look like 2022-10-24T06:08:50.000Z"),
  form: z.string().min(1),
  items: z.string()
});
function parseJson(text, file) {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`${file}: not JSON (${e.message})`);
  }
}
function filingRows(r, cik, file, where, known = /* @__PURE__ */ new Set()) {
  const n = r.accessionNumber.length;
  for (const k of ["filingDate", "reportDate", "acceptanceDateTime", "form", "items"]) {
    const a = r[k];
    if (a !== void 0 && a.length !== n)
      throw new Error(`${file}: ${where}${k} has ${a.length} entries, accessionNumber has ${n}`);
  }
  const filings = [];
  const rejected = [];
  const seen = /* @__PURE__ */ new Set();
  for (let i = 0; i < n; i++) {
    const row = SubmissionRow.safeParse({
      accessionNumber: r.accessionNumber[i],
      filingDate: r.filingDate[i],
      reportDate: r.reportDate ? r.reportDate[i] : "",
      acceptanceDateTime: r.acceptanceDateTime[i],
      form: r.form[i],
      items: r.items ? r.items[i] : ""
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
        reason: `repeated accession ${x.accessionNumber}${known.has(x.accessionNumber) ? " (already read from another file of this company)" : ""}`
      });
      continue;
    }
    let accepted;
    try {
      accepted = edgarAcceptanceToUtc(x.acceptanceDateTime);
    } catch (e) {
      rejected.push({ file, line: i, reason: e.message });
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
      visible_at: accepted
    });
  }
  filings.sort((a, b) => a.accepted_at - b.accepted_at || (a.accession < b.accession ? -1 : 1));
  return { filings, rejected };
}
function parseEdgarSubmissions(text, file) {
  const top = SubmissionsFile.safeParse(parseJson(text, file));
  if (!top.success) throw new Error(`${file}: not an EDGAR submissions payload (${issueText(top.error)})`);
  const s = top.data;
  const cik = padCik(s.cik);
  const { filings, rejected } = filingRows(s.filings.recent, cik, file, "filings.recent.");
  const first = filings[0]?.accepted_at;
  if (first === void 0) throw new Error(`${file}: no valid filing in filings.recent`);
  return {
    company: { cik, ticker: s.tickers?.[0] ?? "", name: s.name, visible_at: first },
    filings,
    rejected,
    pages: (s.filings.files ?? []).map((f) => f.name)
  };
}
function parseEdgarSubmissionsPage(text, file, cik, known = /* @__PURE__ */ new Set()) {
  const top = FilingArrays.safeParse(parseJson(text, file));
  if (!top.success) throw new Error(`${file}: not an EDGAR submissions page (${issueText(top.error)})`);
  return filingRows(top.data, padCik(cik), file, "", known);
}
const CompanyFactsFile = z.looseObject({
  cik: z.union([z.string(), z.number()]),
  entityName: z.string(),
  facts: z.record(
    z.string(),
    z.record(z.string(), z.looseObject({ units: z.record(z.string(), z.array(z.unknown())) }))
  )
});
const FactEntry = z.looseObject({
  start: z.string().regex(ISO_DATE, "must be YYYY-MM-DD").optional(),
  end: z.string().regex(ISO_DATE, "must be YYYY-MM-DD"),
  val: z.number().finite(),
  accn: z.string().regex(ACCESSION, "must look like 0000950170-22-019867"),
  fy: z.number().int().nullable().optional(),
  fp: z.string().nullable().optional(),
  form: z.string().min(1),
  filed: z.string().regex(ISO_DATE, "must be YYYY-MM-DD")
});
function parseEdgarCompanyFacts(text, file, acceptedByAccn) {
  const top = CompanyFactsFile.safeParse(parseJson(text, file));
  if (!top.success) throw new Error(`${file}: not an EDGAR companyfacts payload (${issueText(top.error)})`);
  const cik = padCik(top.data.cik);
  const facts = [];
  const rejected = [];
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
          if (visible === void 0) {
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
            visible_at: visible
          });
        });
      }
    }
  }
  return { cik, facts, rejected, boundedByFiledDate: bounded };
}
export {
  EDGAR_ZONE,
  edgarAcceptanceToUtc,
  filedDateUpperBound,
  padCik,
  parseEdgarCompanyFacts,
  parseEdgarSubmissions,
  parseEdgarSubmissionsPage,
  utcToEdgarAcceptance
};
//# sourceMappingURL=edgar.js.map
