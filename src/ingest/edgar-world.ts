import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { BrokerEventRow, CompanyRow, FilingRow, LabelRow, WorldManifest, XbrlFactRow } from "../world/types.js";
import { WorldBuilder } from "../world/world-builder.js";
import type { WorldSink } from "../world/world-sink.js";
import {
  companyNameRows,
  padCik,
  parseEdgarCompanyFacts,
  parseEdgarSubmissions,
  parseEdgarSubmissionsPage,
} from "./edgar.js";
import type { RejectedRow } from "./kraken-ohlcvt.js";

/**
 * Truth label kind (key: the 10-digit CIK) marking a company imported without its companyfacts:
 * its 10-Q/10-K value fields (fy, fp, revenue, diluted EPS) have no gold, and the label's
 * `value.reason` says why. Its 8-K duties and the accession/form/acceptance of every duty stay
 * gradable from the submissions alone.
 */
export const XBRL_FACTS_UNAVAILABLE_LABEL = "xbrl_facts_unavailable";

export const EDGAR_WORLD_BUILDER = "ingest/edgar";
export const EDGAR_WORLD_BUILDER_VERSION = "1";

/** One company's EDGAR files (paths relative to the raw directory, or absolute). */
export interface EdgarCompanyFiles {
  submissions: string;
  /** older pages of the submissions (`CIK##########-submissions-001.json`, …), when pulled */
  pages?: readonly string[];
  /** the XBRL companyfacts; without it the company's filings carry no facts (see XBRL_FACTS_UNAVAILABLE_LABEL) */
  companyfacts?: string;
}

/**
 * The files `relive data pull edgar` wrote for one CIK under a raw dir, as `buildEdgarWorld` takes
 * them: `edgar/CIK##########.json`, the older pages it lists that are present, and the companyfacts
 * when present (the SEC answers 404 for a company without XBRL facts).
 */
export function pulledEdgarCompany(rawDir: string, cik: string | number): EdgarCompanyFiles {
  const name = `CIK${padCik(cik)}.json`;
  const submissions = `edgar/${name}`;
  if (!existsSync(join(rawDir, submissions)))
    throw new Error(
      `no pulled submissions for CIK ${padCik(cik)} at ${join(rawDir, submissions)} (run \`relive data pull edgar --cik ${cik}\`)`,
    );
  const { pages } = parseEdgarSubmissions(readFileSync(join(rawDir, submissions), "utf8"), submissions);
  const facts = `edgar/companyfacts/${name}`;
  return {
    submissions,
    pages: pages.map((p) => `edgar/${p}`).filter((p) => existsSync(join(rawDir, p))),
    ...(existsSync(join(rawDir, facts)) ? { companyfacts: facts } : {}),
  };
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
  /** CIKs imported without companyfacts */
  withoutFacts: string[];
}

/**
 * Builds a filings world from EDGAR submissions files (any companies; older pages optional), each
 * with or without its companyfacts: `company`, `filing` (visible at true-UTC acceptance) and
 * `xbrl_fact` (visible with their filing) rows, plus the scripted holdings blotter of the filing
 * tracker: every company is held (`broker_event` kind `holding`, action `hold`, ids `bl-NNN`) from
 * the window start. A company without companyfacts gets an `xbrl_facts_unavailable` truth label.
 * Every row is validated; source sha256s go to the manifest; the world is built in a temp dir and
 * renamed (never partial).
 */
export function buildEdgarWorld(rawDir: string, targetDir: string, spec: EdgarWorldSpec): EdgarBuildReport {
  checkEdgarFiles(rawDir, spec);
  const builder = WorldBuilder.create(targetDir, {
    name: spec.name,
    window: spec.window,
    builder: spec.builder,
    builder_version: spec.builder_version,
  });
  try {
    const r = importEdgarInto(builder, rawDir, spec);
    return { manifest: builder.finish(), ...r };
  } catch (e) {
    builder.abort();
    throw e;
  }
}

/**
 * `buildEdgarWorld`'s rows written into `sink`: company, filing, xbrl_fact and the holdings
 * blotter (broker_event), the xbrl_facts_unavailable labels, every file as a manifest source; the
 * window is the spec's (set on the sink).
 */
