import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LedgerEvent } from "../../../src/ledger/events.js";
import { defaultPriceCheckParams } from "../../../src/tasks/price-check/params.js";
import { bpsError, classify, PriceCheckScorer } from "../../../src/tasks/price-check/scorer.js";
import type { WorldStore } from "../../../src/world/world-store.js";
import { buildCandleWorld, HOUR, MIN, noTruth, T0 } from "./fixtures.js";

// Three venues, 5-minute candles. BTC-USD closes 100 / 101 / 102 (median 101) for candles opening
// before 00:30, then 200 / 202 / 204 (median 202). ETH-USD closes 9.9 / 10 / 10.1 (median 10).
const VENUES = ["binance", "coinbase", "kraken"];
const BTC: Record<string, number> = { kraken: 100, binance: 101, coinbase: 102 };
const ETH: Record<string, number> = { kraken: 9.9, binance: 10, coinbase: 10.1 };
const at = (h: number, m: number, s = 0) => T0 + h * HOUR + m * MIN + s * 1000;

let world: WorldStore;
let cleanup: () => void;
beforeAll(() => {
  ({ world, cleanup } = buildCandleWorld({
    venues: VENUES,
    symbols: ["BTC-USD", "ETH-USD"],
    intervalMs: 5 * MIN,
    from: T0 - HOUR,
    to: T0 + 4 * HOUR,
    close: (v, s, t) => (s === "BTC-USD" ? (BTC[v] as number) * (t >= at(0, 30) ? 2 : 1) : (ETH[v] as number)),
  }));
});
afterAll(() => cleanup());

let seq = 0;
const commit = (t: number, tool: string, args: unknown): LedgerEvent => ({
  seq: seq++,
  t,
  type: "commitment",
  actor: "agent",
  tool,
  args,
});
const rejected = (t: number): LedgerEvent => ({
  seq: seq++,
  t,
  type: "llm_rejected",
  actor: "agent",
  reason: "budget",
});

const SIM = { sim_start: T0, sim_end: at(3, 30) };
const scorer = () => new PriceCheckScorer({ ...SIM, world, truth: noTruth, params: {} });

describe("bps arithmetic", () => {
  it("bps_error and excess", () => {
    expect(bpsError(101, 101)).toBe(0);
    expect(bpsError(203.01, 202)).toBeCloseTo(50, 9);
    expect(classify(5, 5, 250)).toEqual({ status: "ok", excess_bps: 0 });
    expect(classify(bpsError(10.005, 10), 5, 250).status).toBe("ok");
    const c = classify(50, 5, 250);
    expect(c.status).toBe("priced");
    expect(c.excess_bps).toBe(45);
    expect(classify(5.01, 5, 250).excess_bps).toBeCloseTo(0.01, 9);
    expect(classify(255, 5, 250).excess_bps).toBe(250);
    expect(classify(9801.98, 5, 250).excess_bps).toBe(250);
    expect(classify(254.5, 5, 250).excess_bps).toBe(249.5);
  });
});

