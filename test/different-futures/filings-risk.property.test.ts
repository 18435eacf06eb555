/**
 * Different futures (DESIGN invariant 2) for the filing tracker and the risk portfolio: the synthetic
 * world of seed 1 and the same world re-drawn after a cut T (`future: {seed: 99, from: T}`: filings,
 * their facts and press releases, the holdings blotter, candles and news differ after T) give
 * byte-identical results, rejection texts and ledgers for random calls at times ≤ T: the SEC replay
 * (every route), the holdings blotter, the portal (API mode, its JSON and HTML pages over `http_get`),
 * and every risk-portfolio tool.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SYNTH_COMPANIES } from "../../src/synth/filings.js";
import { WorldStore } from "../../src/world/world-store.js";
import { checkDifferentFutures, probeTimes, synthFuturesPair } from "../support/different-futures.js";
import type { Probe } from "../support/leakage.js";

const H = 3_600_000;
const D = 86_400_000;
const START = Date.parse("2026-03-01T00:00:00Z");
const END = Date.parse("2026-03-05T00:00:00Z");
const CUT = START + 2 * D + 13 * H + 17 * 60_000;
const TIMES = 3;
const CALLS = 200;

const { worldA, worldB } = synthFuturesPair({ seed: 1, futureSeed: 99, start: START, end: END, cut: CUT });
const TIMES_AT = probeTimes(CUT, 30 * H, TIMES, 21);

const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const clean = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** accessions of both worlds (the same before the cut, each world's own after it) */
function accessions(): string[] {
  const out = new Set<string>();
  for (const dir of [worldA, worldB]) {
    const w = WorldStore.open(dir);
    for (const r of w.db.prepare("SELECT accession FROM filing ORDER BY accepted_at").all() as { accession: string }[])
      out.add(r.accession);
    w.close();
  }
  return [...out];
}

