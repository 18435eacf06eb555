import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  edgarAcceptanceToUtc,
  filedDateUpperBound,
  padCik,
  parseEdgarCompanyFacts,
  parseEdgarSubmissions,
  utcToEdgarAcceptance,
} from "../../src/ingest/edgar.js";
import { buildEdgarWorld } from "../../src/ingest/edgar-world.js";
import { findRecipe } from "../../src/recipes/recipe-catalog.js";
import { WorldStore } from "../../src/world/world-store.js";
import { RAW_DIR } from "../run/helpers.js";

const TESLA_SUB = join(RAW_DIR, "edgar-edgartools/company_submission.json");
const TESLA_FACTS = join(RAW_DIR, "edgar-edgartools/company_facts.json");
const hasTesla = existsSync(TESLA_SUB) && existsSync(TESLA_FACTS);
if (!hasTesla) console.warn(`skipping Tesla EDGAR tests: ${TESLA_SUB} not found`);

/** A small company of the same API shapes (another CIK, ticker, forms), with two bad rows. */
function otherCompany() {
  const sub = {
    cik: "320193",
    name: "Orchard Devices Inc.",
    tickers: ["ORCD"],
    exchanges: ["Nasdaq"],
    filings: {
      recent: {
        accessionNumber: ["0000320193-23-000106", "0000320193-23-000077", "bad-accession", "0000320193-23-000064"],
        filingDate: ["2023-11-03", "2023-08-04", "2023-08-03", "2023-05-05"],
        reportDate: ["2023-09-30", "2023-07-01", "", "2023-04-01"],
        acceptanceDateTime: [
          "2023-11-02T18:08:27.000Z",
          "2023-08-03T18:04:43.000Z",
          "2023-08-03T16:30:00.000Z",
          "not a time",
        ],
        form: ["10-K", "10-Q", "8-K", "10-Q"],
        items: ["", "", "2.02", ""],
        size: [1, 2, 3, 4],
      },
      files: [],
    },
  };
  const facts = {
    cik: 320193,
    entityName: "Orchard Devices Inc.",
    facts: {
      "us-gaap": {
        RevenueFromContractWithCustomerExcludingAssessedTax: {
          label: "Revenue",
          description: "…",
          units: {
            USD: [
              {
                start: "2022-09-25",
                end: "2023-09-30",
                val: 383285000000,
                accn: "0000320193-23-000106",
                fy: 2023,
                fp: "FY",
                form: "10-K",
                filed: "2023-11-03",
              },
              {
                start: "2021-09-26",
                end: "2022-09-24",
                val: 394328000000,
                accn: "0000320193-22-000108",
                fy: 2022,
                fp: "FY",
                form: "10-K",
                filed: "2022-10-28",
              },
              { end: "2023-09-30", val: "NaN", accn: "0000320193-23-000106", form: "10-K", filed: "2023-11-03" },
            ],
          },
        },
      },
    },
  };
  return { sub: JSON.stringify(sub), facts: JSON.stringify(facts) };
}

