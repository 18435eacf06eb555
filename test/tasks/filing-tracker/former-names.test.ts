/**
 * The company name the SEC replay serves at `now` is the one valid then (DESIGN invariant 2, issue 17
 * §6): EDGAR submissions list `formerNames` with dates, imported as dated `company` rows. Tested on
 * the real Murphy Oil and Tesla submissions (../shared/data/raw; skipped when absent).
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { companyNameRows, parseFormerNames } from "../../../src/ingest/edgar.js";
import { buildEdgarWorld } from "../../../src/ingest/edgar-world.js";
import { visibleDuties } from "../../../src/tasks/filing-tracker/visible-duties.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { RAW_DIR as DEFAULT_RAW } from "../../run/helpers.js";
import { toolHarness } from "../../support/leakage.js";

const RAW_DIR = process.env.RELIVE_RAW_DIR ?? DEFAULT_RAW;
const MURPHY = "edgar-submissions-murphy-raw/CIK0000717423.json";
const TESLA = "edgar-edgartools/company_submission.json";
const present = existsSync(join(RAW_DIR, MURPHY)) && existsSync(join(RAW_DIR, TESLA));
if (!present) console.warn(`skipping formerNames tests: ${MURPHY} or ${TESLA} not found under ${RAW_DIR}`);

const iso = (t: number) => new Date(t).toISOString();

describe("companyNameRows", () => {
  const current = { cik: "0000000001", ticker: "NEW", name: "New Name Inc", visible_at: 0 };
  it("dates every name from when it took effect, never before the first filing; drops names never visible", () => {
    const former = parseFormerNames(
      [
        { name: "Oldest Co", from: "2001-01-01T00:00:00.000Z", to: "2005-06-01T00:00:00.000Z" },
        { name: "Old Co", from: "2005-06-01T00:00:00.000Z", to: "2012-03-01T00:00:00.000Z" },
      ],
      "x.json",
    );
    const rows = companyNameRows(current, former, Date.parse("2008-01-01T00:00:00Z"));
    expect(rows.map((r) => [r.name, iso(r.visible_at), r.ticker])).toEqual([
      ["Old Co", "2008-01-01T00:00:00.000Z", "NEW"],
      ["New Name Inc", "2012-03-01T00:00:00.000Z", "NEW"],
    ]);
    // a rename before the first filing: only the current name, from the first filing
    expect(companyNameRows(current, former, Date.parse("2013-01-01T00:00:00Z"))).toEqual([
      { ...current, visible_at: Date.parse("2013-01-01T00:00:00Z") },
    ]);
    expect(companyNameRows(current, [], 7)).toEqual([{ ...current, visible_at: 7 }]);
  });

  it("refuses a bad formerNames entry, naming the file, index and field", () => {
    expect(() => parseFormerNames([{ name: "A", from: "2001-01-01", to: "soon" }], "s.json")).toThrow(
      's.json: formerNames[0].to must be an ISO date-time, got "soon"',
    );
    expect(() => parseFormerNames([{ name: "A" }], "s.json")).toThrow(/^s\.json: formerNames\[0\]: to: /);
    expect(() =>
      parseFormerNames([{ name: "A", from: "2003-01-01T00:00:00Z", to: "2002-01-01T00:00:00Z" }], "s.json"),
    ).toThrow("s.json: formerNames[0]: from is after to");
  });
});

describe.skipIf(!present)("formerNames on real EDGAR submissions", () => {
  /** the submissions name and company_tickers title the SEC replay serves at `now` */
  async function served(dir: string, cik: string, now: number, start: number, end: number) {
    const h = toolHarness("filing-tracker", dir, now, { start, end, params: { portal_mode: "api" } });
    try {
      const get = async (path: string) => {
        const r = (await h.runtime.call("agent", "http_get", { host: "sec", path, max_chars: 200_000 })) as {
          ok: boolean;
          value?: { body?: string; status?: number };
        };
        expect(r.ok, path).toBe(true);
        return JSON.parse(r.value?.body ?? "null") as Record<string, unknown>;
      };
      const sub = await get(`/submissions/CIK${cik}.json`);
      const tickers = await get("/files/company_tickers.json");
      return { name: sub.name, tickers: sub.tickers, title: (Object.values(tickers)[0] as { title: string }).title };
    } finally {
      h.close();
    }
  }

  it("Murphy Oil: 'MURPHY OIL CORP /DE' until 2019-07-12, 'MURPHY OIL CORP' from then", async () => {
    const start = Date.parse("2019-06-01T00:00:00Z");
    const end = Date.parse("2019-09-01T00:00:00Z");
    const dir = join(mkdtempSync(join(tmpdir(), "relive-mur-names-")), "world");
    buildEdgarWorld(RAW_DIR, dir, {
      name: "mur-2019",
      builder: "mur-2019",
      builder_version: "1",
      window: { start, end },
      companies: [{ submissions: MURPHY }],
    });
    const w = WorldStore.open(dir);
    // two name rows, one company: each duty once, under the company's one ticker
    const duties = visibleDuties(w.at(() => end)).map((d) => d.key);
    expect(duties.length).toBeGreaterThan(0);
    expect(new Set(duties).size).toBe(duties.length);
    const rows = w.db.prepare("SELECT cik, ticker, name, visible_at FROM company ORDER BY visible_at").all() as {
      name: string;
      visible_at: number;
    }[];
    w.close();
    // the recent block starts 2013-08-13: the former name is visible from the first filing
    expect(rows.map((r) => [r.name, iso(r.visible_at)])).toEqual([
      ["MURPHY OIL CORP /DE", "2013-08-13T18:51:13.000Z"],
      ["MURPHY OIL CORP", "2019-07-12T00:00:00.000Z"],
    ]);
    const before = await served(dir, "0000717423", Date.parse("2019-07-11T23:59:59Z"), start, end);
    expect(before).toEqual({ name: "MURPHY OIL CORP /DE", tickers: ["MUR"], title: "MURPHY OIL CORP /DE" });
    const after = await served(dir, "0000717423", Date.parse("2019-07-12T00:00:00Z"), start, end);
    expect(after).toEqual({ name: "MURPHY OIL CORP", tickers: ["MUR"], title: "MURPHY OIL CORP" });
  });

  it("Tesla: 'TESLA MOTORS INC' until 2017-01-27, 'Tesla, Inc.' from then", async () => {
    const start = Date.parse("2016-12-01T00:00:00Z");
    const end = Date.parse("2017-03-01T00:00:00Z");
    const dir = join(mkdtempSync(join(tmpdir(), "relive-tsla-names-")), "world");
    buildEdgarWorld(RAW_DIR, dir, {
      name: "tsla-2017",
      builder: "tsla-2017",
      builder_version: "1",
      window: { start, end },
      companies: [{ submissions: TESLA }],
    });
    const before = await served(dir, "0001318605", Date.parse("2017-01-26T12:00:00Z"), start, end);
    expect(before).toEqual({ name: "TESLA MOTORS INC", tickers: ["TSLA"], title: "TESLA MOTORS INC" });
    const after = await served(dir, "0001318605", Date.parse("2017-01-27T12:00:00Z"), start, end);
    expect(after).toEqual({ name: "Tesla, Inc.", tickers: ["TSLA"], title: "Tesla, Inc." });
  });
});
