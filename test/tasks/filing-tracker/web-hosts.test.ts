/** The filing tracker's hosts, probed in process (no browser): SEC replay, blotter, portal. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Kernel } from "../../../src/kernel/kernel.js";
import { createFilingTrackerEnv } from "../../../src/tasks/filing-tracker/environment.js";
import { FilingTrackerParams } from "../../../src/tasks/filing-tracker/params.js";
import { SEC_NOT_FOUND_BODY } from "../../../src/tasks/filing-tracker/web/sec-host.js";
import type { TaskRunContext } from "../../../src/tasks/task.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { toolHarness } from "../../support/leakage.js";
import { AAA, ACC, BBB, buildTinyWorld, END, START, T, utc } from "./tiny-world.js";

let dir: string;
let world: WorldStore;
beforeAll(() => {
  dir = buildTinyWorld();
  world = WorldStore.open(dir);
});
afterAll(() => world.close());

/** the task's tools at a frozen instant (API mode unless asked) */
function at(now: number, params: unknown = { portal_mode: "api" }) {
  const h = toolHarness("filing-tracker", dir, now, { start: START, end: END, params });
  const get = async (host: string, path: string) => {
    const r = await h.runtime.call("agent", "http_get", { host, path, max_chars: 200_000 });
    if (!r.ok) throw new Error(r.error);
    return r.value as { status: number; body: string; content_type: string };
  };
  const json = async (path: string) => {
    const r = await get("sec", path);
    expect(r.status, path).toBe(200);
    return JSON.parse(r.body);
  };
  return { ...h, get, json };
}

/** the run's hosts themselves (to try writes the tools never make) */
function hostsAt(now: number, mode: "browser" | "api") {
  const ctx: TaskRunContext<FilingTrackerParams> = {
    params: FilingTrackerParams.parse({ portal_mode: mode }),
    feedback: "none",
    oracleFeedback: null,
    sim_start: START,
    sim_end: END,
    view: world.at(() => now),
    kernel: new Kernel({ start: START, end: END }),
    budget_usd: 20,
    env_seed: 1,
    world,
  };
  return createFilingTrackerEnv(ctx);
}

describe("SEC replay", () => {
  it("company_tickers lists companies visible now, in the real shape", async () => {
    const before = at(T.bbbVisible - 1);
    expect(await before.json("/files/company_tickers.json")).toEqual({
      "0": { cik_str: 1, ticker: "AAA", title: AAA.name },
      "1": { cik_str: 3, ticker: "CCC", title: "Gamma Crane Co." },
    });
    before.close();
    const after = at(T.bbbVisible);
    expect(Object.keys(await after.json("/files/company_tickers.json"))).toEqual(["0", "1", "2"]);
    after.close();
  });

  it("submissions: a filing appears at its acceptance, acceptanceDateTime in EDGAR's New York-with-Z format", async () => {
    const h = at(T.aaaQ - 1);
    const s = await h.json(`/submissions/CIK${AAA.cik}.json`);
    expect(Object.keys(s)).toEqual([
      "cik",
      "entityType",
      "sic",
      "sicDescription",
      "insiderTransactionForOwnerExists",
      "insiderTransactionForIssuerExists",
      "name",
      "tickers",
      "exchanges",
      "ein",
      "description",
      "website",
      "investorWebsite",
      "category",
      "fiscalYearEnd",
      "stateOfIncorporation",
      "stateOfIncorporationDescription",
      "addresses",
      "phone",
      "flags",
      "formerNames",
      "filings",
    ]);
    expect(s.cik).toBe("1");
    const r = s.filings.recent;
    expect(Object.keys(r)).toEqual([
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
    ]);
    expect(r.accessionNumber).toEqual([ACC.aaa8k, ACC.historyQ]);
    expect(r.acceptanceDateTime).toEqual(["2026-03-03T16:05:10.000Z", "2025-11-05T16:30:00.000Z"]);
    expect(r.items[0]).toBe("2.02,9.01");
    expect(r.primaryDocument).toEqual(["aaa-8k_20260303.htm", "aaa-20250930.htm"]);
    expect(s.filings.files).toEqual([]);
    h.close();
    const h2 = at(T.aaaQ);
    expect((await h2.json(`/submissions/CIK${AAA.cik}.json`)).filings.recent.accessionNumber[0]).toBe(ACC.aaaQ);
    h2.close();
  });

  it("companyfacts and companyconcept carry a filing's facts from its acceptance on", async () => {
    const h = at(T.aaaQ - 1);
    const f = await h.json(`/api/xbrl/companyfacts/CIK${AAA.cik}.json`);
    expect(f).toEqual({
      cik: 1,
      entityName: AAA.name,
      facts: {
        "us-gaap": {
          Revenues: {
            label: "Revenues",
            description: null,
            units: {
              USD: [
                {
                  start: "2025-07-01",
                  end: "2025-09-30",
                  val: 880_000_000,
                  accn: ACC.historyQ,
                  fy: 2025,
                  fp: "FY",
                  form: "10-Q",
                  filed: "2025-11-05",
                },
              ],
            },
          },
        },
      },
    });
    expect(
      (await h.get("sec", `/api/xbrl/companyconcept/CIK${AAA.cik}/us-gaap/EarningsPerShareDiluted.json`)).status,
    ).toBe(404);
    h.close();
    const h2 = at(T.aaaQ);
    const c = await h2.json(`/api/xbrl/companyconcept/CIK${AAA.cik}/us-gaap/EarningsPerShareDiluted.json`);
    expect(c).toMatchObject({
      cik: 1,
      taxonomy: "us-gaap",
      tag: "EarningsPerShareDiluted",
      label: "Earnings Per Share Diluted",
    });
    expect(c.units["USD/shares"].map((x: { val: number }) => x.val)).toEqual([1.01, 1.23]);
    h2.close();
  });

  it("unknown and not-yet-visible CIKs, concepts and paths give one identical 404; writes are refused", async () => {
    const h = at(T.bbbVisible - 1);
    const paths = [
      `/submissions/CIK${BBB.cik}.json`, // not visible yet
      "/submissions/CIK0000000099.json", // unknown
      "/submissions/CIK1.json",
      `/api/xbrl/companyfacts/CIK${BBB.cik}.json`,
      `/api/xbrl/companyconcept/CIK${AAA.cik}/us-gaap/NoSuchTag.json`,
      `/api/xbrl/companyconcept/CIK${AAA.cik}/us-gaap/Revenues`,
      "/cgi-bin/browse-edgar?action=getcompany",
    ];
    for (const p of paths) {
      const r = await h.get("sec", p);
      expect([r.status, r.body, r.content_type], p).toEqual([404, SEC_NOT_FOUND_BODY, "application/xml"]);
    }
    h.close();
    const env = hostsAt(T.bbbVisible, "browser");
    const post = new Request("http://sec.relive.test/submissions/CIK0000000001.json", { method: "POST", body: "x" });
    expect((await env.web.hosts.dispatch(post, "browser")).response.status).toBe(405);
  });
});

