/**
 * R1 over every agent-facing tool that exists: for random cut times c and random call sequences,
 * each task's tools on the full world at now = c return exactly what they return on a copy of the
 * world with every row visible after c deleted — results, rejection texts, prices, rate-limit
 * answers, and therefore the whole ledger, byte for byte. News rows are kept in both copies (no tool
 * of these tasks reads news; the news views are covered by test/world's property tests). The harness
 * is test/support/leakage.ts, shared with the other tasks' leakage tests.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ensureSynthWorld } from "../../src/synth/synth-world.js";
import { WorldStore } from "../../src/world/world-store.js";
import { checkLeakage, timeArg } from "../support/leakage.js";
import { CACHE_DIR } from "./helpers.js";

const START = Date.parse("2026-03-01T00:00:00Z");
const END = Date.parse("2026-03-04T00:00:00Z");
const CUTS = 5;
const CALLS_PER_CUT = 1000;

const time = (lo: number, hi: number) => fc.integer({ min: lo, max: hi });

function digestCalls(ids: string[]): fc.Arbitrary<[string, unknown]> {
  const id = fc.oneof(fc.constantFrom(...ids), fc.string({ maxLength: 8 }));
  const lo = START - 9 * 86_400_000;
  return fc.oneof(
    fc
      .record(
        {
          since: fc.option(timeArg(lo, END), { nil: undefined }),
          until: fc.option(timeArg(lo, END), { nil: undefined }),
          subreddit: fc.option(fc.constantFrom("stocks", "worldnews", "technology", "nope"), { nil: undefined }),
          sort: fc.option(fc.constantFrom("new", "comments"), { nil: undefined }),
          order: fc.option(fc.constantFrom("asc", "desc"), { nil: undefined }),
          offset: fc.option(fc.integer({ min: 0, max: 400 }), { nil: undefined }),
        },
        { requiredKeys: [] },
      )
      .map((a) => ["list_posts", a] as [string, unknown]),
    id.map((x) => ["get_post", { id: x }] as [string, unknown]),
    fc
      .tuple(id, fc.option(fc.integer({ min: 0, max: 300 }), { nil: undefined }))
      .map(([x, offset]) => ["get_cascade", { id: x, offset }] as [string, unknown]),
    fc.constant(["quota", {}] as [string, unknown]),
    fc.constant(["digest_status", {}] as [string, unknown]),
    fc.array(id, { minLength: 0, maxLength: 12 }).map((root_ids) => ["digest", { root_ids }] as [string, unknown]),
  );
}

function priceCalls(): fc.Arbitrary<[string, unknown]> {
  const t = time(START - 86_400_000, END);
  const fetch = (venue: string, path: string, params: fc.Arbitrary<Record<string, unknown>>) =>
    params.map((p) => ["http_fetch", { venue, path, params: p }] as [string, unknown]);
  const undef = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
  const clean = (o: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  return fc.oneof(
    fetch(
      "kraken",
      "/0/public/OHLC",
      fc
        .record({
          pair: fc.constantFrom("XBTUSD", "ETHUSD", "SOLUSD", "DOGEUSD"),
          interval: fc.constantFrom(5, 60, 1),
          since: undef(t.map((x) => Math.floor(x / 1000))),
        })
        .map(clean),
    ),
    fetch(
      "binance",
      "/api/v3/klines",
      fc
        .record({
          symbol: fc.constantFrom("BTCUSD", "ETHUSD", "SOLUSD"),
          interval: fc.constantFrom("5m", "1h", "1m"),
          startTime: undef(t),
          endTime: undef(t),
          limit: undef(fc.integer({ min: 1, max: 1000 })),
        })
        .map(clean),
    ),
    fc.constantFrom("BTC-USD", "ETH-USD", "XRP-USD").chain((p) =>
      fetch(
        "coinbase",
        `/products/${p}/candles`,
        fc
          .record({
            granularity: fc.constantFrom(300, 3600),
            start: undef(t.map((x) => new Date(x).toISOString())),
            end: undef(t.map((x) => new Date(x).toISOString())),
          })
          .map(clean),
      ),
    ),
    fetch("nowhere", "/x", fc.constant({})),
    fc.constant(["get_exchange_docs", {}] as [string, unknown]),
    fc
      .tuple(
        fc.constantFrom("BTC-USD", "ETH-USD", "SOL-USD", "BTC-EUR"),
        fc.double({ min: -10, max: 100_000, noNaN: true }),
      )
      .map(([symbol, price]) => ["report", { symbol, price }] as [string, unknown]),
    fc.constantFrom("BTC-USD", "ETH-USD").map((symbol) => ["abstain", { symbol }] as [string, unknown]),
  );
}

describe("R1: no tool result, count, price, limit or error depends on rows visible after now", () => {
  const worldDir = ensureSynthWorld(join(CACHE_DIR, "synth"), { seed: 1, start: START, end: END });
  mkdirSync(CACHE_DIR, { recursive: true });
  const full = WorldStore.open(worldDir);
  const ids = (
    full.db
      .prepare(
        "SELECT id FROM reddit_post WHERE id IN (SELECT id FROM reddit_post ORDER BY created_utc DESC LIMIT 400) OR rowid % 200 = 0",
      )
      .all() as { id: string }[]
  ).map((r) => r.id);
  full.close();
  const cuts = fc.sample(time(START, END - 1), { numRuns: CUTS, seed: 7 });

  it.each([
    ["daily-digest", digestCalls(ids)],
    ["price-check", priceCalls()],
  ] as const)(
    `%s: ${CALLS_PER_CUT} probes at each of ${CUTS} cuts give identical results on the full and the truncated world`,
    async (taskId, calls) => {
      const probes = await checkLeakage({
        taskId,
        worldDir,
        calls,
        cuts,
        callsPerCut: CALLS_PER_CUT,
        harness: { start: START, end: END, envSeed: 1234 },
      });
      expect(probes).toBe(CUTS * CALLS_PER_CUT);
    },
  );
});
