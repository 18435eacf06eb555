import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { BrokerEventRow, CompanyRow, FilingRow, WorldManifest, XbrlFactRow } from "../world/types.js";
import { WorldBuilder } from "../world/world-builder.js";
import { parseEdgarCompanyFacts, parseEdgarSubmissions } from "./edgar.js";
import type { RejectedRow } from "./kraken-ohlcvt.js";

/** One company's pair of EDGAR files (paths relative to the raw directory). */
export interface EdgarCompanyFiles {
  submissions: string;
  companyfacts: string;
}

export interface EdgarWorldSpec {
  name: string;
  builder: string;
  builder_version: string;
  /** the episode window (UTC ms, end exclusive) */
  window: { start: number; end: number };
  companies: readonly EdgarCompanyFiles[];
}

export interface EdgarBuildReport {
  manifest: WorldManifest;
  rejected: RejectedRow[];
  /** facts made visible at their filing date's 22:00 New York time (filing not in the submissions file) */
  factsBoundedByFiledDate: number;
}

/**
 * Builds a filings world from EDGAR submissions + companyfacts pairs (any companies): `company`,
 * `filing` (visible at true-UTC acceptance) and `xbrl_fact` (visible with their filing) rows, plus
 * the scripted holdings blotter of the filing tracker: every company is held (`broker_event` kind
 * `holding`, action `hold`, ids `bl-NNN`) from the window start. Every row is validated; source
 * sha256s go to the manifest; the world is built in a temp dir and renamed (never partial).
 */
export function buildEdgarWorld(rawDir: string, targetDir: string, spec: EdgarWorldSpec): EdgarBuildReport {
  const paths = spec.companies.flatMap((c) => [c.submissions, c.companyfacts]);
  const missing = paths.filter((p) => !existsSync(join(rawDir, p)));
  if (missing.length) throw new Error(`${spec.builder}: raw files missing under ${rawDir}: ${missing.join(", ")}`);
  const builder = WorldBuilder.create(targetDir, {
    name: spec.name,
    window: spec.window,
    builder: spec.builder,
    builder_version: spec.builder_version,
  });
  try {
    const rejected: RejectedRow[] = [];
    const companies: CompanyRow[] = [];
    const filings: FilingRow[] = [];
    const facts: XbrlFactRow[] = [];
    let bounded = 0;
    const read = (p: string) => {
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
        rejected: s.rejected.length,
      });
      const cf = read(c.companyfacts);
      const f = parseEdgarCompanyFacts(
        cf.text,
        c.companyfacts,
        new Map(s.filings.map((x) => [x.accession, x.accepted_at])),
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
    const blotter: BrokerEventRow[] = companies.map((c, i) => ({
      id: `bl-${String(i + 1).padStart(3, "0")}`,
      kind: "holding",
      t: spec.window.start,
      payload: { cik: c.cik, ticker: c.ticker, action: "hold" },
      visible_at: spec.window.start,
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

/** The tesla-2022 world of the filing tracker (2022-04-01 → 2022-11-30). */
export const EDGAR_TESLA_BUILDER = "edgar-tesla-2022";
export const EDGAR_TESLA_SPEC: EdgarWorldSpec = {
  name: EDGAR_TESLA_BUILDER,
  builder: EDGAR_TESLA_BUILDER,
  builder_version: "1",
  window: { start: Date.UTC(2022, 3, 1), end: Date.UTC(2022, 11, 1) },
  companies: [
    { submissions: "edgar-edgartools/company_submission.json", companyfacts: "edgar-edgartools/company_facts.json" },
  ],
};

/** `REAL_WORLD_BUILDERS` entry point: the Tesla submissions + companyfacts of ../shared/data/raw/edgar-edgartools/. */
export function buildEdgarTeslaWorld(rawDir: string, targetDir: string): WorldManifest {
  return buildEdgarWorld(rawDir, targetDir, EDGAR_TESLA_SPEC).manifest;
}