describe("holdings blotter", () => {
  it("replays hold/add/drop as of now", async () => {
    const h = at(utc("2026-03-03T12:00:00Z"));
    const b = JSON.parse((await h.get("blotter", "/holdings.json")).body);
    expect(b.holdings).toEqual([{ ticker: "AAA", cik: AAA.cik, name: AAA.name, since: "2026-02-20T00:00:00.000Z" }]);
    expect(b.events.map((e: { ticker: string; action: string }) => `${e.ticker}:${e.action}`)).toEqual([
      "AAA:hold",
      "CCC:hold",
      "CCC:drop",
    ]);
    expect((await h.get("blotter", "/")).body).toContain("<h1>Current holdings</h1>");
    h.close();
  });
});

describe("filings portal", () => {
  it("browser mode: writes only from the browser with the run's secret; http_get cannot reach it", async () => {
    const env = hostsAt(T.aaaQ, "browser");
    const body = new URLSearchParams({
      ticker: "AAA",
      accession: ACC.aaa8k,
      form: "8-K",
      accepted_at: "2026-03-03T21:05Z",
    }).toString();
    const post = (headers: Record<string, string> = {}) =>
      new Request("http://portal.relive.test/filings", {
        method: "POST",
        body,
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      });
    expect((await env.web.hosts.dispatch(post(), "tool")).response.status).toBe(403);
    expect((await env.web.hosts.dispatch(post(), "browser")).response.status).toBe(403);
    expect(env.portal.list()).toEqual([]);
    const ok = await env.web.hosts.dispatch(post(env.web.hosts.browserHeaders()), "browser");
    expect(ok.response.status).toBe(200);
    expect(ok.response.body).toContain("<h1>Saved</h1>");
    expect(env.portal.list().map((s) => s.record.accession)).toEqual([ACC.aaa8k]);
    expect(env.tools.map((t) => t.name)).toEqual([
      "http_get",
      "browser_navigate",
      "browser_snapshot",
      "browser_click",
      "browser_fill",
      "browser_select",
      "browser_submit",
    ]);
    const h = at(T.aaaQ, {});
    expect(await h.runtime.call("agent", "http_get", { host: "portal", path: "/" })).toEqual({
      ok: false,
      error: 'host "portal" is writable: open http://portal.relive.test/ in the browser instead',
    });
    h.close();
  });

  it("a malformed form is refused with its errors and the form again (400)", async () => {
    const env = hostsAt(T.aaaQ, "browser");
    const req = new Request("http://portal.relive.test/filings", {
      method: "POST",
      body: "ticker=AAA&accession=12&form=10-Q&accepted_at=2026-03-04%2008%3A15&revenue=lots",
      headers: { "content-type": "application/x-www-form-urlencoded", ...env.web.hosts.browserHeaders() },
    });
    const r = await env.web.hosts.dispatch(req, "browser");
    expect(r.response.status).toBe(400);
    expect(r.response.body).toContain("revenue: not a number: &quot;lots&quot;");
    expect(env.portal.list()).toEqual([]);
  });

  it("API mode: record_filing saves (a commitment), list_filings reads, bad rows are free rejections", async () => {
    const h = at(T.aaaQ + 60_000);
    const row = {
      ticker: "aaa",
      accession: ACC.aaaQ,
      form: "10-Q",
      accepted_at: "2026-03-04T13:15Z",
      fy: 2026,
      fp: "Q1",
      revenue: 1e9,
      eps_diluted: 1.23,
    };
    const saved = await h.runtime.call("agent", "record_filing", row);
    expect(saved).toEqual({
      ok: true,
      value: {
        ...row,
        ticker: "AAA",
        accepted_at: "2026-03-04T13:15:00.000Z",
        saved_at: "2026-03-04T13:16:00.000Z",
        saves: 1,
      },
    });
    const bad = await h.runtime.call("agent", "record_filing", { ...row, accepted_at: "2026-03-04T08:15-05:00" });
    expect(bad.ok).toBe(false);
    expect((bad as { error: string }).error).toMatch(
      /^invalid arguments for record_filing: accepted_at: must be UTC with a Z, to the minute \(2022-10-24T10:08Z\)\. Valid arguments: /,
    );
    const list = await h.runtime.call("agent", "list_filings", {});
    expect((list as { value: { records: unknown[] } }).value.records).toHaveLength(1);
    h.close();
  });
});
