import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildEdgarWorld, pulledEdgarCompany } from "../../../src/ingest/edgar-world.js";
import { listForecastBenchSets } from "../../../src/ingest/forecastbench-sets.js";
import { PullConfigError, runPull } from "../../../src/ingest/pull/run-pull.js";
import { ensureRealWorld } from "../../../src/run/world-resolver.js";
import { RAW_DIR as DEFAULT_RAW } from "../../run/helpers.js";
import { type ReplayServer, startReplayServer } from "./replay-server.js";

/**
 * EDGAR and ForecastBench pulls against loopback servers replaying the REAL payloads of
 * ../shared/data/raw (Tesla submissions + companyfacts, Murphy Oil submissions; the ForecastBench
 * 2026-01-04 set). Responses the samples do not hold (the older submissions pages, Murphy's
 * companyfacts) are 404s, as data.sec.gov answers for a missing file.
 */
const RAW = process.env.RELIVE_RAW_DIR ?? DEFAULT_RAW;
const have = existsSync(join(RAW, "edgar-edgartools")) && existsSync(join(RAW, "forecastbench"));
if (!have) console.warn(`skipping the EDGAR/ForecastBench pull replays: ${RAW} not found`);
const raw = (p: string) => (have ? readFileSync(join(RAW, p)) : Buffer.alloc(0));

const UA = "Relive Tests tests@example.com";
const fast = { backoffMs: 0, retries: 1 };
let server: ReplayServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe.skipIf(!have)("relive data pull edgar (real payload replays)", () => {
  it("fetches submissions and companyfacts with the contact User-Agent; a re-run skips everything; the files build a world", async () => {
    server = await startReplayServer({
      "/submissions/CIK0001318605.json": { body: raw("edgar-edgartools/company_submission.json") },
      "/api/xbrl/companyfacts/CIK0001318605.json": { body: raw("edgar-edgartools/company_facts.json") },
      "/submissions/CIK0000717423.json": { body: raw("edgar-submissions-murphy-raw/CIK0000717423.json") },
    });
    const out = mkdtempSync(join(tmpdir(), "relive-pull-edgar-"));
    const ticks: string[] = [];
    const o = {
      outDir: out,
      userAgent: UA,
      baseUrls: { sec: server.url },
      http: fast,
      rate: 10,
      progress: { grow: () => {}, tick: (l: string) => ticks.push(l) },
    };
    const r = await runPull("edgar", { cik: ["1318605", "717423"], facts: true, pages: true }, o);
    // Tesla: submissions, its page (404: absent), facts; Murphy: submissions, its page (404), facts (404)
    expect(r.counts).toMatchObject({ fetched: 3, absent: 3, skipped: 0 });
    expect(server.requests.map((q) => q.url)).toEqual([
      "/submissions/CIK0001318605.json",
      "/submissions/CIK0001318605-submissions-001.json",
      "/api/xbrl/companyfacts/CIK0001318605.json",
      "/submissions/CIK0000717423.json",
      "/submissions/CIK0000717423-submissions-001.json",
      "/api/xbrl/companyfacts/CIK0000717423.json",
    ]);
    expect(new Set(server.requests.map((q) => q.headers["user-agent"]))).toEqual(new Set([UA]));
    expect(
      readFileSync(join(out, "edgar/CIK0001318605.json")).equals(raw("edgar-edgartools/company_submission.json")),
    ).toBe(true);
    expect(ticks).toContain("submissions/CIK0000717423.json");
    // a re-run asks for nothing
    const again = await runPull("edgar", { cik: ["1318605", "717423"], facts: true, pages: true }, o);
    expect(again.counts).toMatchObject({ fetched: 0, skipped: 6 });
    expect(server.requests).toHaveLength(6);
    // --refresh asks again for everything (a newer snapshot)
    const fresh = await runPull(
      "edgar",
      { cik: ["1318605", "717423"], facts: true, pages: true },
      { ...o, refresh: true },
    );
    expect(fresh.counts).toMatchObject({ fetched: 3, absent: 3, skipped: 0 });
    expect(server.requests).toHaveLength(12);
    // the pulled files are the importer's input, with and without facts
    expect(pulledEdgarCompany(out, 717423)).toEqual({ submissions: "edgar/CIK0000717423.json", pages: [] });
    expect(pulledEdgarCompany(out, 1318605)).toEqual({
      submissions: "edgar/CIK0001318605.json",
      pages: [],
      companyfacts: "edgar/companyfacts/CIK0001318605.json",
    });
    expect(() => pulledEdgarCompany(out, 42)).toThrow(
      /no pulled submissions for CIK 0000000042 .*relive data pull edgar --cik 42/,
    );
    const rep = buildEdgarWorld(out, join(mkdtempSync(join(tmpdir(), "relive-pull-w-")), "w"), {
      name: "pulled",
      builder: "pulled",
      builder_version: "1",
      window: { start: Date.parse("2022-04-01T00:00:00Z"), end: Date.parse("2022-12-01T00:00:00Z") },
      companies: [pulledEdgarCompany(out, 1318605), pulledEdgarCompany(out, "717423")],
    });
    expect(rep.manifest.streams).toMatchObject({ company: 4, filing: 2006, xbrl_fact: 17_718 });
    expect(rep.withoutFacts).toEqual(["0000717423"]);
  });

  it("an interrupted pull resumes: only the items not done are fetched", async () => {
    let fail = true;
    server = await startReplayServer({
      "/submissions/CIK0001318605.json": { body: raw("edgar-edgartools/company_submission.json") },
      "/api/xbrl/companyfacts/CIK0001318605.json": () =>
        fail
          ? { status: 403, body: "Request Rate Threshold Exceeded" }
          : { body: raw("edgar-edgartools/company_facts.json") },
    });
    const out = mkdtempSync(join(tmpdir(), "relive-pull-edgar-"));
    const o = { outDir: out, userAgent: UA, baseUrls: { sec: server.url }, http: fast, rate: 10 };
    const args = { cik: ["1318605"], facts: true, pages: false };
    await expect(runPull("edgar", args, o)).rejects.toThrow(
      /companyfacts\/CIK0001318605\.json failed: HTTP 403: Request Rate Threshold Exceeded/,
    );
    expect(existsSync(join(out, "edgar/companyfacts/CIK0001318605.json"))).toBe(false);
    fail = false;
    const r = await runPull("edgar", args, o);
    expect(r.counts).toMatchObject({ fetched: 1, skipped: 1 });
    expect(server.requests.map((q) => q.url)).toEqual([
      "/submissions/CIK0001318605.json",
      "/api/xbrl/companyfacts/CIK0001318605.json",
      "/api/xbrl/companyfacts/CIK0001318605.json",
    ]);
  });

  it("a payload that is not a submissions file is refused naming the URL; nothing is written", async () => {
    server = await startReplayServer({ "/submissions/CIK0000000042.json": { body: '{"cik":"42"}' } });
    const out = mkdtempSync(join(tmpdir(), "relive-pull-edgar-"));
    await expect(
      runPull(
        "edgar",
        { cik: ["42"], facts: false, pages: false },
        { outDir: out, userAgent: UA, baseUrls: { sec: server.url }, http: fast, rate: 10 },
      ),
    ).rejects.toThrow(/\/submissions\/CIK0000000042\.json: not an EDGAR submissions payload/);
    expect(existsSync(join(out, "edgar"))).toBe(false);
  });
});

