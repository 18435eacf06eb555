/**
 * R1 for every broker-ops tool and web endpoint: at each cut, on the full synth-5d world and on a
 * copy with every row visible after the cut deleted, (1) the API-mode tools (http_get on the events
 * and mail hosts, broker_sign_in, broker_enter_code, broker_get, place_stop, send_funding,
 * broker_sign_out) under random call sequences give byte-identical results, rejection texts and
 * ledgers (test/support/leakage.ts's harness, with a sign-in step that reads the mailed code), and
 * (2) the browser-mode site's HTML pages and form posts, dispatched in process as the browser
 * channel, give byte-identical statuses, bodies and cookies.
 */
import { readFileSync, rmSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DAY_MS, HOUR_MS, isoInstant } from "../../../src/common/time.js";
import { DEFAULT_PASSWORD } from "../../../src/tasks/broker-ops/params.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { type Probe, toolHarness, truncatedCopy } from "../../support/leakage.js";
import { brokerEnv } from "./env-harness.js";
import { brokerWorldDir, END, START, T } from "./world.js";

/** cuts: mid-day 2 (fills only), just after the first margin call, the afternoon of the last day */
const CUTS = [T("2026-03-02T13:07:11Z"), T("2026-03-04T00:31:00Z"), T("2026-03-05T17:40:00Z")];
const CALLS_PER_CUT = 300;
const PAGES_PER_CUT = 120;
const SIGN_IN = "__sign_in__";

const time = fc.integer({ min: START - DAY_MS, max: END + DAY_MS });
const iso = time.map((t) => isoInstant(t));
const instant = fc.oneof(iso, time.map(String), fc.constantFrom("", "yesterday", "2026-03-04"));
const q = (o: Record<string, string | number | undefined>) => {
  const s = Object.entries(o)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join("&");
  return s ? `?${s}` : "";
};
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
// ids are opaque (synth ids.ts): the 5th, 24th, 53rd, 70th and 91st event of the book, the first four
// margin calls, and ids that exist nowhere
const BOOK = (() => {
  const w = WorldStore.open(brokerWorldDir());
  try {
    const ev = (
      w.db.prepare("SELECT id FROM broker_event WHERE id LIKE 'be-%' ORDER BY t, rowid").all() as { id: string }[]
    ).map((r) => r.id);
    const calls = (
      w.db
        .prepare(
          "SELECT json_extract(payload, '$.call_id') AS id FROM broker_event WHERE kind = 'margin_call' ORDER BY t",
        )
        .all() as { id: string }[]
    ).map((r) => r.id);
    return { events: [5, 24, 53, 70, 91].map((n) => ev[n - 1] as string), calls: calls.slice(0, 4) };
  } finally {
    w.close();
  }
})();
const eventIds = fc.constantFrom(...BOOK.events, "be-999999");
const mailIds = fc.oneof(
  eventIds.map((id) => `pm-${id}`),
  fc.constantFrom("otp-0001", "otp-0002", "otp-0007", "x"),
);
const callIds = fc.constantFrom(...BOOK.calls, "mc-0009", "");
const kinds = fc.constantFrom("fill", "margin_call", "order", "note", "position", "holding", "");

const eventsPaths = fc.oneof(
  fc.constant("/"),
  fc
    .record({
      since: opt(instant),
      kind: opt(kinds),
      offset: opt(fc.integer({ min: 0, max: 120 })),
      limit: opt(fc.integer({ min: 0, max: 1200 })),
    })
    .map((o) => `/api/events${q(o)}`),
  fc.constantFrom("/api/account", "/api/margin-calls", "/api/nope"),
  opt(instant).map((since) => `/api/orders${q({ since })}`),
);
const mailPaths = fc.oneof(
  fc.integer({ min: 0, max: 4 }).map((p) => `/${q({ page: p })}`),
  mailIds.map((id) => `/messages/${id}`),
  mailIds.map((id) => `/api/messages/${id}`),
  fc
    .record({
      since: opt(instant),
      offset: opt(fc.integer({ min: 0, max: 200 })),
      limit: opt(fc.integer({ min: 0, max: 600 })),
    })
    .map((o) => `/api/messages${q(o)}`),
);
const stopArgs = fc.record({
  symbol: fc.constantFrom("BTC", "ETH", "XRP"),
  side: fc.constantFrom("buy", "sell"),
  qty: fc.oneof(fc.constantFrom(0.25, 5, 0, -1), fc.double({ min: -10, max: 10, noNaN: true })),
  trigger_price: fc.oneof(fc.constantFrom(1, 60000, 3000), fc.double({ min: -1e5, max: 1e5, noNaN: true })),
});

