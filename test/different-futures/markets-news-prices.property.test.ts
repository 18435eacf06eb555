/**
 * Different futures (DESIGN invariant 2) for the tasks that read news, markets, questions, candles
 * and the broker book: the synthetic world of seed 1 and the same world re-drawn after a cut T
 * (`future: {seed: 99, from: T}`: background news, candles and the broker book that follows them,
 * Reddit, and market prices, moves, resolutions and their news differ after T) give byte-identical results, rejection texts and ledgers for random
 * calls at times ≤ T. Search is the documented exception (global BM25 statistics): a page must be
 * filled alike from visible articles only (test/support/different-futures.ts `relaxed`).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WorldStore } from "../../src/world/world-store.js";
import {
  checkDifferentFutures,
  probeTimes,
  type RelaxedCheck,
  synthFuturesPair,
} from "../support/different-futures.js";
import { type Probe, timeArg } from "../support/leakage.js";

const H = 3_600_000;
const D = 86_400_000;
const START = Date.parse("2026-03-01T00:00:00Z");
const END = Date.parse("2026-03-05T00:00:00Z");
const CUT = START + 2 * D + 13 * H + 17 * 60_000;
const TIMES = 3;
const CALLS = 200;

const { worldA, worldB } = synthFuturesPair({ seed: 1, futureSeed: 99, start: START, end: END, cut: CUT });

function ids(sql: string, ...args: unknown[]): string[] {
  const out = new Set<string>();
  for (const dir of [worldA, worldB]) {
    const w = WorldStore.open(dir);
    for (const r of w.db.prepare(sql).all(...args) as { id: string }[]) out.add(r.id);
    w.close();
  }
  return [...out];
}

/** news around the cut in both worlds (the same before it, each world's own after it) */
const NEWS = ids(
  "SELECT id FROM news WHERE published_at BETWEEN ? AND ? ORDER BY published_at",
  CUT - 6 * H,
  CUT + 2 * H,
);
const MARKETS = ids("SELECT id FROM market");
const QUESTIONS = ids("SELECT id FROM question");
const EVENTS = ids("SELECT id FROM broker_event WHERE t BETWEEN ? AND ? ORDER BY t", CUT - 12 * H, CUT + 12 * H);
const TIMES_AT = probeTimes(CUT, 8 * H, TIMES, 9);

const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const clean = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
const news = fc.oneof({ arbitrary: fc.constantFrom(...NEWS), weight: 5 }, fc.constant("n000000000000"));
const market = fc.oneof({ arbitrary: fc.constantFrom(...MARKETS), weight: 5 }, fc.constant("ld-nope"));
const t = timeArg(START - 2 * D, END + D);
const WORDS = ["rate", "storm", "talks", "confirms OR abandons", '"data breach"', "revenue", "the", "zzzq"];

/** a search page under global BM25 statistics: same shape, filled alike, visible articles only */
function searchCheck(listKey: "hits" | "results"): RelaxedCheck {
  return (a, b, now, label) => {
    const ra = a as { ok: boolean; value?: Record<string, unknown>; error?: string };
    const rb = b as typeof ra;
    expect(rb.ok, label).toBe(ra.ok);
    if (!ra.ok || !rb.ok) {
      expect(rb.error, label).toBe(ra.error);
      return;
    }
    const la = (ra.value?.[listKey] ?? []) as { id: string; published_at: string }[];
    const lb = (rb.value?.[listKey] ?? []) as typeof la;
    expect(lb.length, `${label}: k filled alike`).toBe(la.length);
    for (const h of [...la, ...lb])
      expect(Date.parse(h.published_at), `${label}: ${h.id} visible`).toBeLessThanOrEqual(now);
    const { [listKey]: _a, ...restA } = ra.value ?? {};
    const { [listKey]: _b, ...restB } = rb.value ?? {};
    expect(JSON.stringify(restB), label).toBe(JSON.stringify(restA));
  };
}

const searchNews = fc
  .record({ q: fc.constantFrom(...WORDS), date_from: opt(t), date_to: opt(t), offset: opt(fc.constantFrom(0, 10)) })
  .map((a) => ["search_news", clean(a)] as Probe);

