import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VENUE_TABLE } from "../../../src/tasks/price-check/incident-table.js";
import { type Incident, IncidentIndex } from "../../../src/tasks/price-check/incidents.js";
import { PriceCheckParams } from "../../../src/tasks/price-check/params.js";
import { PriceCheckScorer } from "../../../src/tasks/price-check/scorer.js";
import { type HttpResponse, VenueApi } from "../../../src/tasks/price-check/venue-api.js";
import type { WorldStore } from "../../../src/world/world-store.js";
import { buildCandleWorld, HOUR, MIN, makeEnv, noTruth, T0 } from "./fixtures.js";

const at = (h: number, m: number, s = 0) => T0 + h * HOUR + m * MIN + s * 1000;
const VENUES = ["binance", "coinbase", "kraken"];
const BASE: Record<string, number> = { kraken: 60000, binance: 60100, coinbase: 60200 };
/** close of a candle: venue base + 1 per 5-minute step since T0 (BTC-USD); ETH-USD = close / 20 */
const close = (v: string, s: string, t: number) => {
  const c = (BASE[v] as number) + (t - T0) / (5 * MIN);
  return s === "BTC-USD" ? c : c / 20;
};

let world: WorldStore;
let cleanup: () => void;
beforeAll(() => {
  ({ world, cleanup } = buildCandleWorld({
    venues: VENUES,
    symbols: ["BTC-USD", "ETH-USD"],
    intervalMs: 5 * MIN,
    from: T0 - 2 * HOUR,
    to: T0 + 6 * HOUR,
    close,
  }));
});
afterAll(() => cleanup());

const WINDOW = { start: T0, end: T0 + 6 * HOUR };
const clean = PriceCheckParams.parse({ incidents: false });

/** a VenueApi over the world with a hand-written incident trace and a movable clock */
function apiWith(trace: Incident[], seed = 1) {
  const { clock, env } = makeEnv(world, clean, WINDOW, seed);
  const api = new VenueApi({
    view: world.at(() => clock.now),
    setup: env.setup,
    table: VENUE_TABLE,
    incidents: new IncidentIndex(trace),
    envSeed: seed,
  });
  const get = (venue: string, path: string, params: Record<string, string | number> = {}, timeout_s = 10) =>
    api.fetch({ venue, path, params, timeout_s });
  return { clock, api, get };
}
const body = (r: HttpResponse) => JSON.parse(r.body);

