import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDashboard, LOOPBACK_HOSTS } from "../../src/web/app.js";
import { startDashboard } from "../../src/web/serve.js";
import { type BigRun, writeBigRun } from "./big-run.js";
import { makeRealRun, type RealRun } from "./real-run.js";

let root: string;
let real: RealRun;
let realId: string;
let big: BigRun;
let live: BigRun;
let liveMtime: number;

const BIG_ID = "b16a0c0ffee0-s0";
const LIVE_ID = "a11ce0000000-s1";

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "relive-web-app-"));
  real = await makeRealRun(join(root, "runs"));
  realId = basename(real.runDir);
  big = writeBigRun(join(root, "runs"), { events: 20_000, days: 2, template: real });
  live = writeBigRun(join(root, "runs"), {
    events: 5_000,
    days: 3,
    finished: false,
    torn: true,
    runId: "a11ce0000000",
    seed: 1,
  });
  const tdir = join(live.runDir, "transcripts");
  mkdirSync(tdir, { recursive: true });
  const msgs = Array.from({ length: 120 }, (_, i) =>
    JSON.stringify(
      i % 3 === 0
        ? { t: live.simStart + i * 60_000, role: "user", content: `(woke at ${i})` }
        : i % 3 === 1
          ? { role: "assistant", content: null, tool_calls: [{ id: `c${i}`, name: "list_posts", arguments: "{}" }] }
          : { role: "tool", tool_call_id: `c${i - 1}`, name: "list_posts", content: `result <${i}>` },
    ),
  );
  writeFileSync(join(tdir, "agent.jsonl"), `${msgs.join("\n")}\n`);
  liveMtime = statSync(join(live.runDir, "ledger.jsonl")).mtimeMs;
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A dashboard whose wall clock is `lateBy` ms after the live run's last ledger write. */
const dashboard = (lateBy = 1_000) =>
  createDashboard({ runs: [join(root, "runs")], now: () => liveMtime + lateBy }).app;

const json = async (app: ReturnType<typeof dashboard>, url: string, status = 200) => {
  const res = await app.request(url);
  expect(res.status, url).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  return (await res.json()) as Record<string, unknown> & { error?: string };
};
const page = async (app: ReturnType<typeof dashboard>, url: string, status = 200) => {
  const res = await app.request(url);
  expect(res.status, url).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/text\/html/);
  const text = await res.text();
  expect(text).not.toMatch(/<script/i);
  return text;
};

describe("runs list", () => {
  it("lists every run with status, primary metric, spend, flags and progress", async () => {
    const app = dashboard();
    const body = await json(app, "/api/runs");
    const runs = body.runs as Record<string, unknown>[];
    expect(body.total).toBe(3);
    expect(runs.map((r) => r.id)).toEqual([BIG_ID, LIVE_ID, realId]); // by task, model, trigger, seed
    const byId = Object.fromEntries(runs.map((r) => [r.id, r]));
    const results = real.results as { performance: { primary: unknown }; resources: { spent_usd: number } };
    expect(byId[realId]).toMatchObject({
      task: "daily-digest",
      model: "scripted:top-comments",
      trigger: "sleep",
      seed: 0,
      status: "finished",
      primary: results.performance.primary,
      spent_usd: results.resources.spent_usd,
      flags: [],
      problems: [],
    });
    expect(byId[BIG_ID]).toMatchObject({
      status: "finished",
      events: 20_000,
      primary: { name: "digest_acc", value: 0.7321, direction: "higher" },
      problems: [],
    });
    expect(byId[LIVE_ID]).toMatchObject({
      status: "running",
      primary: null,
      events: 5_000,
      day: 3,
      days: 3,
      flags: ["torn_ledger"],
      last_t: new Date(live.simEnd).toISOString(),
    });
    const late = await json(dashboard(3_600_000), "/api/runs?status=incomplete");
    expect((late.runs as { id: string }[]).map((r) => r.id)).toEqual([LIVE_ID]);
  });

  it("filters by task, model, trigger, status and text, and sorts", async () => {
    const app = dashboard();
    const ids = async (q: string) => ((await json(app, `/api/runs${q}`)).runs as { id: string }[]).map((r) => r.id);
    expect(await ids("?model=scripted:top-comments")).toEqual([realId]);
    expect(await ids("?trigger=cron")).toEqual([]);
    expect(await ids("?status=finished&sort=events&order=desc")).toEqual([BIG_ID, realId]);
    expect(await ids("?q=A11CE")).toEqual([LIVE_ID]);
    expect(await ids("?q=torn_ledger")).toEqual([LIVE_ID]);
    expect(await ids("?task=daily-digest&sort=seed&order=desc")).toEqual([LIVE_ID, BIG_ID, realId]);
    expect(await ids("?sort=id")).toEqual([realId, LIVE_ID, BIG_ID].sort());
    const realPrimary = (real.results as { performance: { primary: { value: number } } }).performance.primary.value;
    expect(realPrimary).not.toBe(0.7321);
    const html = await page(app, "/runs?status=finished&sort=primary&order=desc");
    expect(html).toContain("2 of 3 runs");
    expect(html.indexOf(`data-run="${BIG_ID}"`) < html.indexOf(`data-run="${realId}"`)).toBe(0.7321 > realPrimary);
    expect(html).not.toContain(`data-run="${LIVE_ID}"`);
  });
});