describe("different futures: filing-tracker and risk-portfolio tools at times ≤ T", () => {
  it("the two worlds share the past and differ after the cut (filings, facts, press, blotter, candles)", () => {
    const a = WorldStore.open(worldA);
    const b = WorldStore.open(worldB);
    const q = (w: WorldStore, sql: string) => JSON.stringify(w.db.prepare(sql).all(CUT));
    try {
      for (const table of ["filing", "xbrl_fact", "company", "broker_event", "news", "candle"]) {
        const before = `SELECT * FROM ${table} WHERE visible_at <= ? ORDER BY rowid`;
        expect(q(b, before), table).toBe(q(a, before));
      }
      for (const table of ["filing", "xbrl_fact", "broker_event", "news", "candle"]) {
        const after = `SELECT * FROM ${table} WHERE visible_at > ? ORDER BY rowid`;
        expect(q(b, after), table).not.toBe(q(a, after));
      }
      // the re-drawn quarter: a reported figure differs, not only a time
      const vals = (w: WorldStore) =>
        JSON.stringify(
          w.db.prepare("SELECT val FROM xbrl_fact WHERE visible_at > ? ORDER BY cik, concept, end").all(CUT),
        );
      expect(vals(b)).not.toBe(vals(a));
    } finally {
      a.close();
      b.close();
    }
  });

  it("filing-tracker (API mode): SEC replay, blotter, portal pages, record_filing, list_filings", async () => {
    const ciks = [...SYNTH_COMPANIES.map((c) => c.cik), "0000000099", "1"];
    const cik = fc.constantFrom(...ciks);
    const tags = ["Revenues", "RevenueFromContractWithCustomerExcludingAssessedTax", "EarningsPerShareDiluted", "Nope"];
    const secPath = fc.oneof(
      fc.constant("/files/company_tickers.json"),
      { arbitrary: cik.map((c) => `/submissions/CIK${c}.json`), weight: 3 },
      { arbitrary: cik.map((c) => `/api/xbrl/companyfacts/CIK${c}.json`), weight: 2 },
      {
        arbitrary: fc
          .tuple(cik, fc.constantFrom("us-gaap", "dei"), fc.constantFrom(...tags))
          .map(([c, tax, tag]) => `/api/xbrl/companyconcept/CIK${c}/${tax}/${tag}.json`),
        weight: 3,
      },
      fc.constantFrom("/", "/submissions/"),
    );
    const page = {
      offset: opt(fc.integer({ min: 0, max: 3000 })),
      max_chars: opt(fc.integer({ min: 200, max: 20000 })),
    };
    const accession = fc.constantFrom(...accessions(), "0000000001-26-999999");
    const ticker = fc.constantFrom(...SYNTH_COMPANIES.map((c) => c.ticker), "ZZZ");
    const instant = fc
      .integer({ min: CUT - 3 * D, max: CUT + D })
      .map((t) => `${new Date(t).toISOString().slice(0, 16)}Z`);
    const n = await checkDifferentFutures({
      taskId: "filing-tracker",
      worldA,
      worldB,
      cut: CUT,
      times: TIMES_AT,
      calls: fc.oneof(
        {
          arbitrary: fc
            .record({ path: secPath, ...page })
            .map((a) => ["http_get", clean({ host: "sec", ...a })] as Probe),
          weight: 6,
        },
        {
          arbitrary: fc
            .record({ path: fc.constantFrom("/holdings.json", "/", "/x"), ...page })
            .map((a) => ["http_get", clean({ host: "blotter", ...a })] as Probe),
          weight: 2,
        },
        {
          arbitrary: fc
            .constantFrom("/", "/filings/new", "/api/filings")
            .map((path) => ["http_get", { host: "portal", path }] as Probe),
          weight: 1,
        },
        {
          arbitrary: fc
            .record({
              ticker,
              accession,
              form: fc.constantFrom("8-K", "10-Q", "10-K"),
              accepted_at: instant,
              fy: opt(fc.constantFrom(2025, 2026)),
              fp: opt(fc.constantFrom("Q1", "Q4", "FY")),
              revenue: opt(fc.double({ min: 1e8, max: 1e10, noNaN: true })),
              eps_diluted: opt(fc.double({ min: -2, max: 5, noNaN: true })),
            })
            .map((a) => ["record_filing", clean(a)] as Probe),
          weight: 2,
        },
        { arbitrary: fc.constant(["list_filings", {}] as Probe), weight: 1 },
      ),
      callsPerTime: CALLS,
      harness: { start: START, end: END, params: { portal_mode: "api" } },
    });
    expect(n.probes).toBe(TIMES * CALLS);
    expect(n.ok).toBeGreaterThanOrEqual(0.5 * n.probes);
  }, 900_000);

  it("risk-portfolio: get_prices, get_account, submit_orders, submit_books, validate_books", async () => {
    const dayArg = fc
      .integer({ min: START - 6 * D, max: END })
      .map((t) => new Date(Math.floor(t / D) * D).toISOString().slice(0, 10));
    const symbol = fc.constantFrom("BTC-USD", "ETH-USD", "SOL-USD", "DOGE-USD");
    const side = fc.constantFrom("buy", "sell", "short", "cover");
    const money = fc.double({ min: 0, max: 2e7, noNaN: true, noDefaultInfinity: true });
    const book = fc.record({
      cash: money,
      shares: fc.dictionary(symbol, fc.integer({ min: -50, max: 50 }), { maxKeys: 3 }),
      costs: fc.record({ commission: money, slippage: money, borrow: money }),
      equity: money,
      nav: fc.double({ min: 0, max: 2, noNaN: true, noDefaultInfinity: true }),
      weights: fc.dictionary(symbol, fc.double({ min: -1, max: 1, noNaN: true, noDefaultInfinity: true }), {
        maxKeys: 3,
      }),
      fills: fc.array(
        fc.record({
          fill_id: fc.constantFrom("F-00001", "F-00002", "F-00003"),
          symbol,
          side,
          qty: fc.integer({ min: 1, max: 30 }),
          price: fc.double({ min: 1, max: 1e5, noNaN: true, noDefaultInfinity: true }),
        }),
        { maxLength: 2 },
      ),
    });
    const n = await checkDifferentFutures({
      taskId: "risk-portfolio",
      worldA,
      worldB,
      cut: CUT,
      times: TIMES_AT,
      calls: fc.oneof(
        {
          arbitrary: fc
            .record({ from: dayArg, to: dayArg }, { requiredKeys: [] })
            .map((a) => ["get_prices", a] as Probe),
          weight: 3,
        },
        {
          arbitrary: fc.record({ since_day: dayArg }, { requiredKeys: [] }).map((a) => ["get_account", a] as Probe),
          weight: 3,
        },
        fc
          .array(fc.record({ symbol, side, qty: fc.integer({ min: 1, max: 40 }) }), { minLength: 1, maxLength: 3 })
          .map((orders) => ["submit_orders", { orders }] as Probe),
        fc.record({ day: dayArg, book }).map((a) => ["submit_books", a] as Probe),
        fc
          .array(fc.record({ day: dayArg, book }), { minLength: 1, maxLength: 2 })
          .map((books) => ["validate_books", { books }] as Probe),
      ),
      callsPerTime: CALLS,
      harness: { start: START, end: END },
    });
    expect(n.probes).toBe(TIMES * CALLS);
    expect(n.ok).toBeGreaterThanOrEqual(0.4 * n.probes);
  }, 900_000);
});