describe("real payload shapes (no incidents)", () => {
  it("Kraken OHLC: result key, row shape, only completed candles, last", () => {
    const { clock, get } = apiWith([]);
    clock.now = at(1, 2);
    const r = get("kraken", "/0/public/OHLC", { pair: "XBTUSD", interval: 5, since: at(0, 40) / 1000 });
    expect(r.status).toBe(200);
    const b = body(r);
    expect(b.error).toEqual([]);
    const rows = b.result.XXBTZUSD as unknown[][];
    // since is exclusive: candles opening 00:45, 00:50, 00:55 (01:00 is not complete at 01:02)
    expect(rows.map((x) => x[0])).toEqual([at(0, 45) / 1000, at(0, 50) / 1000, at(0, 55) / 1000]);
    const last = rows[2] as unknown[];
    expect(last).toEqual([at(0, 55) / 1000, "60010.0", "60011.0", "60010.0", "60011.0", "60010.7", "1.50000000", 0]);
    expect(b.result.last).toBe(at(0, 55) / 1000);
    // the legacy result key is accepted as a request name too; 60-minute candles aggregate
    const h = body(get("kraken", "/0/public/OHLC", { pair: "XXBTZUSD", interval: 60 }));
    const hours = h.result.XXBTZUSD as unknown[][];
    expect(hours[hours.length - 1]).toEqual([
      at(0, 0) / 1000,
      "59999.0",
      "60011.0",
      "59999.0",
      "60011.0",
      "60007.0",
      "18.00000000",
      0,
    ]);
  });

  it("Binance klines: 12-field rows with filled fields, limit, startTime", () => {
    const { clock, get } = apiWith([]);
    clock.now = at(1, 2);
    const r = get("binance", "/api/v3/klines", { symbol: "BTCUSD", interval: "5m", limit: 2 });
    expect(r.status).toBe(200);
    expect(r.headers["x-mbx-used-weight-1m"]).toBe("2");
    const rows = body(r) as unknown[][];
    expect(rows).toHaveLength(2);
    const c = 60100 + 11;
    const typical = (c + c + (c - 1)) / 3;
    expect(rows[1]).toEqual([
      at(0, 55),
      (c - 1).toFixed(8),
      c.toFixed(8),
      (c - 1).toFixed(8),
      c.toFixed(8),
      "1.50000000",
      at(0, 55) + 5 * MIN - 1,
      (1.5 * typical).toFixed(8),
      0,
      "0.75000000",
      ((1.5 * typical) / 2).toFixed(8),
      "0",
    ]);
    const fromStart = body(
      get("binance", "/api/v3/klines?symbol=BTCUSD", { interval: "5m", startTime: at(0, 0), limit: 3 }),
    );
    expect((fromStart as unknown[][]).map((x) => x[0])).toEqual([at(0, 0), at(0, 5), at(0, 10)]);
  });

  it("Coinbase candles: newest first, [time, low, high, open, close, volume] numbers", () => {
    const { clock, get } = apiWith([]);
    clock.now = at(1, 2);
    const rows = body(
      get("coinbase", "/products/ETH-USD/candles", {
        granularity: 300,
        start: "2026-03-01T00:40:00Z",
        end: "2026-03-01T01:30:00Z",
      }),
    ) as number[][];
    expect(rows.map((x) => x[0])).toEqual([at(0, 55) / 1000, at(0, 50) / 1000, at(0, 45) / 1000, at(0, 40) / 1000]);
    const c = (60200 + 11) / 20;
    const o = (60200 + 10) / 20;
    expect(rows[0]).toEqual([at(0, 55) / 1000, o, c, o, c, 1.5]);
  });

  it("bad paths and params get the venue's own error bodies (normal responses)", () => {
    const { clock, get } = apiWith([]);
    clock.now = at(1, 2);
    expect(get("kraken", "/0/public/OHLC", { pair: "DOGEUSD" })).toMatchObject({
      status: 200,
      body: '{"error":["EQuery:Unknown asset pair"]}',
    });
    expect(body(get("kraken", "/0/public/OHLC", { pair: "XBTUSD", interval: 7 }))).toEqual({
      error: ["EGeneral:Invalid arguments"],
    });
    // the replay's base interval is 5 min: 1-minute candles are not carried
    expect(body(get("kraken", "/0/public/OHLC", { pair: "XBTUSD" }))).toEqual({
      error: ["EGeneral:Invalid arguments"],
    });
    expect(get("kraken", "/0/public/Ticker", {}).status).toBe(404);
    expect(get("binance", "/api/v3/klines", { symbol: "BTCUSDX", interval: "5m" })).toMatchObject({
      status: 400,
      body: '{"code":-1121,"msg":"Invalid symbol."}',
    });
    expect(body(get("binance", "/api/v3/klines", { interval: "5m" })).code).toBe(-1102);
    expect(body(get("binance", "/api/v3/klines", { symbol: "BTCUSD", interval: "7m" })).code).toBe(-1120);
    expect(body(get("binance", "/api/v3/klines", { symbol: "BTCUSD", interval: "5m", limit: 0 })).code).toBe(-1130);
    expect(
      body(
        get("binance", "/api/v3/klines", { symbol: "BTCUSD", interval: "5m", startTime: at(1, 0), endTime: at(0, 0) }),
      ).code,
    ).toBe(-1023);
    expect(get("binance", "/api/v3/ticker", {}).status).toBe(404);
    expect(get("coinbase", "/products/BTC-EUR/candles", { granularity: 300 })).toMatchObject({
      status: 404,
      body: '{"message":"NotFound"}',
    });
    expect(body(get("coinbase", "/products/BTC-USD/candles", { granularity: 120 }))).toEqual({
      message: "Unsupported granularity",
    });
    expect(get("coinbase", "/products/BTC-USD/candles", { granularity: 60 }).status).toBe(400);
    expect(
      get("coinbase", "/products/BTC-USD/candles", {
        granularity: 300,
        start: at(0, 0) / 1000,
        end: at(0, 0) / 1000 + 300 * 300,
      }).status,
    ).toBe(400);
  });

  it("elapsed_ms is deterministic per (seed, venue, call index) and within base + jitter", () => {
    const seq = (seed: number) => {
      const { clock, get } = apiWith([], seed);
      clock.now = at(1, 2);
      return Array.from(
        { length: 8 },
        () => get("kraken", "/0/public/OHLC", { pair: "XBTUSD", interval: 5 }).elapsed_ms,
      );
    };
    const a = seq(3);
    expect(seq(3)).toEqual(a);
    expect(seq(4)).not.toEqual(a);
    for (const e of a) expect(e >= 180 && e < 300).toBe(true);
    const { clock, get } = apiWith([]);
    clock.now = at(1, 2);
    expect(get("kraken", "/0/public/OHLC", { pair: "XBTUSD", interval: 5 }, 0.05)).toEqual({
      status: 0,
      headers: {},
      body: "",
      elapsed_ms: 50,
      error: "timeout",
    });
  });
});