const apiCalls: fc.Arbitrary<Probe> = fc.oneof(
  { arbitrary: eventsPaths.map((path) => ["http_get", { host: "events", path }] as Probe), weight: 5 },
  { arbitrary: mailPaths.map((path) => ["http_get", { host: "mail", path }] as Probe), weight: 4 },
  fc.constantFrom("broker", "nope").map((host) => ["http_get", { host, path: "/" }] as Probe),
  { arbitrary: fc.constant([SIGN_IN, {}] as Probe), weight: 2 },
  fc
    .record({
      username: fc.constantFrom("ops-desk", "admin"),
      password: fc.constantFrom(DEFAULT_PASSWORD, "wrong-password"),
    })
    .map((a) => ["broker_sign_in", a] as Probe),
  fc.stringMatching(/^\d{6}$/).map((code) => ["broker_enter_code", { code }] as Probe),
  {
    arbitrary: fc
      .constantFrom("/api/session", "/api/account", "/api/orders", "/api/margin-calls", "/api/nope")
      .map((path) => ["broker_get", { path }] as Probe),
    weight: 3,
  },
  { arbitrary: stopArgs.map((a) => ["place_stop", a] as Probe), weight: 3 },
  {
    arbitrary: fc
      .record({
        call_id: callIds,
        amount: fc.oneof(fc.constantFrom(513.33, 100, 0), fc.double({ min: -10, max: 1e5, noNaN: true })),
      })
      .map((a) => ["send_funding", a] as Probe),
    weight: 3,
  },
  fc.constant(["broker_sign_out", {}] as Probe),
);

type Page = { method: "GET" | "POST"; path: string; form?: Record<string, string> };
const pages: fc.Arbitrary<Page> = fc.oneof(
  {
    arbitrary: fc
      .constantFrom(
        "/",
        "/positions",
        "/orders",
        "/orders/new-stop",
        "/notices",
        "/notices?page=2",
        "/risk",
        "/risk/funding/new",
        "/login",
        "/x",
      )
      .map((path) => ({ method: "GET" as const, path })),
    weight: 6,
  },
  {
    arbitrary: stopArgs.map((a) => ({
      method: "POST" as const,
      path: "/orders/stops",
      form: { symbol: a.symbol, side: a.side, qty: String(a.qty), trigger_price: String(a.trigger_price) },
    })),
    weight: 2,
  },
  {
    arbitrary: fc
      .record({ call_id: callIds, amount: fc.constantFrom("513.33", "5000", "-1", "abc") })
      .map((form) => ({ method: "POST" as const, path: "/risk/funding", form })),
    weight: 2,
  },
  fc.constant({ method: "POST" as const, path: "/logout" }),
  fc
    .constantFrom(DEFAULT_PASSWORD, "nope-nope")
    .map((password) => ({ method: "POST" as const, path: "/login", form: { username: "ops-desk", password } })),
);

/** the mailed code of the latest sign-in, read through http_get like an agent */
function codeOf(result: { ok: boolean; value?: unknown }): string {
  const body = (result.value as { body: string }).body;
  const msgs = (JSON.parse(body) as { messages: { body: string }[] }).messages;
  return /code is (\d{6})/.exec(msgs.at(-1)?.body ?? "")?.[1] ?? "000000";
}