export function importEdgarInto(
  sink: WorldSink,
  rawDir: string,
  spec: EdgarWorldSpec,
): Omit<EdgarBuildReport, "manifest"> {
  checkEdgarFiles(rawDir, spec);
  const abs = (p: string) => (isAbsolute(p) ? p : join(rawDir, p));
  const rejected: RejectedRow[] = [];
  const companies: CompanyRow[] = [];
  const filings: FilingRow[] = [];
  const facts: XbrlFactRow[] = [];
  let bounded = 0;
  const read = (p: string) => {
    const bytes = readFileSync(abs(p));
    return { text: bytes.toString("utf8"), sha256: createHash("sha256").update(bytes).digest("hex") };
  };
  const withoutFacts: string[] = [];
  const labels: LabelRow[] = [];
  for (const c of spec.companies) {
    const sub = read(c.submissions);
    const s = parseEdgarSubmissions(sub.text, c.submissions);
    if (companies.some((x) => x.cik === s.company.cik))
      throw new Error(`${spec.builder}: company ${s.company.cik} listed twice`);
    sink.addSource({
      path: c.submissions,
      sha256: sub.sha256,
      rows: s.filings.length,
      rejected: s.rejected.length,
    });
    const own = [...s.filings];
    rejected.push(...s.rejected);
    const seen = new Set(own.map((f) => f.accession));
    for (const page of c.pages ?? []) {
      const pg = read(page);
      const p = parseEdgarSubmissionsPage(pg.text, page, s.company.cik, seen);
      for (const f of p.filings) seen.add(f.accession);
      sink.addSource({ path: page, sha256: pg.sha256, rows: p.filings.length, rejected: p.rejected.length });
      own.push(...p.filings);
      rejected.push(...p.rejected);
    }
    own.sort((a, b) => a.accepted_at - b.accepted_at || (a.accession < b.accession ? -1 : 1));
    companies.push(...companyNameRows(s.company, s.formerNames, own[0]?.accepted_at ?? s.company.visible_at));
    filings.push(...own);
    if (!c.companyfacts) {
      withoutFacts.push(s.company.cik);
      labels.push({
        kind: XBRL_FACTS_UNAVAILABLE_LABEL,
        key: s.company.cik,
        t: null,
        value: {
          reason: `no companyfacts imported for CIK ${s.company.cik} (submissions only): 10-Q/10-K values have no gold`,
        },
      });
      continue;
    }
    const cf = read(c.companyfacts);
    const f = parseEdgarCompanyFacts(cf.text, c.companyfacts, new Map(own.map((x) => [x.accession, x.accepted_at])));
    if (f.cik !== s.company.cik)
      throw new Error(`${c.companyfacts}: CIK ${f.cik} does not match ${c.submissions} (CIK ${s.company.cik})`);
    sink.addSource({ path: c.companyfacts, sha256: cf.sha256, rows: f.facts.length, rejected: f.rejected.length });
    facts.push(...f.facts);
    rejected.push(...f.rejected);
    bounded += f.boundedByFiledDate;
  }
  // one holding per company (a company has one row per name it had)
  const held = companies.filter((c, i) => companies.findIndex((x) => x.cik === c.cik) === i);
  const blotter: BrokerEventRow[] = held.map((c, i) => ({
    id: `bl-${String(i + 1).padStart(3, "0")}`,
    kind: "holding",
    t: spec.window.start,
    payload: { cik: c.cik, ticker: c.ticker, action: "hold" },
    visible_at: spec.window.start,
  }));
  sink.insert("company", companies);
  sink.insert("filing", filings);
  sink.insert("xbrl_fact", facts);
  sink.insert("broker_event", blotter);
  if (labels.length) sink.insertTruth("label", labels);
  sink.setWindow(spec.window);
  return { rejected, factsBoundedByFiledDate: bounded, withoutFacts };
}

/** Refuses an empty company list and missing files. */
function checkEdgarFiles(rawDir: string, spec: EdgarWorldSpec): void {
  if (spec.companies.length === 0) throw new Error(`${spec.builder}: no company given`);
  const paths = spec.companies.flatMap((c) => [
    c.submissions,
    ...(c.pages ?? []),
    ...(c.companyfacts ? [c.companyfacts] : []),
  ]);
  const abs = (p: string) => (isAbsolute(p) ? p : join(rawDir, p));
  const missing = paths.filter((p) => !existsSync(abs(p)));
  if (missing.length) throw new Error(`${spec.builder}: raw files missing under ${rawDir}: ${missing.join(", ")}`);
}
