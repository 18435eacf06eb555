import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { httpGetTool } from "../../../src/tools/browser/http-get-tool.js";
import { canonicalEffects, type WebEffect } from "../../../src/tools/browser/web-effects.js";
import {
  BROWSER_SECRET_HEADER,
  type HostEnv,
  type HostRequestLog,
  loggedBody,
  type WebHost,
  WebHostSet,
} from "../../../src/tools/web-host.js";

/** A host that echoes what it received (method, path, body, headers it saw, env). */
function echoHost(name: string, writes: WebHost["writes"]): WebHost {
  const app = new Hono<{ Bindings: HostEnv }>();
  app.all("*", async (c) =>
    c.json({
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      body: c.req.method === "GET" ? null : await c.req.text(),
      secret: c.req.header(BROWSER_SECRET_HEADER) ?? null,
      env: c.env,
    }),
  );
  return { name, title: `${name} echo`, writes, redact: ["password"], fetch: (r, env) => app.fetch(r, env) };
}

const SECRET = "s3cret";
const NOW = Date.parse("2026-03-02T10:00:00Z");

function hosts() {
  return new WebHostSet(
    [echoHost("data", "none"), echoHost("site", "browser"), echoHost("api", "tool")],
    () => NOW,
    SECRET,
  );
}

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  new Request(url, {
    method: "POST",
    body,
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  });

describe("WebHostSet: origins, the write rule and the request log", () => {
  it("resolves only exact http://<name>.relive.test origins", () => {
    const h = hosts();
    expect(h.hostOfUrl("http://data.relive.test/x?y=1")?.name).toBe("data");
    for (const u of [
      "https://data.relive.test/",
      "http://data.relive.test:8080/",
      "http://user:pw@data.relive.test/",
      "http://nope.relive.test/",
      "http://data.relive.test.evil.example/",
      "http://127.0.0.1/",
      "not a url",
    ])
      expect(h.hostOfUrl(u), u).toBeNull();
    expect(() => new WebHostSet([echoHost("Bad_Name", "none")], () => NOW)).toThrow(/DNS label/);
    expect(() => new WebHostSet([echoHost("a", "none"), echoHost("a", "none")], () => NOW)).toThrow(/duplicate/);
  });

  it("a read-only host refuses writes (405); a browser-writable host only takes the browser's proven writes", async () => {
    const h = hosts();
    const log: HostRequestLog[] = [];
    h.subscribe((e) => log.push(e));
    expect((await h.dispatch(post("http://data.relive.test/x", "a=1"), "browser")).response.status).toBe(405);
    // no secret, wrong secret, or a non-browser channel: refused before the handler runs
    expect((await h.dispatch(post("http://site.relive.test/f", "a=1"), "browser")).response.status).toBe(403);
    expect(
      (await h.dispatch(post("http://site.relive.test/f", "a=1", { [BROWSER_SECRET_HEADER]: "guess" }), "browser"))
        .response.status,
    ).toBe(403);
    expect(
      (await h.dispatch(post("http://site.relive.test/f", "a=1", h.browserHeaders()), "http_get")).response.status,
    ).toBe(403);
    expect((await h.dispatch(post("http://site.relive.test/f", "a=1"), "tool")).response.status).toBe(403);
    // the browser with the run's secret: served, and the handler never sees the secret
    const ok = await h.dispatch(
      post("http://site.relive.test/f", "password=hunter2&a=1", h.browserHeaders()),
      "browser",
    );
    expect(ok.response.status).toBe(200);
    const echoed = JSON.parse(ok.response.body);
    expect(echoed).toMatchObject({ method: "POST", path: "/f", body: "password=hunter2&a=1", secret: null });
    expect(echoed.env).toEqual({ now: NOW, channel: "browser" });
    // an API-mode host takes writes from its tool only
    expect(
      (await h.dispatch(post("http://api.relive.test/f", "a=1", h.browserHeaders()), "browser")).response.status,
    ).toBe(403);
    expect((await h.dispatch(post("http://api.relive.test/f", "a=1"), "tool")).response.status).toBe(200);
    // reads are served from any channel
    expect((await h.dispatch(new Request("http://site.relive.test/p?q=1"), "http_get")).response.status).toBe(200);
    expect(log.map((e) => [e.channel, e.host, e.method, e.path, e.status])).toEqual([
      ["browser", "data", "POST", "/x", 405],
      ["browser", "site", "POST", "/f", 403],
      ["browser", "site", "POST", "/f", 403],
      ["http_get", "site", "POST", "/f", 403],
      ["tool", "site", "POST", "/f", 403],
      ["browser", "site", "POST", "/f", 200],
      ["browser", "api", "POST", "/f", 403],
      ["tool", "api", "POST", "/f", 200],
      ["http_get", "site", "GET", "/p?q=1", 200],
    ]);
    // write bodies are logged redacted; reads carry no body; the secret is never logged
    expect(log[5]!.body).toBe("password=%5Bredacted%5D&a=1");
    expect(log[8]!.body).toBeNull();
    expect(JSON.stringify(log)).not.toContain(SECRET);
  });

  it("redacts JSON bodies and caps long ones", () => {
    expect(loggedBody('{"password":"x","user":"u"}', "application/json", ["password"])).toBe(
      '{"password":"[redacted]","user":"u"}',
    );
    expect(loggedBody("y".repeat(20_000), "text/plain", [])).toHaveLength(16_384 + "…[truncated]".length);
  });
});