describe("relive data pull edgar: the SEC's rules", () => {
  it("refuses without a contact User-Agent and above 10 requests per second, before any request", async () => {
    server = await startReplayServer({});
    const base = { outDir: mkdtempSync(join(tmpdir(), "relive-pull-edgar-")), baseUrls: { sec: server.url }, env: {} };
    const args = { cik: ["1318605"] };
    await expect(runPull("edgar", args, base)).rejects.toThrow(PullConfigError);
    await expect(runPull("edgar", args, { ...base, userAgent: "relive" })).rejects.toThrow(
      /requires a User-Agent naming you with a contact e-mail/,
    );
    await expect(runPull("edgar", args, { ...base, userAgent: UA, rate: 11 })).rejects.toThrow(
      /--rate 11 is above the source's limit of 10 requests per second/,
    );
    await expect(runPull("edgar", { cik: [] }, { ...base, userAgent: UA })).rejects.toThrow(/give at least one --cik/);
    await expect(runPull("edgar", args, { ...base, userAgent: UA, baseUrls: { gamma: server.url } })).rejects.toThrow(
      /unknown endpoint "gamma"/,
    );
    expect(server.requests).toEqual([]);
    // the env carries the User-Agent and the base URL too
    await expect(
      runPull(
        "edgar",
        { cik: ["x"] },
        { outDir: base.outDir, env: { RELIVE_PULL_USER_AGENT: UA, RELIVE_PULL_SEC_URL: server.url } },
      ),
    ).rejects.toThrow(/--cik "x": not a CIK/);
  });
});

describe.skipIf(!have)("relive data pull forecastbench (real payload replays)", () => {
  it("writes the set under the names the resolver finds; it builds with no code change", async () => {
    const p = "/datasets";
    server = await startReplayServer({
      [`${p}/question_sets/2026-01-04-llm.json`]: { body: raw("forecastbench/2026-01-04-llm.json") },
      [`${p}/resolution_sets/2026-01-04_resolution_set.json`]: {
        body: raw("forecastbench/2026-01-04_resolution_set.json"),
      },
    });
    const out = mkdtempSync(join(tmpdir(), "relive-pull-fb-"));
    const r = await runPull(
      "forecastbench",
      { due: ["2026-01-04"] },
      { outDir: out, baseUrls: { datasets: server.url }, http: fast, rate: 10 },
    );
    expect(r.counts).toMatchObject({ fetched: 2 });
    expect(server.requests[0]!.headers["user-agent"]).toBe("relive-data-pull/0.1");
    expect(listForecastBenchSets(out).map((s) => s.builder)).toEqual(["forecastbench-2026-01-04"]);
    const dir = ensureRealWorld("forecastbench-2026-01-04", {
      cacheDir: mkdtempSync(join(tmpdir(), "relive-c-")),
      rawDir: out,
    });
    expect(existsSync(join(dir, "world.json"))).toBe(true);
    // a set due another day than asked is refused
    server.routes.set(`${p}/question_sets/2026-01-18-llm.json`, { body: raw("forecastbench/2026-01-04-llm.json") });
    await expect(
      runPull(
        "forecastbench",
        { due: ["2026-01-18"] },
        { outDir: out, baseUrls: { datasets: server.url }, http: fast, rate: 10 },
      ),
    ).rejects.toThrow(/2026-01-18-llm\.json: forecast_due_date is 2026-01-04, expected 2026-01-18/);
    // a set not published is a 404 naming the URL
    await expect(
      runPull(
        "forecastbench",
        { due: ["2030-01-06"] },
        { outDir: out, baseUrls: { datasets: server.url }, http: fast, rate: 10 },
      ),
    ).rejects.toThrow(/GET http:\/\/127\.0\.0\.1:\d+\/datasets\/question_sets\/2030-01-06-llm\.json: 404 not found/);
  });
});
