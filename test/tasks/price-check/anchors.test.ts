import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SplitMix32 } from "../../../src/common/random.js";
import { PriceCheckParams } from "../../../src/tasks/price-check/params.js";
import {
  dropOutliers,
  medianPollPolicy,
  nextPollAfter,
  oraclePolicy,
  silentPolicy,
} from "../../../src/tasks/price-check/policies.js";
import type { WorldStore } from "../../../src/world/world-store.js";
import { buildCandleWorld, HOUR, MIN, runPolicy, T0 } from "./fixtures.js";

// A synthetic-like world: 3 symbols on 3 venues, 5-minute candles, a shared random walk per symbol
// plus independent venue noise of up to ±10 bps. Two days; incidents drawn from the pinned table.
const SYMBOLS = ["BTC-USD", "ETH-USD", "SOL-USD"];
const START: Record<string, number> = { "BTC-USD": 65000, "ETH-USD": 3200, "SOL-USD": 140 };
const WINDOW = { start: T0, end: T0 + 2 * 24 * HOUR };

function walk(): Map<string, number> {
  const m = new Map<string, number>();
  for (const s of SYMBOLS) {
    const rng = SplitMix32.fromKey(`walk:${s}`);
    let p = START[s] as number;
    for (let t = T0 - 6 * HOUR; t < WINDOW.end; t += 5 * MIN) {
      p *= 1 + (rng.next() - 0.5) * 0.004;
      m.set(`${s}@${t}`, p);
      for (const v of ["binance", "coinbase", "kraken"]) {
        const noise = SplitMix32.fromKey(`noise:${v}:${s}:${t}`).next() - 0.5;
        m.set(`${v}:${s}@${t}`, p * (1 + noise * 0.002));
      }
    }
  }
  return m;
}

let world: WorldStore;
let cleanup: () => void;
beforeAll(() => {
  const prices = walk();
  ({ world, cleanup } = buildCandleWorld({
    venues: ["binance", "coinbase", "kraken"],
    symbols: SYMBOLS,
    intervalMs: 5 * MIN,
    from: T0 - 6 * HOUR,
    to: WINDOW.end,
    close: (v, s, t) => prices.get(`${v}:${s}@${t}`) as number,
  }));
});
afterAll(() => cleanup());

const params = PriceCheckParams.parse({});

describe("reference policy anchors (2-day synthetic-like world, incidents on)", () => {
  it("silent → 0 (every symbol-hour missed)", async () => {
    const { report } = await runPolicy(silentPolicy, world, params, WINDOW);
    expect(report.primary.value).toBe(0);
    expect(report.metrics.missed_hours).toBe(144);
  });

  it("oracle → 1.0", async () => {
    const { report } = await runPolicy(oraclePolicy, world, params, WINDOW);
    expect(report.primary.value).toBe(1);
    expect(report.metrics.symbol_hours).toBe(144);
    expect(report.metrics.mean_excess_bps).toBe(0);
  });

  it("median-poll lands strictly between, pinned, and is deterministic", async () => {
    const a = await runPolicy(medianPollPolicy, world, params, WINDOW);
    const b = await runPolicy(medianPollPolicy, world, params, WINDOW);
    expect(b.outcomes).toEqual(a.outcomes);
    const v = a.report.primary.value as number;
    expect(v).toBeGreaterThan(0);
    expect(v).toBeLessThan(1);
    expect(v).toMatchInlineSnapshot(`0.9930555555555556`);
    expect(a.report.metrics).toMatchInlineSnapshot(`
      {
        "abstain_constraint_met": 1,
        "abstain_rate": 0,
        "abstained_hours": 0,
        "mean_bps_error": 0.09463949315520932,
        "mean_excess_bps": 0.0013905504812393597,
        "missed_hours": 0,
        "ok_hours": 143,
        "price_acc": 0.9930555555555556,
        "price_acc_raw": 0.9930555555555556,
        "priced_hours": 1,
        "symbol_hours": 144,
        "window_survived": 1,
      }
    `);
    // it polls each (symbol, venue) once per wake
    expect(a.calls.http_fetch).toBe(49 * 9); // 48 HH:50 wakes + the start wake, 9 series each
  });

  it("median-poll on a clean replay (no incidents) is perfect", async () => {
    const { report } = await runPolicy(medianPollPolicy, world, PriceCheckParams.parse({ incidents: false }), WINDOW);
    expect(report.primary.value).toBe(1);
  });
});

describe("policy helpers", () => {
  it("nextPollAfter gives the next HH:50 strictly after now", () => {
    expect(nextPollAfter(T0)).toBe(T0 + 50 * MIN);
    expect(nextPollAfter(T0 + 50 * MIN)).toBe(T0 + HOUR + 50 * MIN);
    expect(nextPollAfter(T0 + 50 * MIN - 1)).toBe(T0 + 50 * MIN);
  });
  it("dropOutliers removes closes > 50 bps from the median of ≥ 3", () => {
    expect(dropOutliers([100, 100.2, 102])).toEqual([100, 100.2]);
    expect(dropOutliers([100, 102])).toEqual([100, 102]);
  });
});