describe("run pages", () => {
  it("shows results of a finished run and ledger progress of an unfinished one", async () => {
    const app = dashboard(3_600_000);
    const d = await json(app, `/api/runs/${realId}`);
    expect(d.results).toEqual(real.results);
    expect(d.config).toEqual(real.config);
    const html = await page(app, `/runs/${realId}`);
    const primary = (real.results as { performance: { primary: { value: number } } }).performance.primary.value;
    expect(html).toContain(`<div class="big" id="primary">${primary}</div>`);
    expect(html).toContain("Diagnostics");

    const liveHtml = await page(app, `/runs/${LIVE_ID}`);
    expect(liveHtml).toContain("it was interrupted");
    expect(liveHtml).toContain("day 3 of 3");
    expect(liveHtml).toContain("5,000");
    expect(liveHtml).toContain("torn_ledger");
  });

  it("shows what an off-schema results.json (another harness version) still says, and names the mismatch", async () => {
    const other = join(root, "other-runs", "old");
    cpSync(real.runDir, other, { recursive: true });
    const { diagnostics: _dropped, ...old } = real.results;
    writeFileSync(join(other, "results.json"), JSON.stringify(old));
    const app = createDashboard({ runs: [join(root, "other-runs")] }).app;
    const list = await json(app, "/api/runs");
    const row = (list.runs as Record<string, unknown>[])[0]!;
    expect(row).toMatchObject({
      id: "old",
      status: "finished",
      primary: (real.results as { performance: { primary: unknown } }).performance.primary,
    });
    expect(row.problems).toEqual([
      expect.stringMatching(/^results\.json does not match the results schema: diagnostics: /),
    ]);
    const html = await page(app, "/runs/old");
    expect(html).toContain("results.json (as written)");
    expect(html).not.toContain("interrupted");
  });

  it("derives the timeline from the ledger: it agrees with results.json", async () => {
    const app = dashboard();
    const tl = await json(app, `/api/runs/${realId}/timeline`);
    const r = real.results as {
      resources: { wakes: number; spent_usd: number };
      outcomes: { key: string; status: string; credit: number | null }[];
    };
    expect((tl.wakes as { count: number }).count).toBe(r.resources.wakes);
    expect((tl.spend as { total_usd: number }).total_usd).toBeCloseTo(r.resources.spent_usd, 12);
    expect(
      (tl.outcomes as { items: { key: string; status: string; credit: number | null }[] }).items.map((o) => [
        o.key,
        o.status,
        o.credit,
      ]),
    ).toEqual(r.outcomes.map((o) => [o.key, o.status, o.credit]));
    const html = await page(app, `/runs/${realId}/timeline`);
    expect(html).toContain('<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="run timeline"');
    expect(html.match(/<circle /g)?.length).toBe(r.outcomes.length);
    const bigHtml = await page(app, `/runs/${BIG_ID}/timeline`);
    expect(bigHtml).toContain("shown as per-bin counts");
  });

  it("pages the ledger: links, filters and a jump to a time", async () => {
    const app = dashboard();
    const p = await json(app, `/api/runs/${BIG_ID}/ledger?limit=3&cursor=10`);
    expect(p).toMatchObject({ run: BIG_ID, limit: 3, total: 20_000, prev: 10, next: 13, partial: false });
    expect((p.rows as { seq: number }[]).map((r) => r.seq)).toEqual([10, 11, 12]);
    const f = await json(app, `/api/runs/${BIG_ID}/ledger?type=commitment&type=outcome&limit=4`);
    expect(f.type).toEqual(["commitment", "outcome"]);
    expect((f.rows as { type: string }[]).map((r) => r.type)).toEqual([
      "commitment",
      "commitment",
      "outcome",
      "commitment",
    ]);
    const at = await json(app, `/api/runs/${BIG_ID}/ledger?at=2026-03-02T00:00:00Z&limit=1&type=daily_brief`);
    expect((at.rows as { event: { day: number } }[])[0]!.event.day).toBe(2);
    const html = await page(app, `/runs/${BIG_ID}/ledger?limit=25`);
    expect(html).toContain("lines 0–24 of 20,000");
    expect(html).toContain('rel="next" href="?limit=25&amp;cursor=25"');
    expect(html).toContain('rel="last" href="?limit=25&amp;before=20000"');
    expect(html.match(/<tr id="L/g)?.length).toBe(25);
  });

  it("pages transcripts, and says when a run has none", async () => {
    const app = dashboard();
    const t = await json(app, `/api/runs/${LIVE_ID}/transcript?limit=50&cursor=50`);
    expect(t).toMatchObject({ files: ["transcripts/agent.jsonl"], file: 0, total: 120, prev: 0, next: 100 });
    const rows = t.rows as { line: number; message: { role: string } }[];
    expect(rows.map((r) => r.line)).toEqual(Array.from({ length: 50 }, (_, i) => 50 + i));
    expect(rows[0]!.message.role).toBe("tool");
    const html = await page(app, `/runs/${LIVE_ID}/transcript?limit=10`);
    expect(html).toContain("result &lt;2&gt;");
    expect(html).toContain("(woke at 0)");
    expect(await page(app, `/runs/${realId}/transcript`)).toContain('id="no-transcript"');
    expect((await json(app, `/api/runs/${LIVE_ID}/transcript?file=3`, 404)).error).toMatch(/has 1 transcript file/);
  });
});

describe("bad requests", () => {
  const cases: [string, RegExp][] = [
    ["ledger?limit=0", /limit: must be at least 1/],
    ["ledger?limit=5000", /limit: must be at most 1000/],
    ["ledger?limit=ten", /limit: expected a positive integer/],
    ["ledger?cursor=-1", /cursor: expected a line number/],
    ["ledger?cursor=1.5", /cursor: expected a line number/],
    ["ledger?type=wake,bogus", /unknown event type "bogus"; known: run_start, wake/],
    ["ledger?at=yesterday", /at: expected a simulated time as ISO 8601/],
    ["ledger?cursor=1&before=5", /give at most one of cursor, before and at/],
    ["ledger?cursor=1&cursor=2", /query parameter "cursor" is given more than once/],
    ["ledger?foo=1", /unknown query parameter "foo"/],
    ["timeline?limit=5", /unknown query parameter "limit"/],
    ["transcript?limit=501", /limit: must be at most 500/],
  ];
  it.each(cases)("%s → 400 with a message naming the problem", async (q, message) => {
    const app = dashboard();
    const body = await json(app, `/api/runs/${BIG_ID}/${q}`, 400);
    expect(body.error).toMatch(message);
    const html = await page(app, `/runs/${BIG_ID}/${q}`, 400);
    expect(html).toContain("400 Bad request");
  });

  it("rejects bad runs-list parameters", async () => {
    const app = dashboard();
    expect((await json(app, "/api/runs?status=done", 400)).error).toMatch(/status: Invalid option/);
    expect((await json(app, "/api/runs?sort=bogus", 400)).error).toMatch(/sort: Invalid option/);
  });

  it("never resolves a run id to a path outside the runs found (traversal attempts are 404s)", async () => {
    const app = dashboard();
    for (const id of [
      "..",
      "..%2F..%2F..%2Fetc%2Fpasswd",
      "%2e%2e",
      "%2Fetc",
      `${BIG_ID}%2F..%2F..`,
      "daily-digest",
      ".relive",
      `${BIG_ID}%00`,
    ]) {
      const body = await json(app, `/api/runs/${id}/ledger`, 404);
      expect(body.error).toMatch(/^(unknown run id|no page at)/);
      await page(app, `/runs/${id}/ledger`, 404);
      // "/runs/.." normalizes to "/", which redirects to the list: never a file
      expect([302, 404]).toContain((await app.request(`/runs/${id}`)).status);
    }
    expect((await app.request("/api/runs/../../etc/passwd")).status).toBe(404);
    const html = await page(app, "/runs/..%2F..%2Fetc/ledger", 404);
    expect(html).not.toContain("root:");
  });

  it("serves only loopback Host headers when told to (DNS-rebinding guard), with a strict CSP", async () => {
    const { app } = createDashboard({ runs: [join(root, "runs")], allowedHosts: LOOPBACK_HOSTS });
    const ok = await app.request("http://127.0.0.1:9999/runs");
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-security-policy")).toContain("default-src 'none'");
    const bad = await app.request("/runs", { headers: { host: "evil.example:8737" } });
    expect(bad.status).toBe(403);
    expect(await bad.text()).toContain("evil.example");
  });
});

describe("startDashboard", () => {
  it("binds 127.0.0.1 on a free port and serves the pages", async () => {
    const server = await startDashboard({ runs: [join(root, "runs")], port: 0 });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const res = await fetch(`${server.url}api/runs/${BIG_ID}/ledger?limit=1`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { total: number }).total).toBe(20_000);
      const first = readFileSync(join(big.runDir, "ledger.jsonl"), "utf8").slice(0, 20);
      expect(first).toBe('{"seq":0,"type":"run');
    } finally {
      await server.close();
    }
  });
});
