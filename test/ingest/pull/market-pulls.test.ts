import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseBinanceKlinesJson } from "../../../src/ingest/binance-klines.js";
import { parseKrakenOhlcvt } from "../../../src/ingest/kraken-ohlcvt.js";
import { runPull } from "../../../src/ingest/pull/run-pull.js";
import { RAW_DIR as DEFAULT_RAW } from "../../run/helpers.js";
import { type ReplayServer, startReplayServer } from "./replay-server.js";

/**
 * Polymarket and exchange pulls against loopback servers. REAL payloads (../shared/data/raw):
 * the Gamma /events response of event 16167, the 600-market Gamma /markets dump (served as
 * pages), the CLOB prices-history of token 1111…7287, and the Binance futures index-price klines.
 * Written from the venues' DOCUMENTED response shapes (no sample exists): Kraken OHLC, OKX
 * history-candles, KuCoin candles.
 */
const RAW = process.env.RELIVE_RAW_DIR ?? DEFAULT_RAW;
const have = existsSync(join(RAW, "polymarket-wom-raw-api")) && existsSync(join(RAW, "crypto-binance-index-1h"));
if (!have) console.warn(`skipping the Polymarket/Binance pull replays: ${RAW} not found`);
const raw = (p: string) => (have ? readFileSync(join(RAW, p)) : Buffer.alloc(0));
const fast = { backoffMs: 0, retries: 1 };
const TOKEN = "111128191581505463501777127559667396812474366956707382672202929745167742497287";

let server: ReplayServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});
const out = () => mkdtempSync(join(tmpdir(), "relive-pull-m-"));

describe.skipIf(!have)("relive data pull polymarket (real payload replays)", () => {
  it("an event, its tokens' price histories, and the markets pages until a short page", async () => {
    const markets = JSON.parse(raw("polymarket-wom-raw-api/gamma_markets_raw_600.json").toString("utf8")) as unknown[];
    const page = (offset: number) => ({ body: JSON.stringify(markets.slice(offset, offset + 250)) });
    const history = raw("polymarket-wom-raw-api/active_prices_max.json");
    server = await startReplayServer({
      "/events?id=16167": { body: raw("polymarket-wom-raw-api/active_market.json") },
      "/markets?limit=250&offset=0&closed=true": page(0),
      "/markets?limit=250&offset=250&closed=true": page(250),
      "/markets?limit=250&offset=500&closed=true": page(500),
    });
    // the event's four markets carry eight tokens: 1111… has the real history, the others an empty one
    // (as the CLOB answers for a token without trades), and one is missing on the first run
    const event = JSON.parse(raw("polymarket-wom-raw-api/active_market.json").toString("utf8")) as {
      markets: { clobTokenIds: string }[];
    }[];
    const tokens = event[0]!.markets.flatMap((m) => JSON.parse(m.clobTokenIds) as string[]);
    expect(tokens).toHaveLength(8);
    const route = (t: string) => `/prices-history?market=${t}&interval=max&fidelity=10`;
    const missing = tokens.at(-1)!;
    for (const t of tokens)
      if (t !== missing) server.routes.set(route(t), t === TOKEN ? { body: history } : { body: '{"history":[]}' });
    const dir = out();
    const o = { outDir: dir, baseUrls: { gamma: server.url, clob: server.url }, http: fast, rate: 1000 };
    const args = { event: ["16167"], history: true, fidelity: 10 };
    await expect(runPull("polymarket", args, o)).rejects.toThrow(`${route(missing)}: 404 not found`);
    expect(
      readFileSync(join(dir, "polymarket/events/16167.json")).equals(raw("polymarket-wom-raw-api/active_market.json")),
    ).toBe(true);
    expect(
      readFileSync(join(dir, `polymarket/prices-history/interval=max_fidelity=10/${TOKEN}.json`)).equals(history),
    ).toBe(true);
    // resumed: only the missing history is asked for
    server.routes.set(route(missing), { body: '{"history":[]}' });
    const before = server.requests.length;
    const again = await runPull("polymarket", args, o);
    expect(server.requests.slice(before).map((q) => q.url)).toEqual([route(missing)]);
    expect(again.counts).toMatchObject({ fetched: 1, skipped: 8 });
    const r = await runPull("polymarket", { pages: 5, limit: 250, closed: "true" }, o);
    // 250 + 250 + 100: the short third page ends the walk
    expect(r.counts.fetched).toBe(3);
    expect(server.requests.filter((q) => q.url.startsWith("/markets")).map((q) => q.url)).toEqual([
      "/markets?limit=250&offset=0&closed=true",
      "/markets?limit=250&offset=250&closed=true",
      "/markets?limit=250&offset=500&closed=true",
    ]);
    expect(existsSync(join(dir, "polymarket/markets-pages/limit=250_closed=true/500.json"))).toBe(true);
  });

  it("refuses a response that is not the documented shape, and options that ask for nothing", async () => {
    server = await startReplayServer({ "/events?id=1": { body: '{"id":"1"}' }, "/events?id=2": { body: "[]" } });
    const o = { outDir: out(), baseUrls: { gamma: server.url, clob: server.url }, http: fast, rate: 1000 };
    await expect(runPull("polymarket", { event: ["1"] }, o)).rejects.toThrow(
      /events\?id=1: not a Gamma \/events response/,
    );
    await expect(runPull("polymarket", { event: ["2"] }, o)).rejects.toThrow(/event 2 is not in the response/);
    await expect(runPull("polymarket", {}, o)).rejects.toThrow(/give --event, --market, --token or --pages/);
  });
});

