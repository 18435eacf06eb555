import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseEdgarSubmissions, parseEdgarSubmissionsPage } from "../../src/ingest/edgar.js";
import { buildEdgarWorld, XBRL_FACTS_UNAVAILABLE_LABEL } from "../../src/ingest/edgar-world.js";
import { FilingDuties } from "../../src/tasks/filing-tracker/filing-duties.js";
import { defaultFilingTrackerParams } from "../../src/tasks/filing-tracker/params.js";
import { TruthStore } from "../../src/world/truth-store.js";
import { WorldStore } from "../../src/world/world-store.js";
import { RAW_DIR as DEFAULT_RAW } from "../run/helpers.js";

/** the shared samples (../shared/data/raw from the main checkout; RELIVE_RAW_DIR elsewhere) */
const RAW_DIR = process.env.RELIVE_RAW_DIR ?? DEFAULT_RAW;

/**
 * EDGAR for any company: the Murphy Oil submissions file (real, byte-faithful data.sec.gov payload
 * of 2022, no companyfacts), the newer schema (derived from that real file by adding the fields
 * newer payloads carry), and older pages (`filings.files`).
 */
const MURPHY = join(RAW_DIR, "edgar-submissions-murphy-raw/CIK0000717423.json");
const hasMurphy = existsSync(MURPHY);
if (!hasMurphy) console.warn(`skipping Murphy EDGAR tests: ${MURPHY} not found`);

const RECENT_KEYS = [
  "accessionNumber",
  "filingDate",
  "reportDate",
  "acceptanceDateTime",
  "act",
  "form",
  "fileNumber",
  "filmNumber",
  "items",
  "size",
  "isXBRL",
  "isInlineXBRL",
  "primaryDocument",
  "primaryDocDescription",
] as const;

type Recent = Record<string, unknown[]>;

function rawDirWith(files: Record<string, string>): string {
  const raw = mkdtempSync(join(tmpdir(), "relive-edgar-any-"));
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(join(raw, p, ".."), { recursive: true });
    writeFileSync(join(raw, p), text);
  }
  return raw;
}

const spec = (companies: Parameters<typeof buildEdgarWorld>[2]["companies"]) => ({
  name: "mur",
  builder: "mur",
  builder_version: "1",
  window: { start: Date.parse("2022-01-01T00:00:00Z"), end: Date.parse("2022-09-01T00:00:00Z") },
  companies,
});