describe("incident effects", () => {
  it("outage: 5xx with a body while it lasts; hang: timeout after timeout_s", () => {
    const { clock, get } = apiWith([
      { kind: "outage", venue: "binance", start: at(1, 0), end: at(1, 30), mode: "error", status: 503 },
      { kind: "outage", venue: "coinbase", start: at(1, 0), end: at(1, 30), mode: "hang", status: 502 },
    ]);
    clock.now = at(1, 10);
    const r = get("binance", "/api/v3/klines", { symbol: "BTCUSD", interval: "5m" });
    expect(r.status).toBe(503);
    expect(r.body).toContain("503 Service Unavailable");
    expect(get("coinbase", "/products/BTC-USD/candles", { granularity: 300 }, 7)).toEqual({
      status: 0,
      headers: {},
      body: "",
      elapsed_ms: 7000,
      error: "timeout",
    });
    expect(get("kraken", "/0/public/OHLC", { pair: "XBTUSD", interval: 5 }).status).toBe(200);
    clock.now = at(1, 30);
    expect(get("binance", "/api/v3/klines", { symbol: "BTCUSD", interval: "5m" }).status).toBe(200);
  });

  it("stale: served data stop advancing at the episode's start", () => {
    const { clock, get } = apiWith([{ kind: "stale", venue: "kraken", start: at(0, 32), end: at(2, 0) }]);
    clock.now = at(1, 40);
    const rows = body(get("kraken", "/0/public/OHLC", { pair: "XBTUSD", interval: 5 })).result.XXBTZUSD as unknown[][];
    // the last candle complete at 00:32 opened 00:25
    expect(rows[rows.length - 1]?.[0]).toBe(at(0, 25) / 1000);
    expect(rows[rows.length - 1]?.[4]).toBe("60005.0");
    const other = body(get("binance", "/api/v3/klines", { symbol: "BTCUSD", interval: "5m", limit: 1 })) as unknown[][];
    expect(other[0]?.[0]).toBe(at(1, 35));
    clock.now = at(2, 0);
    const after = body(get("kraken", "/0/public/OHLC", { pair: "XBTUSD", interval: 5 })).result.XXBTZUSD as unknown[][];
    expect(after[after.length - 1]?.[0]).toBe(at(1, 55) / 1000);
  });

  it("spike: one candle's close × (1 ± size) in that venue's answers only; truth untouched", () => {
    const { clock, get } = apiWith([
      { kind: "spike", venue: "coinbase", symbol: "BTC-USD", t: at(0, 57), factor: 1.025 },
    ]);
    clock.now = at(1, 2);
    const rows = body(get("coinbase", "/products/BTC-USD/candles", { granularity: 300 })) as number[][];
    const c = 60200 + 11;
    const spiked = Math.round(c * 1.025 * 1e8) / 1e8; // Coinbase numbers are rounded to 8 decimals
    expect(spiked).toBeCloseTo(61716.275, 8);
    expect(rows[0]).toEqual([at(0, 55) / 1000, c - 1, spiked, c - 1, spiked, 1.5]);
    expect(rows[1]?.[4]).toBe(c - 1);
    const eth = body(get("coinbase", "/products/ETH-USD/candles", { granularity: 300 })) as number[][];
    expect(eth[0]?.[4]).toBe(c / 20);
    const scorer = new PriceCheckScorer({ sim_start: T0, sim_end: at(2, 0), world, truth: noTruth, params: {} });
    scorer.onEvent({
      seq: 0,
      t: at(1, 2),
      type: "commitment",
      actor: "a",
      tool: "report",
      args: { symbol: "BTC-USD", price: 60111 },
    });
    const out = scorer.settle(at(2, 0)).find((o) => o.key === "BTC-USD@2026-03-01T01");
    expect(out?.detail.truth).toBe(60111);
    expect(out?.status).toBe("ok");
  });

  it("Coinbase: 10 per second, the 11th call gets 429 + Retry-After, calling again during it bans (403)", () => {
    const { clock, get } = apiWith([]);
    clock.now = at(1, 2);
    const call = () => get("coinbase", "/products/BTC-USD/candles", { granularity: 300 });
    for (let i = 0; i < 10; i++) expect(call().status).toBe(200);
    const limited = call();
    expect(limited.status).toBe(429);
    expect(limited.headers["retry-after"]).toBe("1");
    expect(body(limited)).toEqual({ message: "Public rate limit exceeded" });
    const banned = call();
    expect(banned.status).toBe(403);
    expect(banned.headers["retry-after"]).toBe("600");
    clock.now = at(1, 2, 30);
    expect(call().status).toBe(403);
    clock.now = at(1, 12) - 1;
    expect(call().status).toBe(403);
    clock.now = at(1, 12);
    expect(call().status).toBe(200);
  });

  it("respecting Retry-After avoids the ban (Kraken token bucket)", () => {
    const { clock, get } = apiWith([]);
    clock.now = at(1, 2);
    const call = () => get("kraken", "/0/public/OHLC", { pair: "XBTUSD", interval: 5 });
    for (let i = 0; i < 15; i++) expect(call().status).toBe(200);
    const limited = call();
    expect(limited.status).toBe(429);
    expect(body(limited)).toEqual({ error: ["EAPI:Rate limit exceeded"] });
    // 1 token at 0.33 per second: 3031 ms → Retry-After 4 s
    expect(limited.headers["retry-after"]).toBe("4");
    clock.now = at(1, 2, 4);
    expect(call().status).toBe(200);
  });

  it("Binance: weight 2 per klines call against 1200 per minute; ignoring the 429 bans with 418", () => {
    const { clock, get } = apiWith([]);
    clock.now = at(1, 2);
    const call = () => get("binance", "/api/v3/klines", { symbol: "BTCUSD", interval: "5m", limit: 1 });
    for (let i = 0; i < 600; i++) expect(call().status).toBe(200);
    const limited = call();
    expect(limited.status).toBe(429);
    expect(limited.headers["retry-after"]).toBe("60");
    expect(body(limited).code).toBe(-1003);
    clock.now = at(1, 2, 10);
    const banned = call();
    expect(banned.status).toBe(418);
    expect(banned.headers["retry-after"]).toBe(String(30 * 60));
    expect(body(banned).msg).toContain(`banned until ${at(1, 2, 10) + 30 * MIN}`);
    // Kraken is unaffected by Binance's ban
    expect(get("kraken", "/0/public/OHLC", { pair: "XBTUSD", interval: 5 }).status).toBe(200);
  });
});

