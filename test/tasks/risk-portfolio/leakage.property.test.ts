/**
 * R1 over every risk-portfolio tool: for random cut times c and random call sequences (prices,
 * account, orders, filings, validations), the tools on the full world at now = c return exactly what
 * they return on a copy of the world with every row visible after c deleted — results, rejection
 * texts and the whole ledger, byte for byte (test/support/leakage.ts).
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY_MS } from "../../../src/common/time.js";
import { checkLeakage, type Probe } from "../../support/leakage.js";
import { buildTestWorld, D, TEST_SYMBOLS, TEST_WINDOW } from "./fixtures.js";

const CUTS = 3;
const CALLS_PER_CUT = 500;

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  ({ dir, cleanup } = buildTestWorld());
});
afterAll(() => cleanup());

const dayArg = fc
  .integer({ min: D("2026-02-01"), max: D("2026-03-16") })
  .map((t) => new Date(Math.floor(t / DAY_MS) * DAY_MS).toISOString().slice(0, 10));
const symbol = fc.constantFrom(...TEST_SYMBOLS, "DOGE-USD");
const side = fc.constantFrom("buy", "sell", "short", "cover");
const money = fc.double({ min: -1e7, max: 2e7, noNaN: true, noDefaultInfinity: true });
const book = fc.record({
  cash: money,
  shares: fc.dictionary(symbol, fc.integer({ min: -500, max: 500 }), { maxKeys: 3 }),
  costs: fc.record({ commission: money, slippage: money, borrow: money }),
  equity: money,
  nav: fc.double({ min: -1, max: 3, noNaN: true, noDefaultInfinity: true }),
  weights: fc.dictionary(symbol, fc.double({ min: -2, max: 2, noNaN: true, noDefaultInfinity: true }), { maxKeys: 3 }),
  fills: fc.array(
    fc.record({
      fill_id: fc.constantFrom("F-00001", "F-00002", "F-00003", "F-00009"),
      symbol,
      side,
      qty: fc.integer({ min: 1, max: 300 }),
      price: fc.double({ min: 1, max: 1e5, noNaN: true, noDefaultInfinity: true }),
    }),
    { maxLength: 3 },
  ),
});

const calls: fc.Arbitrary<Probe> = fc.oneof(
  fc.record({ from: dayArg, to: dayArg }, { requiredKeys: [] }).map((a) => ["get_prices", a] as Probe),
  fc.record({ since_day: dayArg }, { requiredKeys: [] }).map((a) => ["get_account", a] as Probe),
  fc
    .array(fc.record({ symbol, side, qty: fc.oneof(fc.integer({ min: 1, max: 400 }), fc.constant(0.5)) }), {
      minLength: 1,
      maxLength: 3,
    })
    .map((orders) => ["submit_orders", { orders }] as Probe),
  fc.record({ day: dayArg, book }).map((a) => ["submit_books", a] as Probe),
  fc
    .array(fc.record({ day: dayArg, book }), { minLength: 1, maxLength: 3 })
    .map((books) => ["validate_books", { books }] as Probe),
);

describe("R1: risk-portfolio tools answer only from rows visible at now", () => {
  it(`${CALLS_PER_CUT} probes at each of ${CUTS} cuts: identical results on the full and the truncated world`, async () => {
    const cuts = fc.sample(fc.integer({ min: TEST_WINDOW.start, max: TEST_WINDOW.end - 1 }), {
      numRuns: CUTS,
      seed: 11,
    });
    const probes = await checkLeakage({
      taskId: "risk-portfolio",
      worldDir: dir,
      calls,
      cuts,
      callsPerCut: CALLS_PER_CUT,
      harness: { start: TEST_WINDOW.start, end: TEST_WINDOW.end },
    });
    expect(probes).toBe(CUTS * CALLS_PER_CUT);
  });
});
