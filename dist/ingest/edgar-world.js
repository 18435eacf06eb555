import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { WorldBuilder } from "../world/world-builder.js";
import { parseEdgarCompanyFacts, parseEdgarSubmissions } from "./edgar.js";
function buildEdgarWorld(rawDir, targetDir, spec) {
  const paths = spec.companies.flatMap((c) => [c.submissions, c.companyfacts]);
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
    for (const c of spec.companies) {
      const sub = read(c.submissions);
      const s = parseEdgarSubmissions(sub.text, c.submissions);
      builder.addSource({
        path: c.submissions,
        sha256: sub.sha256,
        rows: s.filings.length,
        rejected: s.rejected.length
      });
      const cf = read(c.companyfacts);
      const f = parseEdgarCompanyFacts(
        cf.text,
        c.companyfacts,
        new Map(s.filings.map((x) => [x.accession, x.accepted_at]))
      );
      if (f.cik !== s.company.cik)
        throw new Error(`${c.companyfacts}: CIK ${f.cik} does not match ${c.submissions} (CIK ${s.company.cik})`);
      builder.addSource({ path: c.companyfacts, sha256: cf.sha256, rows: f.facts.length, rejected: f.rejected.length });
      if (companies.some((x) => x.cik === s.company.cik))
        throw new Error(`${spec.builder}: company ${s.company.cik} listed twice`);
      companies.push(s.company);
      filings.push(...s.filings);
      facts.push(...f.facts);
      rejected.push(...s.rejected, ...f.rejected);
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
    return { manifest: builder.finish(), rejected, factsBoundedByFiledDate: bounded };
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
  buildEdgarTeslaWorld,
  buildEdgarWorld
};
//# sourceMappingURL=edgar-world.js.map
