/**
 * The browser tool set against real headless Chromium (one launch for the whole file): routing to
 * in-process hosts, blocking and logging of everything else, forms through refs, the per-run secret,
 * the page clock on simulated time, deterministic snapshots, and closing at the kernel's end.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readLedger } from "../../../src/ledger/ledger-reader.js";
import { LedgerWriter } from "../../../src/ledger/ledger-writer.js";
import { Wallet } from "../../../src/ledger/wallet.js";
import { BROWSER_ACTION_TOOLS } from "../../../src/tools/browser/browser-tool-names.js";
import { chromiumMissing } from "../../../src/tools/browser/launch.js";
import type { WebEffect } from "../../../src/tools/browser/web-effects.js";
import { effectsOfCommitment } from "../../../src/tools/browser/web-effects.js";
import { type WebToolSet, webToolSet } from "../../../src/tools/browser/web-tool-set.js";
import { ToolRuntime } from "../../../src/tools/tool-runtime.js";
import type { HostEnv, WebHost } from "../../../src/tools/web-host.js";

const missing = chromiumMissing();
if (missing) console.warn(`skipping browser tests: ${missing}`);

const T0 = Date.parse("2026-03-02T10:00:00Z");
const iso = (t: number) => new Date(t).toISOString();

function labHost(leakUrl: string, seen: { body: string; channel: string }[]): WebHost {
  const app = new Hono<{ Bindings: HostEnv }>();
  const html = (body: string) =>
    new Response(`<!doctype html><html><head><title>Lab</title></head><body>${body}</body></html>`, {
      headers: { "content-type": "text/html; charset=utf-8" },
    });
  app.get("/", () =>
    html(
      [
        "<h1>Lab</h1>",
        '<p id="t"></p><script>document.getElementById("t").textContent = "clock " + new Date().toISOString();</script>',
        '<img src="https://cdn.example/x.png" alt="x">',
        '<script src="https://evil.example/a.js"></script>',
        `<script>fetch("https://api.example/track").catch(() => {}); fetch(${JSON.stringify(leakUrl)}).catch(() => {});`,
        'try { new WebSocket("ws://ws.example/live"); } catch (e) {}</script>',
        '<iframe src="https://frame.example/"></iframe>',
        '<a href="/form">Form</a>',
      ].join("\n"),
    ),
  );
  app.get("/form", () =>
    html(
      [
        "<h1>Form</h1>",
        '<form method="post" action="/submit">',
        '<label>User <input name="user"></label>',
        '<label>Password <input name="password" type="password"></label>',
        '<label>Color <select name="color"><option value="red">Red</option><option value="green">Green</option></select></label>',
        '<button type="submit">Send</button>',
        "</form>",
      ].join("\n"),
    ),
  );
  app.post("/submit", async (c) => {
    const body = await c.req.text();
    seen.push({ body, channel: c.env.channel });
    return new Response(`<!doctype html><title>Done</title><h1>Got it</h1><p>${body.length} bytes</p>`, {
      headers: { "content-type": "text/html", "set-cookie": "sid=abc; Path=/; HttpOnly" },
    });
  });
  app.get("/whoami", (c) => html(`<p>cookie: ${c.req.header("cookie") ?? "none"}</p>`));
  app.get("/redirect", () => new Response(null, { status: 302, headers: { location: "/form" } }));
  app.get("/timer", () =>
    html(
      '<h1>Timer</h1><button onclick="void 0">Poke</button><script>setTimeout(() => fetch("/tick"), 60000);</script>',
    ),
  );
  app.get("/tick", (c) => c.text("tick"));
  return {
    name: "lab",
    title: "a test site",
    writes: "browser",
    redact: ["password"],
    fetch: (r, env) => app.fetch(r, env),
  };
}

describe.skipIf(missing !== null)("browser tools on headless Chromium", () => {
  let clock = T0;
  let hits = 0;
  let server: Server;
  let web: WebToolSet;
  let runtime: ToolRuntime;
  let ledgerPath: string;
  let closeAtEnd: (() => void | Promise<void>) | null = null;
  const seen: { body: string; channel: string }[] = [];
  const END = T0 + 86_400_000;

  beforeAll(async () => {
    server = createServer((_q, s) => {
      hits++;
      s.end("leaked");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const leakUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/leak`;
    web = webToolSet({
      hosts: [labHost(leakUrl, seen)],
      now: () => clock,
      browser: true,
      http_get_usd: 0,
      browser_usd: 0,
      closeAt: {
        end: END,
        at: (t, fn) => {
          expect(t).toBe(END);
          closeAtEnd = () => fn(t);
        },
      },
    });
    ledgerPath = join(mkdtempSync(join(tmpdir(), "relive-browser-")), "ledger.jsonl");
    const ledger = LedgerWriter.create(ledgerPath);
    const wallet = new Wallet({ budget_usd: 1, domain_caps: {} });
    ledger.subscribe((e) => wallet.apply(e));
    runtime = new ToolRuntime({ tools: web.tools, limiters: {}, ledger, wallet, now: () => clock });
  });

  afterAll(async () => {
    await web?.dispose();
    await new Promise<void>((r) => server?.close(() => r()));
  });

  type Page = {
    url: string;
    status: number | null;
    rendered_at: string;
    snapshot: string;
    blocked: string[];
    blocked_count: number;
  };
  const call = async (tool: string, args: unknown) => runtime.call("agent", tool, args);
  const page = async (tool: string, args: unknown): Promise<Page> => {
    const r = await call(tool, args);
    if (!r.ok) throw new Error(`${tool} rejected: ${r.error}`);
    return r.value as Page;
  };
  const lastEffects = (): WebEffect[] => {
    const c = readLedger(ledgerPath).filter((e) => e.type === "commitment");
    const last = c.at(-1);
    return last && last.type === "commitment" ? effectsOfCommitment(last) : [];
  };
  const ref = (snapshot: string, role: string, name: string) => {
    const m = new RegExp(`- ${role} "${name}"[^\\n]*\\[ref=(\\w+)\\]`).exec(snapshot);
    if (!m) throw new Error(`no ${role} "${name}" in\n${snapshot}`);
    return m[1]!;
  };

  it("refuses URLs outside the task's hosts (free) without launching Chromium", async () => {
    expect(web.tools.map((t) => t.name)).toEqual([
      "browser_navigate",
      "browser_snapshot",
      "browser_click",
      "browser_fill",
      "browser_select",
      "browser_submit",
    ]);
    const r = await call("browser_navigate", { url: "https://example.com/" });
    expect(r).toEqual({
      ok: false,
      error: `the browser reaches only this task's hosts: lab (http://lab.relive.test/); got "https://example.com/"`,
    });
    expect(await page("browser_snapshot", {})).toMatchObject({ url: "about:blank", rendered_at: null, snapshot: "" });
    expect(await call("browser_click", { ref: "e1" })).toEqual({
      ok: false,
      error: "no page is open yet: call browser_navigate first",
    });
    expect(web.session?.launched).toBe(false);
  });

  it("renders at simulated time and blocks + logs every request to anything but the hosts (nothing leaves)", async () => {
    const p = await page("browser_navigate", { url: "http://lab.relive.test/" });
    expect(web.session?.launched).toBe(true);
    expect(p).toMatchObject({ url: "http://lab.relive.test/", status: 200, rendered_at: iso(T0) });
    expect(p.snapshot).toContain('heading "Lab"');
    expect(p.snapshot).toContain(`clock ${iso(T0)}`); // the page's Date is the simulated clock
    const effects = lastEffects();
    expect(effects[0]).toEqual({ kind: "request", host: "lab", method: "GET", path: "/", status: 200 });
    const blocked = effects.flatMap((e) => (e.kind === "blocked" ? [`${e.resource} ${e.url}`] : []));
    expect(blocked).toEqual(
      expect.arrayContaining([
        "image https://cdn.example/x.png",
        "script https://evil.example/a.js",
        "fetch https://api.example/track",
        expect.stringMatching(/^fetch http:\/\/127\.0\.0\.1:\d+\/leak$/),
        "document https://frame.example/",
        "websocket ws://ws.example/live",
      ]),
    );
    expect(blocked).toHaveLength(6);
    expect(p.blocked_count).toBe(6);
    expect(hits).toBe(0);
    // each blocked request is also a ledgered notice of its own
    const notes = readLedger(ledgerPath).flatMap((e) =>
      e.type === "note" && e.kind === "web_blocked" ? [e.message] : [],
    );
    expect(notes).toHaveLength(6);
    expect(notes).toContain("GET https://evil.example/a.js (script)");
  });

  it("snapshots are deterministic for the same page", async () => {
    const a = await page("browser_snapshot", {});
    const b = await page("browser_snapshot", {});
    expect(b).toEqual(a);
    // a new document of the same page: the same tree; only the frame prefix of refs ("f2e1") follows the history
    const again = await page("browser_navigate", { url: "http://lab.relive.test/" });
    const unprefixed = (s: string) => s.replace(/\[ref=f\d+e/g, "[ref=e");
    expect(unprefixed(again.snapshot)).toBe(unprefixed(a.snapshot));
  });

  it("fills, selects and submits a form by refs; the write is the browser's (secret proven) and ledgered redacted", async () => {
    let p = await page("browser_navigate", { url: "http://lab.relive.test/form" });
    p = await page("browser_fill", { ref: ref(p.snapshot, "textbox", "User"), text: "ann" });
    p = await page("browser_fill", { selector: 'input[name="password"]', text: "hunter2" });
    p = await page("browser_select", { ref: ref(p.snapshot, "combobox", "Color"), value: "Green" });
    p = await page("browser_submit", { ref: ref(p.snapshot, "combobox", "Color") });
    expect(p.snapshot).toContain('heading "Got it"');
    expect(seen).toEqual([{ body: "user=ann&password=hunter2&color=green", channel: "browser" }]);
    expect(lastEffects()).toEqual([
      {
        kind: "request",
        host: "lab",
        method: "POST",
        path: "/submit",
        status: 200,
        body: "user=ann&password=%5Bredacted%5D&color=green",
      },
    ]);
    // session cookies round-trip through the routed requests
    const who = await page("browser_navigate", { url: "http://lab.relive.test/whoami" });
    expect(who.snapshot).toContain("cookie: sid=abc");
    // every acting call is a commitment whose arguments carry its effects
    const commits = readLedger(ledgerPath).filter((e) => e.type === "commitment");
    expect(commits.every((e) => e.type === "commitment" && BROWSER_ACTION_TOOLS.includes(e.tool))).toBe(true);
    expect(
      commits.every((e) => e.type === "commitment" && Array.isArray((e.args as { effects?: unknown }).effects)),
    ).toBe(true);
  });

  it("bad refs, ambiguous selectors and unknown options are free rejections", async () => {
    await page("browser_navigate", { url: "http://lab.relive.test/form" });
    const bad = await call("browser_click", { ref: "e999" });
    expect(bad).toEqual({
      ok: false,
      error:
        "no element with ref e999 on the current page (refs change when the page changes: use the latest snapshot)",
    });
    expect(await call("browser_fill", { selector: "input", text: "x" })).toEqual({
      ok: false,
      error: 'matching "input" matches 2 elements: be more specific',
    });
    expect(await call("browser_select", { selector: "select", value: "blue" })).toEqual({
      ok: false,
      error: 'matching "select" has no option "blue"; options: "red" (Red), "green" (Green)',
    });
    expect((await call("browser_click", { ref: "e1", selector: "a" })).ok).toBe(false);
  });

  it("follows a host's redirect inside the browser; page timers fire only when simulated time passes", async () => {
    const r = await page("browser_navigate", { url: "http://lab.relive.test/redirect" });
    expect(r.url).toBe("http://lab.relive.test/form");
    expect(r.snapshot).toContain('heading "Form"');
    const t = await page("browser_navigate", { url: "http://lab.relive.test/timer" });
    expect(lastEffects()).toEqual([{ kind: "request", host: "lab", method: "GET", path: "/timer", status: 200 }]);
    clock += 2 * 60_000;
    expect(await page("browser_snapshot", {})).toMatchObject({ rendered_at: iso(T0) });
    const poked = await page("browser_click", { ref: ref(t.snapshot, "button", "Poke") });
    expect(poked.rendered_at).toBe(iso(clock));
    expect(lastEffects()).toEqual([{ kind: "request", host: "lab", method: "GET", path: "/tick", status: 200 }]);
  });

  it("closes Chromium at the kernel's end; no browser process is left", async () => {
    expect(closeAtEnd).not.toBeNull();
    await closeAtEnd!();
    expect(web.session?.launched).toBe(false);
    const children = execFileSync("ps", ["-o", "comm=", "--ppid", String(process.pid)], { encoding: "utf8" });
    expect(children).not.toMatch(/chrom/i);
    await expect(call("browser_navigate", { url: "http://lab.relive.test/" })).rejects.toThrow(
      /browser of this run is closed/,
    );
  });
});