describe("relive data pull: exchanges", () => {
  it.skipIf(!have)(
    "binance --kind index: real index-price klines, paged by open time, readable by the Binance importer",
    async () => {
      const feb = raw("crypto-binance-index-1h/BTCUSDT-1h-2023-02-10.json");
      const ks = JSON.parse(feb.toString("utf8")) as number[][];
      const first = ks[0]![0]!;
      const next = ks.at(-1)![0]! + 3_600_000;
      const end = next + 5 * 3_600_000;
      server = await startReplayServer({
        [`/fapi/v1/indexPriceKlines?pair=BTCUSDT&interval=1h&startTime=${first}&endTime=${end - 1}&limit=1000`]: {
          body: feb,
        },
        [`/fapi/v1/indexPriceKlines?pair=BTCUSDT&interval=1h&startTime=${next}&endTime=${end - 1}&limit=1000`]: {
          body: "[]",
        },
      });
      const dir = out();
      const r = await runPull(
        "binance",
        { symbol: ["BTCUSDT"], kind: "index", start: new Date(first).toISOString(), end: new Date(end).toISOString() },
        { outDir: dir, baseUrls: { futures: server.url }, http: fast, rate: 1000 },
      );
      expect(r.counts.fetched).toBe(2);
      const text = readFileSync(join(dir, `exchanges/binance-index/BTCUSDT-1h-${first}.json`), "utf8");
      const parsed = parseBinanceKlinesJson(text, {
        file: "x",
        venue: "binance-index",
        symbol: "BTC-USDT",
        intervalMs: 3_600_000,
      });
      expect(parsed.rows).toHaveLength(1000);
      expect(parsed.rejected).toEqual([]);
    },
  );

  it("kraken (documented OHLC shape): the uncommitted last frame is dropped; the CSV is Kraken's OHLCVT export", async () => {
    const t0 = Date.parse("2024-03-01T00:00:00Z") / 1000;
    const row = (t: number, c: string) => [t, "61000.0", "61500.0", "60900.0", c, "61200.1", "12.5", 345];
    server = await startReplayServer({
      [`/0/public/OHLC?pair=XBTUSD&interval=60&since=${t0}`]: {
        body: JSON.stringify({
          error: [],
          result: {
            XXBTZUSD: [row(t0, "61100.0"), row(t0 + 3600, "61200.0"), row(t0 + 7200, "61300.0")],
            last: t0 + 7200,
          },
        }),
      },
      [`/0/public/OHLC?pair=XBTUSD&interval=60&since=${t0 + 7200}`]: {
        body: JSON.stringify({ error: [], result: { XXBTZUSD: [row(t0 + 7200, "61350.0")], last: t0 + 7200 } }),
      },
    });
    const dir = out();
    await runPull(
      "kraken",
      { symbol: ["XBTUSD"], interval: "1h", start: "2024-03-01T00:00:00Z", end: "2024-03-02T00:00:00Z" },
      { outDir: dir, baseUrls: { api: server.url }, http: fast, rate: 1000 },
    );
    const csv = readFileSync(join(dir, `exchanges/kraken/XBTUSD_60-${t0}.csv`), "utf8");
    expect(csv).toBe(
      `${t0},61000.0,61500.0,60900.0,61100.0,12.5,345\n${t0 + 3600},61000.0,61500.0,60900.0,61200.0,12.5,345\n`,
    );
    const p = parseKrakenOhlcvt(csv, { file: "k.csv", venue: "kraken", symbol: "BTC-USD", intervalMs: 3_600_000 });
    expect(p.rows.map((x) => x.c)).toEqual([61100, 61200]);
    await expect(
      runPull(
        "kraken",
        { symbol: ["XBTUSD"], start: "2024-03-01T00:00:00Z", end: "2024-02-01T00:00:00Z" },
        { outDir: dir, baseUrls: { api: server.url } },
      ),
    ).rejects.toThrow(/--start must be before --end/);
  });

  it("okx (documented shape): paged backwards from --end by the oldest ts until a short page", async () => {
    const end = Date.parse("2024-03-05T00:00:00Z");
    const c = (t: number) => [String(t), "1", "2", "0.5", "1.5", "10", "10", "15", "1"];
    const full = Array.from({ length: 100 }, (_, i) => c(end - (i + 1) * 3_600_000));
    const oldest = end - 100 * 3_600_000;
    server = await startReplayServer({
      [`/api/v5/market/history-candles?instId=BTC-USDT&bar=1H&after=${end}&limit=100`]: {
        body: JSON.stringify({ code: "0", msg: "", data: full }),
      },
      [`/api/v5/market/history-candles?instId=BTC-USDT&bar=1H&after=${oldest}&limit=100`]: {
        body: JSON.stringify({ code: "0", msg: "", data: [c(oldest - 3_600_000)] }),
      },
    });
    const dir = out();
    const r = await runPull(
      "okx",
      { symbol: ["BTC-USDT"], start: "2024-02-01T00:00:00Z", end: new Date(end).toISOString() },
      { outDir: dir, baseUrls: { api: server.url }, http: fast, rate: 1000 },
    );
    expect(r.counts.fetched).toBe(2);
    expect(existsSync(join(dir, `exchanges/okx/BTC-USDT-1H-${oldest}.json`))).toBe(true);
    server.routes.set(`/api/v5/market/history-candles?instId=ETH-USDT&bar=1H&after=${end}&limit=100`, {
      body: JSON.stringify({ code: "51001", msg: "Instrument ID does not exist", data: [] }),
    });
    await expect(
      runPull(
        "okx",
        { symbol: ["ETH-USDT"], start: "2024-02-01T00:00:00Z", end: new Date(end).toISOString() },
        { outDir: dir, baseUrls: { api: server.url }, http: fast, rate: 1000 },
      ),
    ).rejects.toThrow(/not an OKX candles response \(code: OKX returned a non-zero code\)/);
  });

  it("kucoin (documented shape): 1500-frame windows over [start, end)", async () => {
    const a = Date.parse("2024-01-01T00:00:00Z") / 1000;
    const step = 1500 * 3600;
    const body = JSON.stringify({ code: "200000", data: [[String(a), "1", "1.5", "2", "0.5", "10", "15"]] });
    server = await startReplayServer({
      [`/api/v1/market/candles?type=1hour&symbol=BTC-USDT&startAt=${a}&endAt=${a + step}`]: { body },
      [`/api/v1/market/candles?type=1hour&symbol=BTC-USDT&startAt=${a + step}&endAt=${a + step + 86_400}`]: { body },
    });
    const dir = out();
    const r = await runPull(
      "kucoin",
      {
        symbol: ["BTC-USDT"],
        start: new Date(a * 1000).toISOString(),
        end: new Date((a + step + 86_400) * 1000).toISOString(),
      },
      { outDir: dir, baseUrls: { api: server.url }, http: fast, rate: 1000 },
    );
    expect(r.counts.fetched).toBe(2);
    expect(server.requests.map((q) => q.url)).toEqual([
      `/api/v1/market/candles?type=1hour&symbol=BTC-USDT&startAt=${a}&endAt=${a + step}`,
      `/api/v1/market/candles?type=1hour&symbol=BTC-USDT&startAt=${a + step}&endAt=${a + step + 86_400}`,
    ]);
  });
});