/** probes on both worlds; at least `minOk` of them must succeed (the calls reach real rows) */
async function run(taskId: string, calls: fc.Arbitrary<Probe>, relaxed?: Record<string, RelaxedCheck>, minOk = 0.3) {
  const n = await checkDifferentFutures({
    taskId,
    worldA,
    worldB,
    cut: CUT,
    times: TIMES_AT,
    calls,
    callsPerTime: CALLS,
    harness: { start: START, end: END, envSeed: 1234 },
    ...(relaxed ? { relaxed } : {}),
  });
  expect(n.probes).toBe(TIMES * CALLS);
  expect(n.ok).toBeGreaterThanOrEqual(minOk * n.probes);
}

describe("different futures: news, market, question, price and broker tools at times ≤ T", () => {
  it("the two worlds share the past and differ after the cut", () => {
    const a = WorldStore.open(worldA);
    const b = WorldStore.open(worldB);
    const q = (w: WorldStore, sql: string) => JSON.stringify(w.db.prepare(sql).all(CUT));
    try {
      for (const table of ["news", "candle", "broker_event", "reddit_comment", "market_price", "market_resolution"]) {
        expect(q(b, `SELECT * FROM ${table} WHERE visible_at <= ? ORDER BY rowid`), table).toBe(
          q(a, `SELECT * FROM ${table} WHERE visible_at <= ? ORDER BY rowid`),
        );
        expect(q(b, `SELECT * FROM ${table} WHERE visible_at > ? ORDER BY rowid`), table).not.toBe(
          q(a, `SELECT * FROM ${table} WHERE visible_at > ? ORDER BY rowid`),
        );
      }
    } finally {
      a.close();
      b.close();
    }
  });

  it("breakout-news", async () => {
    await run(
      "breakout-news",
      fc.oneof(
        fc.constant(["get_markets", {}] as Probe),
        fc
          .record({ market_id: market, start: t, end: t, grid_minutes: opt(fc.constantFrom(10, 60, 360)) })
          .map((a) => ["get_prices", clean(a)] as Probe),
        fc
          .record({ market_id: market, news_id: news, direction: fc.constantFrom("up", "down", "left") })
          .map((a) => ["notify", a] as Probe),
        searchNews,
        { arbitrary: news.map((id) => ["get_article", { news_id: id }] as Probe), weight: 3 },
      ),
      { search_news: searchCheck("hits") },
    );
  }, 900_000);

  it("resolution-detect", async () => {
    await run(
      "resolution-detect",
      fc.oneof(
        fc
          .record({ added_after: opt(t), offset: opt(fc.constantFrom(0, 5, 100)) })
          .map((a) => ["list_questions", clean(a)] as Probe),
        market.map((id) => ["get_question", { question_id: id }] as Probe),
        opt(market).map((id) => ["get_marks", clean({ question_id: id })] as Probe),
        fc
          .record({ question_id: market, outcome: fc.constantFrom("Yes", "No", "Maybe"), news_id: opt(news) })
          .map((a) => ["mark_outcome", clean(a)] as Probe),
        searchNews,
        { arbitrary: news.map((id) => ["get_article", { news_id: id }] as Probe), weight: 3 },
      ),
      { search_news: searchCheck("hits") },
    );
  }, 900_000);

  it("forecast-portfolio", async () => {
    const forecast = fc.double({ min: 0, max: 1, noNaN: true }).map((p) => ({ Yes: p, No: 1 - p }));
    await run(
      "forecast-portfolio",
      fc.oneof(
        fc
          .record({ status: opt(fc.constantFrom("open", "closed", "resolved", "all")), added_after: opt(t) })
          .map((a) => ["list_questions", clean(a)] as Probe),
        market.map((id) => ["get_question", { question_id: id }] as Probe),
        opt(market).map((id) => ["get_forecasts", id ? { question_id: id } : {}] as Probe),
        fc
          .tuple(market, forecast, opt(news))
          .map(
            ([id, f, n]) =>
              ["submit_forecast", { question_id: id, forecast: f, ...(n ? { news_id: n } : {}) }] as Probe,
          ),
        searchNews,
        { arbitrary: news.map((id) => ["get_article", { news_id: id }] as Probe), weight: 3 },
      ),
      { search_news: searchCheck("hits") },
    );
  }, 900_000);

  it("open-forecast", async () => {
    const qid = fc.oneof({ arbitrary: fc.constantFrom(...QUESTIONS), weight: 5 }, fc.constant("q-0000000000"));
    const date = t.map((x) => new Date(x).toISOString().slice(0, 10));
    await run(
      "open-forecast",
      fc.oneof(
        fc
          .record({
            status: opt(fc.constantFrom("open", "closed", "resolved", "all")),
            offset: opt(fc.integer({ min: 0, max: 30 })),
          })
          .map((a) => ["list_questions", clean(a)] as Probe),
        qid.map((id) => ["get_question", { id }] as Probe),
        fc
          .record({ question_id: qid, outcomes: fc.constantFrom({ Yes: 0.7, No: 0.3 }, { Yes: 2 }) })
          .map((a) => ["submit_forecasts", a] as Probe),
        opt(qid).map((id) => ["get_forecasts", clean({ question_id: id })] as Probe),
        fc
          .record({ query: fc.constantFrom(...WORDS), from_date: opt(date), to_date: opt(date) })
          .map((a) => ["search_news", clean(a)] as Probe),
        { arbitrary: news.map((id) => ["read_article", { id }] as Probe), weight: 3 },
      ),
      { search_news: searchCheck("results") },
    );
  }, 900_000);

  it("price-check", async () => {
    const ms = fc.integer({ min: CUT - 2 * D, max: CUT + 6 * H });
    const fetch = (venue: string, path: string, params: fc.Arbitrary<Record<string, unknown>>) =>
      params.map((p) => ["http_fetch", { venue, path, params: clean(p) }] as Probe);
    await run(
      "price-check",
      fc.oneof(
        fetch(
          "kraken",
          "/0/public/OHLC",
          fc.record({
            pair: fc.constantFrom("XBTUSD", "ETHUSD", "SOLUSD"),
            interval: fc.constantFrom(5, 60),
            since: opt(ms.map((x) => Math.floor(x / 1000))),
          }),
        ),
        fetch(
          "binance",
          "/api/v3/klines",
          fc.record({
            symbol: fc.constantFrom("BTCUSD", "ETHUSD", "SOLUSD"),
            interval: fc.constantFrom("5m", "1h"),
            startTime: opt(ms),
            endTime: opt(ms),
            limit: opt(fc.integer({ min: 1, max: 1000 })),
          }),
        ),
        fc.constantFrom("BTC-USD", "ETH-USD").chain((p) =>
          fetch(
            "coinbase",
            `/products/${p}/candles`,
            fc.record({
              granularity: fc.constantFrom(300, 3600),
              start: opt(ms.map((x) => new Date(x).toISOString())),
              end: opt(ms.map((x) => new Date(x).toISOString())),
            }),
          ),
        ),
        fc.constant(["get_exchange_docs", {}] as Probe),
        fc
          .tuple(fc.constantFrom("BTC-USD", "ETH-USD", "SOL-USD"), fc.double({ min: 1, max: 100_000, noNaN: true }))
          .map(([symbol, price]) => ["report", { symbol, price }] as Probe),
      ),
    );
  }, 900_000);

  it("broker-ops (events and mail hosts)", async () => {
    const instant = fc.integer({ min: CUT - 2 * D, max: CUT + D }).map((x) => new Date(x).toISOString());
    const ev = fc.oneof({ arbitrary: fc.constantFrom(...EVENTS), weight: 5 }, fc.constant("be-000000000000"));
    const q = (o: Record<string, unknown>) => {
      const s = Object.entries(o)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
        .join("&");
      return s ? `?${s}` : "";
    };
    const eventsPath = fc.oneof(
      fc
        .record({
          since: opt(instant),
          kind: opt(fc.constantFrom("fill", "margin_call", "order", "note", "position", "holding")),
          offset: opt(fc.integer({ min: 0, max: 120 })),
          limit: opt(fc.integer({ min: 1, max: 1200 })),
        })
        .map((o) => `/api/events${q(o)}`),
      fc.constantFrom("/api/account", "/api/margin-calls", "/"),
      opt(instant).map((since) => `/api/orders${q({ since })}`),
    );
    const mailPath = fc.oneof(
      fc.integer({ min: 0, max: 4 }).map((p) => `/${q({ page: p })}`),
      ev.map((id) => `/api/messages/pm-${id}`),
      fc
        .record({
          since: opt(instant),
          offset: opt(fc.integer({ min: 0, max: 200 })),
          limit: opt(fc.integer({ min: 1, max: 600 })),
        })
        .map((o) => `/api/messages${q(o)}`),
    );
    await run(
      "broker-ops",
      fc.oneof(
        { arbitrary: eventsPath.map((path) => ["http_get", { host: "events", path }] as Probe), weight: 3 },
        { arbitrary: mailPath.map((path) => ["http_get", { host: "mail", path }] as Probe), weight: 3 },
      ),
    );
  }, 900_000);
});