describe("tools", () => {
  it("rejections are free and clear; venue errors are normal responses", async () => {
    const { clock, tools } = makeEnv(world, clean, WINDOW);
    clock.now = at(1, 2);
    const ctx = { now: () => clock.now, actor: "a" };
    const run = async (name: string, args: unknown) => {
      const t = tools.get(name)!;
      const p = t.args.safeParse(args);
      if (!p.success) return { ok: false as const, error: "zod" };
      return t.invoke(p.data, ctx);
    };
    expect(await run("http_fetch", { venue: "bitstamp", path: "/x" })).toEqual({
      ok: false,
      error: 'unknown venue "bitstamp"; venues: binance, coinbase, kraken',
    });
    expect((await run("http_fetch", { venue: "kraken", path: "0/public/OHLC" })).ok).toBe(false);
    expect((await run("http_fetch", { venue: "kraken", path: "/x", timeout_s: 31 })).ok).toBe(false);
    const notFound = await run("http_fetch", { venue: "kraken", path: "/x" });
    expect(notFound.ok && (notFound.value as HttpResponse).status).toBe(404);
    expect(await run("report", { symbol: "DOGE-USD", price: 1 })).toEqual({
      ok: false,
      error: 'unknown symbol "DOGE-USD"; scored symbols: BTC-USD, ETH-USD',
    });
    expect((await run("report", { symbol: "BTC-USD", price: 0 })).ok).toBe(false);
    expect((await run("report", { symbol: "BTC-USD", price: -3 })).ok).toBe(false);
    expect(await run("report", { symbol: "BTC-USD", price: 60111 })).toEqual({
      ok: true,
      value: { accepted: true, symbol: "BTC-USD", price: 60111, hour: "2026-03-01T01" },
    });
    expect((await run("abstain", { symbol: "ETH-USD" })).ok).toBe(true);
    expect(tools.get("http_fetch")!.priceOf({ venue: "kraken", path: "/x" })).toBe(0.0001);
    const docs = (await run("get_exchange_docs", {})) as { ok: true; value: Record<string, unknown> };
    expect(docs.value.symbols).toEqual(["BTC-USD", "ETH-USD"]);
    expect(docs.value.truth).toMatchObject({ interval_ms: 5 * MIN, venues: { "BTC-USD": VENUES } });
    expect(JSON.stringify(docs.value)).not.toContain('"start":1');
  });
});
