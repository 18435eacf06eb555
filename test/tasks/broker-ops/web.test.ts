/**
 * The broker-ops hosts and tools in process (no browser): the events/account API, the mailbox, the
 * login-gated broker site (HTML pages as the browser channel, the JSON API through the API-mode
 * tools), write access, rejections, credentials in the instruction and out of the ledger.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "../../../src/common/time.js";
import { dutyRoster } from "../../../src/tasks/broker-ops/duties.js";
import { brokerOpsTask } from "../../../src/tasks/broker-ops/index.js";
import { renderInstruction } from "../../../src/tasks/broker-ops/instruction.js";
import { BrokerOpsParams, DEFAULT_PASSWORD } from "../../../src/tasks/broker-ops/params.js";
import { brokerEnv } from "./env-harness.js";
import { bookIds, brokerWorldDir, END, START, T } from "./world.js";

const { be, mc } = bookIds();

let dir: string;
beforeAll(() => {
  dir = brokerWorldDir();
});
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});
function env(params: unknown = {}) {
  const h = brokerEnv(dir, params);
  open.push(h);
  return h;
}
const json = (body: string) => JSON.parse(body) as Record<string, unknown>;
const EVENTS = "http://events.relive.test";
const MAIL = "http://mail.relive.test";
const BROKER = "http://broker.relive.test";

describe("events/account API (read-only)", () => {
  it("serves the book as of now, validates queries, refuses writes", async () => {
    const h = env();
    h.setNow(T("2026-03-01T12:00:00Z"));
    const fills = await h.request("http_get", "GET", `${EVENTS}/api/events?kind=fill`);
    expect(fills.response.status).toBe(200);
    const page = json(fills.response.body) as { total: number; events: { id: string; t: string; side: string }[] };
    expect(page.total).toBe(2);
    expect(page.events.map((e) => [e.id, e.t, e.side])).toEqual([
      [be(5), "2026-03-01T01:20:00.000Z", "buy"],
      [be(9), "2026-03-01T11:15:00.000Z", "sell"],
    ]);
    const paged = json((await h.request("http_get", "GET", `${EVENTS}/api/events?limit=3&offset=2`)).response.body);
    expect(paged).toMatchObject({ offset: 2, next_offset: 5 });
    const account = json((await h.request("http_get", "GET", `${EVENTS}/api/account`)).response.body);
    expect(account).toMatchObject({
      as_of: "2026-03-01T12:00:00.000Z",
      opened: true,
      maintenance: 0.3,
      below_maintenance: false,
    });
    expect(account.positions).toEqual({ BTC: 2.75, ETH: 45 });
    const bad = await h.request("http_get", "GET", `${EVENTS}/api/events?kind=trade`);
    expect(bad.response.status).toBe(400);
    expect(json(bad.response.body).error).toBe("kind must be one of position, order, fill, margin_call, note");
    expect((await h.request("http_get", "GET", `${EVENTS}/api/events?since=yesterday`)).response.status).toBe(400);
    expect((await h.request("http_get", "GET", `${EVENTS}/nope`)).response.status).toBe(404);
    const write = await h.request("browser", "POST", `${EVENTS}/api/events`, { json: {} });
    expect(write.response.status).toBe(405);
    // day 4: the maintenance step the risk desk shows (generator v7: mc(1) issued 00:00, 243.47; v6: 00:25, 513.33)
    h.setNow(T("2026-03-04T00:30:00Z"));
    const calls = json((await h.request("http_get", "GET", `${EVENTS}/api/margin-calls`)).response.body);
    expect(calls.margin_calls).toEqual([
      expect.objectContaining({
        call_id: mc(1),
        required_amount: 243.47,
        deadline: "2026-03-04T04:00:00.000Z",
        wired_at: null,
      }),
    ]);
    expect(json((await h.request("http_get", "GET", `${EVENTS}/api/account`)).response.body).maintenance).toBe(0.36);
  });
});

describe("the broker site in the browser channel (in process)", () => {
  it("sign-in with password and mailed code, gated pages, stops and funding, sessions on simulated time", async () => {
    const h = env();
    const t0 = T("2026-03-04T00:30:00Z");
    h.setNow(t0);
    const gate = await h.request("browser", "GET", `${BROKER}/orders`);
    expect(gate.response.status).toBe(303);
    expect(gate.response.headers.location).toBe("/login");
    expect((await h.request("browser", "GET", `${BROKER}/login`)).response.body).toContain('name="password"');
    const bad = await h.request("browser", "POST", `${BROKER}/login`, {
      form: { username: "ops-desk", password: "nope-nope" },
    });
    expect(bad.response.status).toBe(401);
    expect(bad.response.body).toContain("4 more failed sign-ins in a row lock the account.");
    expect(bad.log.body).toBe("username=ops-desk&password=%5Bredacted%5D");
    const ok = await h.request("browser", "POST", `${BROKER}/login`, {
      form: { username: "ops-desk", password: DEFAULT_PASSWORD },
    });
    expect(ok.response.status).toBe(200);
    expect(ok.response.body).toContain('name="code"');
    expect(h.cookies.has("pending")).toBe(true);
    // the code arrives in the mailbox at once
    const box = json(
      (await h.request("http_get", "GET", `${MAIL}/api/messages?since=2026-03-04T00:30:00Z`)).response.body,
    ) as {
      messages: { id: string; subject: string; body: string }[];
    };
    expect(box.messages.map((m) => m.id)).toEqual(["otp-0001"]);
    const code = /code is (\d{6})/.exec(box.messages[0]!.body)![1]!;
    const signed = await h.request("browser", "POST", `${BROKER}/login/code`, { form: { code } });
    expect(signed.response.status).toBe(200);
    expect(signed.log.body).toBe("code=%5Bredacted%5D");
    expect(signed.response.body).toContain("You are signed in.");
    expect(h.cookies.has("sid")).toBe(true);
    expect(h.cookies.has("pending")).toBe(false);
    const risk = await h.request("browser", "GET", `${BROKER}/risk`);
    expect(risk.response.status).toBe(200);
    expect(risk.response.body).toContain(mc(1));
    const fund = await h.request("browser", "POST", `${BROKER}/risk/funding`, {
      form: { call_id: mc(1), amount: "243.47" },
    });
    expect(fund.response.status).toBe(201);
    expect(fund.response.body).toContain("Funding instruction FI-0001 sent");
    const future = await h.request("browser", "POST", `${BROKER}/risk/funding`, {
      form: { call_id: mc(2), amount: "1" },
    });
    expect(future.response.status).toBe(400);
    expect(future.response.body).toContain(`unknown margin call id: &quot;${mc(2)}&quot;`);
    const stop = await h.request("browser", "POST", `${BROKER}/orders/stops`, {
      form: { symbol: "BTC", side: "sell", qty: "0.25", trigger_price: "60000" },
    });
    expect(stop.response.status).toBe(201);
    expect(stop.log.body).toBe("symbol=BTC&side=sell&qty=0.25&trigger_price=60000");
    const badStop = await h.request("browser", "POST", `${BROKER}/orders/stops`, {
      form: { symbol: "XRP", side: "up", qty: "-1", trigger_price: "x" },
    });
    expect(badStop.response.status).toBe(400);
    expect(h.env.records.stops).toHaveLength(1);
    expect(h.env.records.stops[0]).toMatchObject({
      id: "SO-0001",
      symbol: "BTC",
      side: "sell",
      qty: 0.25,
      trigger_price: 60000,
    });
    // 29 idle minutes keep the session, 30 end it
    h.setNow(t0 + 29 * MINUTE_MS);
    expect((await h.request("browser", "GET", `${BROKER}/`)).response.status).toBe(200);
    h.setNow(t0 + 59 * MINUTE_MS);
    expect((await h.request("browser", "GET", `${BROKER}/`)).response.status).toBe(303);
    const expired = await h.request("browser", "POST", `${BROKER}/orders/stops`, {
      form: { symbol: "BTC", side: "sell", qty: "0.25", trigger_price: "60000" },
    });
    expect(expired.response.status).toBe(401);
    expect(h.env.records.stops).toHaveLength(1);
  });

  it("writes come only from the browser (with the run's secret) in browser mode; http_get reads only read-only hosts", async () => {
    const h = env();
    h.setNow(T("2026-03-02T10:00:00Z"));
    const tool = await h.request("tool", "POST", `${BROKER}/login`, {
      form: { username: "ops-desk", password: DEFAULT_PASSWORD },
    });
    expect(tool.response.status).toBe(403);
    const forged = await h.env.web.hosts.dispatch(
      new Request(`${BROKER}/login`, { method: "POST", body: "username=ops-desk" }),
      "browser",
    );
    expect(forged.response.status).toBe(403);
    const r = await h.runtime.call("agent", "http_get", { host: "broker", path: "/" });
    expect(r).toEqual({
      ok: false,
      error: 'host "broker" is writable: open http://broker.relive.test/ in the browser instead',
    });
    expect(h.env.tools.map((t) => t.name)).toEqual([
      "http_get",
      "browser_navigate",
      "browser_snapshot",
      "browser_click",
      "browser_fill",
      "browser_select",
      "browser_submit",
    ]);
  });
});

describe("API mode: the site's tools", () => {
  it("sign-in, code, reads, stop and funding commitments, free rejections, and a ledger without secrets", async () => {
    const h = env({ site_mode: "api" });
    expect(h.env.tools.map((t) => t.name)).toEqual([
      "http_get",
      "broker_sign_in",
      "broker_enter_code",
      "broker_get",
      "place_stop",
      "send_funding",
      "broker_sign_out",
    ]);
    h.setNow(T("2026-03-04T00:30:00Z"));
    const call = (tool: string, args: unknown) => h.runtime.call("agent", tool, args);
    expect(await call("place_stop", { symbol: "BTC", side: "sell", qty: 0.25, trigger_price: 60000 })).toEqual({
      ok: false,
      error: "not signed in (or the session expired): sign in again (status 401)",
    });
    expect(await call("broker_get", { path: "/api/account" })).toMatchObject({ ok: false });
    const wrong = await call("broker_sign_in", { username: "ops-desk", password: "Margin-Desk-2025" });
    expect(wrong).toEqual({
      ok: false,
      error: "Invalid username or password. 4 more failed sign-ins in a row lock the account. (status 401)",
    });
    const bad = await call("place_stop", { symbol: "BTC", side: "up", qty: 1, trigger_price: 1 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/^invalid arguments for place_stop: side/);
    const started = await call("broker_sign_in", { username: "ops-desk", password: DEFAULT_PASSWORD });
    expect(started).toMatchObject({ ok: true, value: { status: "code_sent", mail_id: "otp-0001" } });
    const mail = await call("http_get", { host: "mail", path: "/api/messages/otp-0001" });
    const code = /code is (\d{6})/.exec(
      (json((mail as { value: { body: string } }).value.body) as { body: string }).body,
    )![1]!;
    expect(await call("broker_enter_code", { code: "99999x" })).toMatchObject({ ok: false });
    expect(await call("broker_enter_code", { code })).toMatchObject({ ok: true, value: { signed_in: true } });
    expect(await call("broker_get", { path: "/api/session" })).toMatchObject({
      ok: true,
      value: { signed_in: true, expires_at: "2026-03-04T01:00:00.000Z", ends_at: "2026-03-05T00:00:00.000Z" },
    });
    expect(await call("send_funding", { call_id: "mc-0009", amount: 100 })).toEqual({
      ok: false,
      error: 'unknown margin call id: "mc-0009" (status 400)',
    });
    expect(await call("send_funding", { call_id: mc(1), amount: 243.47 })).toMatchObject({
      ok: true,
      value: { funding: { id: "FI-0001", call_id: mc(1), amount: 243.47 } },
    });
    expect(await call("place_stop", { symbol: "ETH", side: "sell", qty: 5, trigger_price: 2900 })).toMatchObject({
      ok: true,
      value: { stop: { id: "SO-0001", symbol: "ETH", side: "sell" } },
    });
    expect(await call("place_stop", { symbol: "XRP", side: "sell", qty: 5, trigger_price: 2900 })).toEqual({
      ok: false,
      error: "symbol must be one of BTC, ETH (status 400)",
    });
    const orders = await call("broker_get", { path: "/api/orders" });
    expect((orders as { value: { stops: unknown[] } }).value.stops).toHaveLength(1);
    expect(await call("broker_sign_out", {})).toMatchObject({ ok: true });
    expect(await call("broker_get", { path: "/api/session" })).toEqual({ ok: true, value: { signed_in: false } });
    // the ledger: commitments only for accepted instructions; neither the password nor any code appears
    const ledger = h.ledgerText();
    const lines = ledger
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; tool?: string });
    expect(lines.filter((e) => e.type === "commitment").map((e) => e.tool)).toEqual(["send_funding", "place_stop"]);
    expect(ledger).toContain('"password":"[redacted:broker_password]"');
    expect(ledger).toContain('"code":"[redacted:broker_code]"');
    expect(ledger).not.toContain(DEFAULT_PASSWORD);
    for (const c of h.env.desk.issuedCodes) expect(ledger).not.toContain(`"${c}"`);
    expect(ledger).not.toContain(code);
  });

  it("five failures lock the account for every channel and tool", async () => {
    const h = env({ site_mode: "api" });
    h.setNow(T("2026-03-02T10:00:00Z"));
    for (let i = 0; i < 4; i++)
      await h.runtime.call("agent", "broker_sign_in", { username: "ops-desk", password: `bad-pass-${i}` });
    const fifth = await h.runtime.call("agent", "broker_sign_in", { username: "ops-desk", password: "bad-pass-5" });
    expect(fifth).toEqual({
      ok: false,
      error:
        "Invalid username or password. Account locked after 5 failed sign-ins in a row until 2026-03-03T10:00Z. (status 423)",
    });
    h.setNow(T("2026-03-03T09:59:00Z"));
    expect(
      await h.runtime.call("agent", "broker_sign_in", { username: "ops-desk", password: DEFAULT_PASSWORD }),
    ).toMatchObject({
      ok: false,
    });
    h.setNow(T("2026-03-03T10:00:00Z"));
    expect(
      await h.runtime.call("agent", "broker_sign_in", { username: "ops-desk", password: DEFAULT_PASSWORD }),
    ).toMatchObject({
      ok: true,
    });
  });
});

describe("instruction, credentials, deadlines", () => {
  it("renders the credentials from the run config and the real windows; never mentions feedback", async () => {
    const custom = BrokerOpsParams.parse({ username: "desk-7", password: "s3cret-pass-77", site_mode: "api" });
    for (const params of [BrokerOpsParams.parse({}), custom]) {
      const text = renderInstruction({ params, sim_start: START, sim_end: END, budget_usd: 20 });
      expect(text).toContain(`Username: ${params.username}`);
      expect(text).toContain(`Password: ${params.password}`);
      expect(text).toContain("2026-03-01 to 2026-03-05");
      expect(text).toContain("within 2 hours of the fill");
      expect(text).toContain("within 4 hours of the call");
      expect(text).toContain("end after 30 minutes without a request and always at 00:00 UTC");
      expect(text).toContain("5 failed sign-ins in a row");
      expect(text).toContain("lock the account for 1 day");
      expect(text).toContain("$20.00");
      expect(text.toLowerCase()).not.toContain("feedback");
    }
    const h = env({ site_mode: "api", username: "desk-7", password: "s3cret-pass-77" });
    h.setNow(T("2026-03-02T10:00:00Z"));
    expect(
      await h.runtime.call("agent", "broker_sign_in", { username: "ops-desk", password: DEFAULT_PASSWORD }),
    ).toMatchObject({
      ok: false,
    });
    expect(
      await h.runtime.call("agent", "broker_sign_in", { username: "desk-7", password: "s3cret-pass-77" }),
    ).toMatchObject({
      ok: true,
    });
    expect(h.ledgerText()).not.toContain("s3cret-pass-77");
    const docs = h.runtime
      .docs()
      .map((d) => `${d.name} ${d.description} ${JSON.stringify(d.parameters)}`)
      .join("\n");
    expect(docs.toLowerCase()).not.toContain("feedback");
    expect(docs).toContain('"password"');
  });

  it("deadlines() lists only the duty deadlines of fills and margin calls visible at the view's time", async () => {
    const h = env();
    const run = brokerOpsTask.open(h.ctx);
    const roster = dutyRoster(h.world, h.ctx.params, START, END);
    const H = 3_600_000;
    for (let now = START; now < END; now += H) {
      h.setNow(now);
      const expected = roster
        .filter((d) => d.t <= now && d.deadline >= now && d.deadline < now + 6 * H)
        .map((d) => d.deadline);
      expect(run.deadlines(h.ctx.view, now + 6 * H), new Date(now).toISOString()).toEqual(expected);
    }
    // a fill at 13:15 (be(64), generator v7; v6: a fill at 02:25) is due at 15:15: unknown at 11:00 (the old
    // roster-wide guard saw it), known from 13:15
    h.setNow(T("2026-03-04T11:00:00Z"));
    expect(run.deadlines(h.ctx.view, T("2026-03-04T17:00:00Z"))).toEqual([]);
    h.setNow(T("2026-03-04T13:15:00Z"));
    expect(run.deadlines(h.ctx.view, T("2026-03-04T17:00:00Z"))).toEqual([T("2026-03-04T15:15:00Z")]);
    await run.dispose();
  });
});
