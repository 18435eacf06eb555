/** The real-data episode tesla-2022 (skipped without ../shared/data/raw/edgar-edgartools). */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ensureRealWorld } from "../../../src/run/world-resolver.js";
import { FilingDuties } from "../../../src/tasks/filing-tracker/filing-duties.js";
import { defaultFilingTrackerParams } from "../../../src/tasks/filing-tracker/params.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { CACHE_DIR, RAW_DIR, run } from "../../run/helpers.js";
import { toolHarness } from "../../support/leakage.js";

const SUB = join(RAW_DIR, "edgar-edgartools/company_submission.json");
const present = existsSync(SUB) && existsSync(join(RAW_DIR, "edgar-edgartools/company_facts.json"));
if (!present) console.warn(`skipping tesla-2022 tests: raw EDGAR files not found under ${RAW_DIR}/edgar-edgartools`);

const START = Date.parse("2022-04-01T00:00:00Z");
const END = Date.parse("2022-12-01T00:00:00Z");
const TSLA = "0001318605";
const Q1 = "0000950170-22-006034";
const Q1_ACCEPTED = Date.parse("2022-04-23T01:36:59Z"); // "2022-04-22T21:36:59.000Z" in EDGAR's New York stamp

describe.skipIf(!present)("tesla-2022", () => {
  const worldDir = present ? ensureRealWorld("edgar-tesla-2022", { cacheDir: CACHE_DIR, rawDir: RAW_DIR }) : "";

  it("duties: six 8-Ks with item 2.02 and three 10-Qs; gold from companyfacts", () => {
    const w = WorldStore.open(worldDir);
    const d = new FilingDuties(w.db, defaultFilingTrackerParams()).duties(START, END);
    w.close();
    expect(d.map((x) => [x.form, x.accession, new Date(x.deadline).toISOString()])).toEqual([
      ["8-K", "0001564590-22-013264", "2022-04-04T13:30:00.000Z"],
      ["8-K", "0001564590-22-014917", "2022-04-21T13:30:00.000Z"],
      ["10-Q", Q1, "2022-04-25T13:30:00.000Z"],
      ["8-K", "0001564590-22-025153", "2022-07-05T13:30:00.000Z"],
      ["8-K", "0001564590-22-026048", "2022-07-21T13:30:00.000Z"],
      ["10-Q", "0000950170-22-012936", "2022-07-25T13:30:00.000Z"],
      ["8-K", "0001564590-22-033053", "2022-10-03T13:30:00.000Z"],
      ["8-K", "0001564590-22-034639", "2022-10-20T13:30:00.000Z"],
      ["10-Q", "0000950170-22-019867", "2022-10-24T13:30:00.000Z"],
    ]);
    expect(d.filter((x) => x.form === "10-Q").map((x) => x.gold)).toEqual([
      { fy: 2022, fp: "Q1", revenue: 18_756_000_000, revenue_concept: "Revenues", eps_diluted: 2.86 },
      { fy: 2022, fp: "Q2", revenue: 16_934_000_000, revenue_concept: "Revenues", eps_diluted: 1.95 },
      { fy: 2022, fp: "Q3", revenue: 21_454_000_000, revenue_concept: "Revenues", eps_diluted: 0.95 },
    ]);
  });

  it("the SEC replay serves a filing and its facts only from its acceptance; at the end it is the real payload", async () => {
    const get = async (now: number, path: string) => {
      const h = toolHarness("filing-tracker", worldDir, now, {
        start: START,
        end: END,
        params: { portal_mode: "api" },
      });
      try {
        const r = await h.runtime.call("agent", "http_get", { host: "sec", path, max_chars: 200_000 });
        if (!r.ok) throw new Error(r.error);
        let body = (r.value as { body: string; next_offset: number | null }).body;
        let next = (r.value as { next_offset: number | null }).next_offset;
        while (next !== null) {
          const more = await h.runtime.call("agent", "http_get", {
            host: "sec",
            path,
            offset: next,
            max_chars: 200_000,
          });
          if (!more.ok) throw new Error(more.error);
          body += (more.value as { body: string }).body;
          next = (more.value as { next_offset: number | null }).next_offset;
        }
        return { status: (r.value as { status: number }).status, body };
      } finally {
        h.close();
      }
    };
    const subs = `/submissions/CIK${TSLA}.json`;
    const concept = `/api/xbrl/companyconcept/CIK${TSLA}/us-gaap/Revenues.json`;
    const accns = async (now: number) =>
      JSON.parse((await get(now, subs)).body).filings.recent.accessionNumber as string[];
    const conceptAccns = async (now: number) =>
      JSON.parse((await get(now, concept)).body).units.USD.map((x: { accn: string }) => x.accn) as string[];
    expect(await accns(Q1_ACCEPTED - 1000)).not.toContain(Q1);
    expect(await conceptAccns(Q1_ACCEPTED - 1000)).not.toContain(Q1);
    expect((await accns(Q1_ACCEPTED))[0]).toBe(Q1);
    expect(await conceptAccns(Q1_ACCEPTED)).toContain(Q1);
    // at the end of the window the replay's recent block is the real file's (same rows, EDGAR stamps, newest first)
    const real = JSON.parse(readFileSync(SUB, "utf8")).filings.recent;
    const ours = JSON.parse((await get(END, subs)).body).filings.recent;
    const rows = (r: Record<string, string[]>) =>
      r.accessionNumber!.map((a, i) =>
        [a, r.filingDate![i], r.reportDate![i], r.acceptanceDateTime![i], r.form![i], r.items![i]].join("|"),
      );
    expect([...rows(ours)].sort()).toEqual([...rows(real)].sort());
    expect([...ours.acceptanceDateTime].sort().reverse()).toEqual(ours.acceptanceDateTime);
  }, 900_000);

  it("the perfect client scores 1.0 around the Q3 2022 results (8-K 10-19, 10-Q 10-24)", async () => {
    const res = await run({
      task: "filing-tracker",
      episode: "tesla-2022",
      sim_start: "2022-10-17T00:00:00Z",
      sim_end: "2022-10-26T00:00:00Z",
      task_params: { portal_mode: "api" },
      agent: { model: "scripted:perfect-client" },
    });
    expect(res.results.outcomes.map((o) => [o.key, o.status])).toEqual([
      ["TSLA:0001564590-22-034639", "ok"],
      ["TSLA:0000950170-22-019867", "ok"],
    ]);
    expect(res.results.performance.primary).toMatchObject({ name: "filing_score", value: 1 });
  }, 900_000);
});