describe("PriceCheckScorer on a hand-worked ledger", () => {
  const events: LedgerEvent[] = [
    commit(at(0, 10), "report", { symbol: "BTC-USD", price: 250 }),
    // 00:34: the last completed candle opened 00:25 (before the step): truth 101 → ok; it replaces 00:10
    commit(at(0, 34), "report", { symbol: "BTC-USD", price: 101 }),
    // 01:00:00 belongs to hour 01; truth 202 → 50 bps → priced, excess 45
    commit(at(1, 0), "report", { symbol: "BTC-USD", price: 203.01 }),
    rejected(at(1, 20)),
    commit(at(1, 59, 59), "report", { symbol: "ETH-USD", price: 10.005 }),
    commit(at(2, 0), "report", { symbol: "ETH-USD", price: 20 }),
    commit(at(2, 15), "abstain", { symbol: "BTC-USD", reason: "venues disagree" }),
    // hour 03 ends after sim_end (03:30): not scorable
    commit(at(3, 10), "report", { symbol: "ETH-USD", price: 10 }),
  ];

  it("settles each hour at its end in key order with exact statuses", () => {
    const s = scorer();
    for (const e of events.slice(0, 2)) s.onEvent(e);
    expect(s.settle(at(0, 59))).toEqual([]);
    const h0 = s.settle(at(1, 0));
    expect(h0.map((o) => [o.t, o.key, o.status, o.credit])).toEqual([
      [at(1, 0), "BTC-USD@2026-03-01T00", "ok", 1],
      [at(1, 0), "ETH-USD@2026-03-01T00", "miss", 0],
    ]);
    expect(h0[0]?.detail).toMatchObject({ price: 101, truth: 101, bps_error: 0, excess_bps: 0 });
    for (const e of events.slice(2)) s.onEvent(e);
    const rest = s.settle(SIM.sim_end);
    expect(rest.map((o) => [o.t, o.key, o.status])).toEqual([
      [at(2, 0), "BTC-USD@2026-03-01T01", "priced"],
      [at(2, 0), "ETH-USD@2026-03-01T01", "ok"],
      [at(3, 0), "BTC-USD@2026-03-01T02", "abstain"],
      [at(3, 0), "ETH-USD@2026-03-01T02", "priced"],
    ]);
    expect(rest[0]?.detail.truth).toBe(202);
    expect(rest[0]?.detail.bps_error as number).toBeCloseTo(50, 9);
    expect(rest[0]?.detail.excess_bps as number).toBeCloseTo(45, 9);
    expect(rest[1]?.detail.truth).toBe(10);
    expect(rest[3]?.detail).toMatchObject({ truth: 10, bps_error: 10000, excess_bps: 250 });
    expect(s.settle(at(10, 0))).toEqual([]);

    const r = s.report();
    expect(r.primary).toEqual({ name: "price_acc", value: 0.5, direction: "higher" });
    expect(r.metrics.price_acc_raw).toBeCloseTo(2 / 6, 12);
    expect(r.metrics.window_survived).toBeCloseTo(2 / 3, 12);
    expect(r.metrics.mean_excess_bps as number).toBeCloseTo((0 + 45 + 0 + 250) / 4, 9);
    expect(r.metrics.abstain_rate).toBeCloseTo(1 / 6, 12);
    expect(r.metrics.abstain_constraint_met).toBe(0);
    expect(r.metrics).toMatchObject({
      missed_hours: 1,
      ok_hours: 2,
      priced_hours: 2,
      abstained_hours: 1,
      symbol_hours: 6,
    });
    expect(r.not_scorable).toEqual([
      { key: "BTC-USD@2026-03-01T03", reason: "settles after window" },
      { key: "ETH-USD@2026-03-01T03", reason: "settles after window" },
    ]);
  });

  it("the last action in an hour wins, whatever its kind", () => {
    const s = scorer();
    s.onEvent(commit(at(0, 5), "report", { symbol: "BTC-USD", price: 101 }));
    s.onEvent(commit(at(0, 50), "abstain", { symbol: "BTC-USD" }));
    s.onEvent(commit(at(1, 5), "abstain", { symbol: "BTC-USD" }));
    s.onEvent(commit(at(1, 6), "report", { symbol: "BTC-USD", price: 202 }));
    const out = s.settle(SIM.sim_end).filter((o) => o.key.startsWith("BTC"));
    expect(out.map((o) => o.status)).toEqual(["abstain", "ok", "miss"]);
  });

  it("without llm_rejected price_acc equals price_acc_raw and the whole window survived", () => {
    const s = scorer();
    for (const e of events.filter((e) => e.type !== "llm_rejected")) s.onEvent(e);
    s.settle(SIM.sim_end);
    const r = s.report();
    expect(r.primary.value).toBeCloseTo(2 / 6, 12);
    expect(r.metrics.price_acc_raw).toBeCloseTo(2 / 6, 12);
    expect(r.metrics.window_survived).toBe(1);
  });

  it("budget exhausted at sim_start: price_acc is not_scorable, raw still reported", () => {
    const s = scorer();
    s.onEvent(rejected(SIM.sim_start));
    s.onEvent(commit(at(0, 40), "report", { symbol: "ETH-USD", price: 10 }));
    s.settle(SIM.sim_end);
    const r = s.report();
    expect(r.primary.value).toBeNull();
    expect(r.metrics.price_acc_raw).toBeCloseTo(1 / 6, 12);
    expect(r.metrics.window_survived).toBe(0);
    expect(r.not_scorable).toContainEqual({
      key: "price_acc",
      reason: "no scorable symbol-hour started before the first llm_rejected event",
    });
  });

  it("silence scores 0 with every symbol-hour missed; mean_excess is null", () => {
    const s = scorer();
    s.settle(SIM.sim_end);
    const r = s.report();
    expect(r.primary.value).toBe(0);
    expect(r.metrics.missed_hours).toBe(6);
    expect(r.metrics.mean_excess_bps).toBeNull();
    expect(r.metrics.abstain_constraint_met).toBe(1);
  });

  it("a report before any truth candle is not_scorable with a reason", () => {
    const s = new PriceCheckScorer({ sim_start: T0 - HOUR, sim_end: T0, world, truth: noTruth, params: {} });
    s.onEvent(commit(T0 - HOUR + 2 * MIN, "report", { symbol: "BTC-USD", price: 101 }));
    const [btc] = s.settle(T0);
    expect(btc?.status).toBe("not_scorable");
    expect(btc?.credit).toBeNull();
    const r = s.report();
    expect(r.not_scorable).toContainEqual({
      key: "BTC-USD@2026-02-28T23",
      reason: "no truth candle completed at or before the report",
    });
    expect(r.metrics.symbol_hours).toBe(1);
  });

  it("replaying the same ledger gives identical outcomes (rescore)", () => {
    const run = () => {
      const s = scorer();
      for (const e of events) s.onEvent(e);
      return [s.settle(SIM.sim_end), s.report()];
    };
    expect(run()).toEqual(run());
  });

  it("the truth interval can be coarser than the candles (aggregated, complete buckets)", () => {
    const s = new PriceCheckScorer({ ...SIM, world, truth: noTruth, params: { truth_interval_ms: HOUR } });
    // 01:20: the last complete 1 h candle is 00:00–01:00, whose close is the 00:55 candle's (202)
    s.onEvent(commit(at(1, 20), "report", { symbol: "BTC-USD", price: 202 }));
    // 00:40: the last complete 1 h candle is 23:00–00:00 (101)
    s.onEvent(commit(at(0, 40), "report", { symbol: "BTC-USD", price: 101 }));
    const out = s.settle(SIM.sim_end).filter((o) => o.key.startsWith("BTC"));
    expect(out.map((o) => [o.status, o.detail.truth])).toEqual([
      ["ok", 101],
      ["ok", 202],
      ["miss", undefined],
    ]);
  });

  it("defaults follow the spec", () => {
    const p = defaultPriceCheckParams();
    expect(p).toMatchObject({ ok_bps: 5, excess_cap_bps: 250, abstain_constraint: 0.1, http_fetch_usd: 0.0001 });
  });
});