describe.skipIf(!hasMurphy)("EDGAR for any company (Murphy Oil, real submissions)", () => {
  const text = hasMurphy ? readFileSync(MURPHY, "utf8") : "{}";

  it("the 2022 schema: every filing of the recent block, no rejected row, true-UTC acceptance", () => {
    const s = parseEdgarSubmissions(text, "CIK0000717423.json");
    expect(s.company).toMatchObject({ cik: "0000717423", ticker: "MUR", name: "MURPHY OIL CORP" });
    expect(s.filings).toHaveLength(1005);
    expect(s.rejected).toEqual([]);
    expect(s.pages).toEqual(["CIK0000717423-submissions-001.json"]);
    // "2022-08-15T06:06:32.000Z" is 06:06:32 in New York (EDT): 10:06:32 UTC
    const k = s.filings.find((f) => f.accession === "0000950103-22-013995")!;
    expect([k.form, k.items, k.filed, new Date(k.accepted_at).toISOString()]).toEqual([
      "8-K",
      "8.01,9.01",
      "2022-08-15",
      "2022-08-15T10:06:32.000Z",
    ]);
    expect(new Date(s.filings[0]!.accepted_at).toISOString()).toBe("2013-08-13T18:51:13.000Z");
  });

  it("the newer schema (ownerOrg, lei, core_type and isXBRLNumeric arrays) gives the same rows", () => {
    const doc = JSON.parse(text) as { filings: { recent: Recent }; [k: string]: unknown };
    const n = doc.filings.recent.accessionNumber!.length;
    const newer = {
      ...doc,
      ownerOrg: "01 Energy & Transportation",
      lei: null,
      filings: {
        ...doc.filings,
        recent: {
          ...doc.filings.recent,
          core_type: doc.filings.recent.form,
          isXBRLNumeric: Array.from({ length: n }, () => 0),
        },
      },
    };
    const a = parseEdgarSubmissions(text, "old.json");
    const b = parseEdgarSubmissions(JSON.stringify(newer), "new.json");
    expect(b.filings).toEqual(a.filings);
    expect(b.company).toEqual(a.company);
    expect(b.rejected).toEqual([]);
  });

  it("without companyfacts: filings and blotter, no facts, and a truth label saying why values have no gold", () => {
    const raw = rawDirWith({ "mur/CIK0000717423.json": text });
    const target = join(mkdtempSync(join(tmpdir(), "relive-edgar-w-")), "w");
    const rep = buildEdgarWorld(raw, target, spec([{ submissions: "mur/CIK0000717423.json" }]));
    expect(rep.withoutFacts).toEqual(["0000717423"]);
    expect(rep.manifest.streams).toMatchObject({ company: 2, filing: 1005, broker_event: 1 });
    expect(rep.manifest.streams.xbrl_fact ?? 0).toBe(0);
    expect(rep.manifest.sources.map((x) => [x.path, x.rows, x.rejected])).toEqual([
      ["mur/CIK0000717423.json", 1005, 0],
    ]);
    const truth = TruthStore.open(target);
    expect(truth.labels(XBRL_FACTS_UNAVAILABLE_LABEL)).toEqual([
      {
        kind: XBRL_FACTS_UNAVAILABLE_LABEL,
        key: "0000717423",
        t: null,
        value: {
          reason: "no companyfacts imported for CIK 0000717423 (submissions only): 10-Q/10-K values have no gold",
        },
      },
    ]);
    truth.close();
    // the 8-K duties stay gradable: the earnings 8-Ks (item 2.02) of the window are all there
    const w = WorldStore.open(target);
    const earnings = w
      .at(() => Date.parse("2022-09-01T00:00:00Z"))
      .filings.submissions("0000717423")
      .filter((f) => f.form === "8-K" && f.items.split(",").includes("2.02") && f.filed >= "2022-01-01");
    expect(earnings.map((f) => f.filed)).toEqual(["2022-01-27", "2022-05-04", "2022-08-04"]);
    // the filing tracker's duties of 2022-08-01 → 08-10: the earnings 8-K and the 10-Q (both before
    // the open of 08-04); the 10-Q has no gold values (the label above says why)
    const duties = new FilingDuties(w.db, defaultFilingTrackerParams()).duties(
      Date.parse("2022-08-01T00:00:00Z"),
      Date.parse("2022-08-11T00:00:00Z"),
    );
    expect(
      duties.map((d) => [d.key, d.form, new Date(d.accepted_at).toISOString(), new Date(d.deadline).toISOString()]),
    ).toEqual([
      ["MUR:0000717423-22-000059", "8-K", "2022-08-04T10:33:39.000Z", "2022-08-04T13:30:00.000Z"],
      ["MUR:0000717423-22-000061", "10-Q", "2022-08-04T11:03:33.000Z", "2022-08-04T13:30:00.000Z"],
    ]);
    expect(duties[1]!.gold).toEqual({ fy: null, fp: null, revenue: null, revenue_concept: null, eps_diluted: null });
    w.close();
  });

  it("older pages (filings.files) are merged; an accession read twice is rejected with its place", () => {
    const doc = JSON.parse(text) as { filings: { recent: Recent; files: unknown[] }; [k: string]: unknown };
    const r = doc.filings.recent;
    const cut = 705;
    const slice = (from: number, to?: number) =>
      Object.fromEntries(RECENT_KEYS.map((k) => [k, r[k]!.slice(from, to)])) as Recent;
    const main = { ...doc, filings: { ...doc.filings, recent: slice(0, cut) } };
    // the page repeats the main file's last accession at its index 0
    const page = slice(cut - 1);
    const raw = rawDirWith({
      "mur/CIK0000717423.json": JSON.stringify(main),
      "mur/CIK0000717423-submissions-001.json": JSON.stringify(page),
    });
    const target = join(mkdtempSync(join(tmpdir(), "relive-edgar-w-")), "w");
    const rep = buildEdgarWorld(
      raw,
      target,
      spec([{ submissions: "mur/CIK0000717423.json", pages: ["mur/CIK0000717423-submissions-001.json"] }]),
    );
    expect(rep.manifest.streams.filing).toBe(1005);
    expect(rep.rejected).toEqual([
      {
        file: "mur/CIK0000717423-submissions-001.json",
        line: 0,
        reason: `repeated accession ${r.accessionNumber![cut - 1]} (already read from another file of this company)`,
      },
    ]);
    const whole = parseEdgarSubmissions(text, "x.json");
    const w = WorldStore.open(target);
    const got = w.at(() => Date.parse("2022-09-01T00:00:00Z")).filings.submissions("0000717423");
    expect(new Set(got.map((f) => f.accession))).toEqual(new Set(whole.filings.map((f) => f.accession)));
    w.close();
  });
});

describe("EDGAR submissions: bad input", () => {
  const tiny = (recent: Record<string, unknown>, top: Record<string, unknown> = {}) =>
    JSON.stringify({ cik: 42, name: "Tiny Co", filings: { recent }, ...top });
  const ok = {
    accessionNumber: ["0000000042-22-000001"],
    filingDate: ["2022-03-01"],
    acceptanceDateTime: ["2022-02-28T17:45:00.000Z"],
    form: ["10-K"],
  };

  it("absent reportDate / items / tickers read as empty; unequal arrays are refused naming the array", () => {
    const s = parseEdgarSubmissions(tiny(ok), "tiny.json");
    expect(s.company).toMatchObject({ cik: "0000000042", ticker: "" });
    expect(s.filings[0]).toMatchObject({ report_date: "", items: "", accepted_at: Date.parse("2022-02-28T22:45:00Z") });
    expect(() => parseEdgarSubmissions(tiny({ ...ok, form: ["10-K", "8-K"] }), "tiny.json")).toThrow(
      "tiny.json: filings.recent.form has 2 entries, accessionNumber has 1",
    );
    expect(() => parseEdgarSubmissionsPage(JSON.stringify({ ...ok, items: [] }), "p.json", "42")).toThrow(
      "p.json: items has 0 entries, accessionNumber has 1",
    );
    expect(() => parseEdgarSubmissionsPage("[]", "p.json", "42")).toThrow(/p\.json: not an EDGAR submissions page/);
  });

  it("a failing company leaves no world behind", () => {
    const raw = rawDirWith({ "a.json": tiny(ok), "b.json": "{not json" });
    const target = join(mkdtempSync(join(tmpdir(), "relive-edgar-w-")), "w");
    expect(() => buildEdgarWorld(raw, target, spec([{ submissions: "a.json" }, { submissions: "b.json" }]))).toThrow(
      /b\.json: not JSON/,
    );
    expect(existsSync(target)).toBe(false);
    expect(() => buildEdgarWorld(raw, target, spec([]))).toThrow(/no company given/);
    expect(() => buildEdgarWorld(raw, target, spec([{ submissions: "c.json" }]))).toThrow(
      /raw files missing under .*: c\.json/,
    );
  });
});