describe("R1: broker-ops tools and web endpoints leak nothing visible after now", () => {
  const worldDir = brokerWorldDir();

  it(`${CALLS_PER_CUT} API-mode tool probes at each of ${CUTS.length} cuts: identical results and ledgers`, async () => {
    let probes = 0;
    for (const [i, cut] of CUTS.entries()) {
      const cutDir = truncatedCopy(worldDir, cut);
      const harness = { start: START, end: END, params: { site_mode: "api" } };
      const a = toolHarness("broker-ops", worldDir, cut, harness);
      const b = toolHarness("broker-ops", cutDir, cut, harness);
      try {
        const same = async (tool: string, args: unknown) => {
          const ra = await a.runtime.call("agent", tool, args);
          const rb = await b.runtime.call("agent", tool, args);
          expect(JSON.stringify(rb), `${tool} ${JSON.stringify(args)} at ${isoInstant(cut)}`).toBe(JSON.stringify(ra));
          return ra;
        };
        for (const [tool, args] of fc.sample(apiCalls, { numRuns: CALLS_PER_CUT, seed: 300 + i })) {
          if (tool === SIGN_IN) {
            await same("broker_sign_in", { username: "ops-desk", password: DEFAULT_PASSWORD });
            const mail = await same("http_get", { host: "mail", path: `/api/messages?since=${isoInstant(cut)}` });
            await same("broker_enter_code", { code: codeOf(mail) });
          } else await same(tool, args);
          probes++;
        }
      } finally {
        a.close();
        b.close();
      }
      expect(readFileSync(b.ledgerPath, "utf8")).toBe(readFileSync(a.ledgerPath, "utf8"));
      rmSync(cutDir, { recursive: true, force: true });
    }
    expect(probes).toBe(CUTS.length * CALLS_PER_CUT);
  });

  it(`${PAGES_PER_CUT} browser-mode page requests at each of ${CUTS.length} cuts: identical statuses, bodies and cookies`, async () => {
    for (const [i, cut] of CUTS.entries()) {
      const cutDir = truncatedCopy(worldDir, cut);
      const a = brokerEnv(worldDir, {}, { envSeed: 99 });
      const b = brokerEnv(cutDir, {}, { envSeed: 99 });
      a.setNow(cut);
      b.setNow(cut);
      try {
        const both = async (method: string, url: string, form?: Record<string, string>) => {
          const ra = await a.request("browser", method, url, form ? { form } : undefined);
          const rb = await b.request("browser", method, url, form ? { form } : undefined);
          const view = (r: typeof ra) =>
            JSON.stringify([r.response.status, r.response.headers, r.response.setCookies, r.response.body, r.log]);
          expect(view(rb), `${method} ${url} ${JSON.stringify(form ?? {})} at ${isoInstant(cut)}`).toBe(view(ra));
          return ra;
        };
        const signIn = async () => {
          await both("POST", "http://broker.relive.test/login", { username: "ops-desk", password: DEFAULT_PASSWORD });
          const m = await both(
            "GET",
            `http://mail.relive.test/api/messages?since=${encodeURIComponent(isoInstant(cut))}`,
          );
          const msgs = (JSON.parse(m.response.body) as { messages: { body: string }[] }).messages;
          await both("POST", "http://broker.relive.test/login/code", {
            code: /code is (\d{6})/.exec(msgs.at(-1)!.body)![1]!,
          });
        };
        await signIn();
        for (const [j, p] of fc.sample(pages, { numRuns: PAGES_PER_CUT, seed: 700 + i }).entries()) {
          if (j % 40 === 39) await signIn();
          await both(p.method, `http://broker.relive.test${p.path}`, p.form);
        }
        // the clock moves past the idle limit on both sides alike
        a.setNow(cut + HOUR_MS);
        b.setNow(cut + HOUR_MS);
        expect((await both("GET", "http://broker.relive.test/")).response.status).toBe(303);
      } finally {
        await a.close();
        await b.close();
        rmSync(cutDir, { recursive: true, force: true });
      }
    }
  });
});
