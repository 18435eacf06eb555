import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { WorldBuilder } from "../world/world-builder.js";
import { padCik, parseEdgarCompanyFacts, parseEdgarSubmissions, parseEdgarSubmissionsPage } from "./edgar.js";
const XBRL_FACTS_UNAVAILABLE_LABEL = "xbrl_facts_unavailable";
function pulledEdgarCompany(rawDir, cik) {
  const name = `CIK${padCik(cik)}.json`;
  const submissions = `edgar/${name}`;
  if (!existsSync(join(rawDir, submissions)))
    throw new Error(
      `no pulled submissions for CIK ${padCik(cik)} at ${join(rawDir, submissions)} (run \`relive data pull edgar --cik ${cik}\`)`
    );
  const { pages } = parseEdgarSubmissions(readFileSync(join(rawDir, submissions), "utf8"), submissions);
  const facts = `edgar/companyfacts/${name}`;
  return {
    submissions,
    pages: pages.map((p) => `edgar/${p}`).filter((p) => existsSync(join(rawDir, p))),
    ...existsSync(join(rawDir, facts)) ? { companyfacts: facts } : {}
  };
}
function buildEdgarWorld(rawDir, targetDir, spec) {
  if (spec.companies.length === 0) throw new Error(`${spec.builder}: no company given`);
  const paths = spec.companies.flatMap((c) => [
    c.submissions,
    ...c.pages ?? [],
    ...c.companyfacts ? [c.companyfacts] : []
  ]);
  const missing = paths.filter((p) => !existsSync(join(rawDir, p)));
  if (missing.length) throw new Error(`${spec.builder}: raw files missing under ${rawDir}: ${missing.join(", ")}`);
  const builder = WorldBuilder.create(targetDir, {
    name: spec.name,
    window: spec.window,
    builder: spec.builder,
    builder_version: spec.builder_version
  });
  try {
    const rejected = [];
    const companies = [];
    const filings = [];
    const facts = [];
    let bounded = 0;
    const read = (p) => {
      const bytes = readFileSync(join(rawDir, p));
      return { text: bytes.toString("utf8"), sha256: createHash("sha256").update(bytes).digest("hex") };
    };
    const withoutFacts = [];
    const labels = [];
    for (const c of spec.companies) {
      const sub = read(c.submissions);
      const s = parseEdgarSubmissions(sub.text, c.submissions);
      if (companies.some((x) => x.cik === s.company.cik))
        throw new Error(`${spec.builder}: company ${s.company.cik} listed twice`);
      builder.addSource({
        path: c.submissions,
        sha256: sub.sha256,
        rows: s.filings.length,
        rejected: s.rejected.length
      });
      const own = [...s.filings];
      rejected.push(...s.rejected);
      const seen = new Set(own.map((f2) => f2.accession));
      for (const page of c.pages ?? []) {
        const pg = read(page);
        const p = parseEdgarSubmissionsPage(pg.text, page, s.company.cik, seen);
        for (const f2 of p.filings) seen.add(f2.accession);
        builder.addSource({ path: page, sha256: pg.sha256, rows: p.filings.length, rejected: p.rejected.length });
        own.push(...p.filings);
        rejected.push(...p.rejected);
      }
      own.sort((a, b) => a.accepted_at - b.accepted_at || (a.accession < b.accession ? -1 : 1));
      companies.push({ ...s.company, visible_at: own[0]?.accepted_at ?? s.company.visible_at });
      filings.push(...own);
      if (!c.companyfacts) {
        withoutFacts.push(s.company.cik);
        labels.push({
          kind: XBRL_FACTS_UNAVAILABLE_LABEL,
          key: s.company.cik,
          t: null,
          value: {
            reason: `no companyfacts imported for CIK ${s.company.cik} (submissions only): 10-Q/10-K values have no gold`
          }
        });
        continue;
      }
      const cf = read(c.companyfacts);
      const f = parseEdgarCompanyFacts(cf.text, c.companyfacts, new Map(own.map((x) => [x.accession, x.accepted_at])));
      if (f.cik !== s.company.cik)
        throw new Error(`${c.companyfacts}: CIK ${f.cik} does not match ${c.submissions} (CIK ${s.company.cik})`);
      builder.addSource({ path: c.companyfacts, sha256: cf.sha256, rows: f.facts.length, rejected: f.rejected.length });
      facts.push(...f.facts);
      rejected.push(...f.rejected);
      bounded += f.boundedByFiledDate;
    }
    const blotter = companies.map((c, i) => ({
      id: `bl-${String(i + 1).padStart(3, "0")}`,
      kind: "holding",
      t: spec.window.start,
      payload: { cik: c.cik, ticker: c.ticker, action: "hold" },
      visible_at: spec.window.start
    }));
    builder.insert("company", companies);
    builder.insert("filing", filings);
    builder.insert("xbrl_fact", facts);
    builder.insert("broker_event", blotter);
    if (labels.length) builder.insertTruth("label", labels);
    return { manifest: builder.finish(), rejected, factsBoundedByFiledDate: bounded, withoutFacts };
  } catch (e) {
    builder.abort();
    throw e;
  }
}
const EDGAR_TESLA_BUILDER = "edgar-tesla-2022";
const EDGAR_TESLA_SPEC = {
  name: EDGAR_TESLA_BUILDER,
  builder: EDGAR_TESLA_BUILDER,
  builder_version: "1",
  window: { start: Date.UTC(2022, 3, 1), end: Date.UTC(2022, 11, 1) },
  companies: [
    { submissions: "edgar-edgartools/company_submission.json", companyfacts: "edgar-edgartools/company_facts.json" }
  ]
};
function buildEdgarTeslaWorld(rawDir, targetDir) {
  return buildEdgarWorld(rawDir, targetDir, EDGAR_TESLA_SPEC).manifest;
}
export {
  EDGAR_TESLA_BUILDER,
  EDGAR_TESLA_SPEC,
  XBRL_FACTS_UNAVAILABLE_LABEL,
  buildEdgarTeslaWorld,
  buildEdgarWorld,
  pulledEdgarCompany
};
//# sourceMappingURL=edgar-world.js.map