describe("EDGAR importer", () => {
  it("acceptanceDateTime is New York time despite its Z: converted to true UTC (and back)", () => {
    // the spec's example: accepted "2022-02-04T20:11:27Z", filing date 02-07 (after the 17:30 ET cutoff)
    expect(new Date(edgarAcceptanceToUtc("2022-02-04T20:11:27.000Z")).toISOString()).toBe("2022-02-05T01:11:27.000Z");
    // daylight time: 4 h
    expect(new Date(edgarAcceptanceToUtc("2022-10-24T06:08:50.000Z")).toISOString()).toBe("2022-10-24T10:08:50.000Z");
    expect(utcToEdgarAcceptance(Date.parse("2022-02-05T01:11:27Z"))).toBe("2022-02-04T20:11:27.000Z");
    expect(() => edgarAcceptanceToUtc("2022-02-04 20:11")).toThrow(/not an EDGAR acceptanceDateTime/);
    expect(new Date(filedDateUpperBound("2012-05-10")).toISOString()).toBe("2012-05-11T02:00:00.000Z");
    expect(padCik(1318605)).toBe("0001318605");
    expect(() => padCik("12345678901")).toThrow(/not a CIK/);
  });

  it("takes any company's files of the same shapes; rejects bad rows with their place and reason", () => {
    const o = otherCompany();
    const s = parseEdgarSubmissions(o.sub, "orcd-sub.json");
    expect(s.company).toEqual({
      cik: "0000320193",
      ticker: "ORCD",
      name: "Orchard Devices Inc.",
      visible_at: Date.parse("2023-08-03T22:04:43Z"),
    });
    expect(s.filings.map((f) => [f.accession, f.form, new Date(f.accepted_at).toISOString(), f.filed])).toEqual([
      ["0000320193-23-000077", "10-Q", "2023-08-03T22:04:43.000Z", "2023-08-04"],
      ["0000320193-23-000106", "10-K", "2023-11-02T22:08:27.000Z", "2023-11-03"],
    ]);
    expect(s.rejected).toEqual([
      { file: "orcd-sub.json", line: 2, reason: "accessionNumber: must look like 0000950170-22-019867" },
      { file: "orcd-sub.json", line: 3, reason: "acceptanceDateTime: must look like 2022-10-24T06:08:50.000Z" },
    ]);
    const f = parseEdgarCompanyFacts(
      o.facts,
      "orcd-facts.json",
      new Map(s.filings.map((x) => [x.accession, x.accepted_at])),
    );
    expect(f.facts.map((x) => [x.accn, x.val, new Date(x.visible_at).toISOString()])).toEqual([
      ["0000320193-23-000106", 383285000000, "2023-11-02T22:08:27.000Z"],
      // its filing is not in the submissions file: visible at 22:00 New York time of its filing date
      ["0000320193-22-000108", 394328000000, "2022-10-29T02:00:00.000Z"],
    ]);
    expect(f.boundedByFiledDate).toBe(1);
    expect(f.rejected).toHaveLength(1);
    expect(f.rejected[0]!.reason).toMatch(
      /^us-gaap\/RevenueFromContractWithCustomerExcludingAssessedTax\/USD\[2\]: val/,
    );
    expect(() => parseEdgarSubmissions('{"cik":1}', "x.json")).toThrow(/x\.json: not an EDGAR submissions payload/);
    // a world from any company's pair, with the holdings blotter
    const raw = mkdtempSync(join(tmpdir(), "relive-edgar-raw-"));
    mkdirSync(join(raw, "orcd"));
    writeFileSync(join(raw, "orcd/sub.json"), o.sub);
    writeFileSync(join(raw, "orcd/facts.json"), o.facts);
    const target = join(mkdtempSync(join(tmpdir(), "relive-edgar-w-")), "w");
    const rep = buildEdgarWorld(raw, target, {
      name: "orcd",
      builder: "orcd",
      builder_version: "1",
      window: { start: Date.parse("2023-10-01T00:00:00Z"), end: Date.parse("2023-12-01T00:00:00Z") },
      companies: [{ submissions: "orcd/sub.json", companyfacts: "orcd/facts.json" }],
    });
    expect(rep.manifest.streams).toMatchObject({ company: 1, filing: 2, xbrl_fact: 2, broker_event: 1 });
    expect(rep.manifest.sources.map((x) => [x.path, x.rows, x.rejected])).toEqual([
      ["orcd/sub.json", 2, 2],
      ["orcd/facts.json", 2, 1],
    ]);
    const w = WorldStore.open(target);
    expect(w.at(() => Date.parse("2023-10-01T00:00:00Z")).broker.events({ kind: "holding" })[0]!.payload).toEqual({
      cik: "0000320193",
      ticker: "ORCD",
      action: "hold",
    });
    w.close();
  });

  it.skipIf(!hasTesla)("Tesla: every filing of the recent block and every fact, visible at true-UTC acceptance", () => {
    const text = readFileSync(TESLA_SUB, "utf8");
    const s = parseEdgarSubmissions(text, "company_submission.json");
    expect(s.company).toMatchObject({ cik: "0001318605", ticker: "TSLA", name: "Tesla, Inc." });
    expect(s.filings).toHaveLength(1001);
    expect(s.rejected).toEqual([]);
    const k = s.filings.find((f) => f.accession === "0000950170-22-000796")!;
    expect([k.form, k.filed, new Date(k.accepted_at).toISOString()]).toEqual([
      "10-K",
      "2022-02-07",
      "2022-02-05T01:11:27.000Z",
    ]);
    const byAccn = new Map(s.filings.map((f) => [f.accession, f.accepted_at]));
    const f = parseEdgarCompanyFacts(readFileSync(TESLA_FACTS, "utf8"), "company_facts.json", byAccn);
    expect(f.facts).toHaveLength(17_718);
    expect(f.rejected).toEqual([]);
    // facts of filings older than the recent block (2011–2013) are bounded by their filing date
    expect(f.boundedByFiledDate).toBe(3444);
    const q3 = f.facts.filter((x) => x.accn === "0000950170-22-019867");
    expect(new Set(q3.map((x) => x.visible_at))).toEqual(new Set([Date.parse("2022-10-24T10:08:50Z")]));
    // the shipped recipe of tesla-2022 builds world edgar-tesla-2022 over the episode window
    const tesla = findRecipe("edgar-tesla-2022", { dataDir: "/nonexistent" });
    expect(tesla?.recipe.episode?.id).toBe("tesla-2022");
    expect(tesla?.recipe.window).toEqual({
      start: Date.parse("2022-04-01T00:00:00Z"),
      end: Date.parse("2022-12-01T00:00:00Z"),
    });
  });
});