describe("http_get", () => {
  const tool = httpGetTool(hosts(), { price_usd: 0.001 });
  const call = (a: unknown) => tool.invoke(tool.args.parse(a), { now: () => NOW, actor: "agent" });

  it("reads a read-only host in pages; refuses unknown and writable hosts and bad paths (free)", async () => {
    const r = await call({ host: "data", path: "/hello?x=1", max_chars: 10 });
    expect(r.ok).toBe(true);
    const v = (r as { value: { status: number; body: string; total_chars: number; next_offset: number | null } }).value;
    expect(v.status).toBe(200);
    expect(v.body).toHaveLength(10);
    expect(v.next_offset).toBe(10);
    const rest = (await call({ host: "data", path: "/hello?x=1", offset: 10, max_chars: 100_000 })) as {
      value: { body: string; next_offset: number | null };
    };
    expect(JSON.parse(v.body + rest.value.body)).toMatchObject({
      method: "GET",
      path: "/hello",
      env: { channel: "http_get" },
    });
    expect(rest.value.next_offset).toBeNull();
    expect(await call({ host: "nope", path: "/" })).toEqual({
      ok: false,
      error: 'unknown host "nope"; read-only hosts: data',
    });
    expect(await call({ host: "site", path: "/" })).toEqual({
      ok: false,
      error: 'host "site" is writable: open http://site.relive.test/ in the browser instead',
    });
    expect(await call({ host: "data", path: "x" })).toEqual({ ok: false, error: 'path must start with "/", got "x"' });
    expect(tool.priceOf(tool.args.parse({ host: "data", path: "/" }))).toBe(0.001);
    expect(tool.kind).toBe("data");
  });
});

describe("canonical effect order", () => {
  it("reads sorted, writes in arrival order, blocked sorted: independent of request timing", () => {
    const e: WebEffect[] = [
      { kind: "blocked", method: "GET", url: "https://z.example/", resource: "image" },
      { kind: "request", host: "site", method: "GET", path: "/b", status: 200 },
      { kind: "request", host: "site", method: "POST", path: "/2", status: 200, body: "b=2" },
      { kind: "request", host: "data", method: "GET", path: "/z", status: 404 },
      { kind: "blocked", method: "GET", url: "https://a.example/", resource: "script" },
      { kind: "request", host: "site", method: "POST", path: "/1", status: 200, body: "a=1" },
    ];
    const order = canonicalEffects(e).map((x) => (x.kind === "request" ? `${x.host}${x.path}` : x.url));
    expect(order).toEqual(["data/z", "site/b", "site/2", "site/1", "https://a.example/", "https://z.example/"]);
    expect(canonicalEffects([...e].reverse()).filter((x) => x.kind !== "request" || !x.body)).toEqual(
      canonicalEffects(e).filter((x) => x.kind !== "request" || !x.body),
    );
  });
});
