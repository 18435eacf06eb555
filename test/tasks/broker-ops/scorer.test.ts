/**
 * The broker-ops scorer on the synth-5d world: the duty roster, hand-worked statuses for API and
 * browser commitments, and the book generator checked against tasks.md §8.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY_MS, HOUR_MS } from "../../../src/common/time.js";
import type { LedgerEvent } from "../../../src/ledger/events.js";
import { BROKER_PARAMS } from "../../../src/synth/broker.js";
import { bookEvents } from "../../../src/tasks/broker-ops/book-events.js";
import { markOf } from "../../../src/tasks/broker-ops/book-view.js";
import { dutyRoster, visibleDuties } from "../../../src/tasks/broker-ops/duties.js";
import { defaultBrokerOpsParams } from "../../../src/tasks/broker-ops/params.js";
import { BrokerOpsScorer } from "../../../src/tasks/broker-ops/scorer.js";
import { TruthStore } from "../../../src/world/truth-store.js";
import type { CandleRow } from "../../../src/world/types.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { bookIds, brokerWorldDir, END, START, T } from "./world.js";

const { be, mc } = bookIds();

const P = defaultBrokerOpsParams();
let world: WorldStore;
let truth: TruthStore;

beforeAll(() => {
  const dir = brokerWorldDir();
  world = WorldStore.open(dir);
  truth = TruthStore.open(dir);
});
afterAll(() => {
  world.close();
  truth.close();
});

const mark = (asset: "BTC" | "ETH", t: number) =>
  markOf(
    world.at(() => t),
    "coinbase",
    `${asset}-USD`,
  )!.price;
const r2 = (x: number) => Math.round(x * 100) / 100;

let seq = 0;
const commitment = (t: number, tool: string, args: unknown): LedgerEvent =>
  ({ seq: seq++, type: "commitment", t, actor: "agent", tool, args }) as LedgerEvent;
const browserStop = (t: number, body: string, status = 201, path = "/orders/stops"): LedgerEvent =>
  commitment(t, "browser_submit", {
    selector: 'input[name="trigger_price"]',
    effects: [
      { kind: "request", host: "broker", method: "GET", path: "/orders/new-stop", status: 200 },
      { kind: "request", host: "broker", method: "POST", path, status, body },
    ],
  });

describe("broker-ops duty roster (synth-5d, seed 1)", () => {
  it("22 fill duties and 4 margin-call duties, all settling inside the window; a shorter window leaves the last two after it", () => {
    // generator v7 (candle volatility regimes, src/tasks/risk-portfolio/README.md "Calibration"): v6 had 21 fills,
    // the last one (03-05 22:05) settling after the window; v7's last fill is be(96), BTC buy 03-05 17:45 (deadline 19:45)
    const roster = dutyRoster(world, P, START, END);
    expect(roster.filter((d) => d.kind === "stop")).toHaveLength(22);
    expect(roster.filter((d) => d.kind === "funding").map((d) => d.key)).toEqual([
      `funding:${mc(1)}`,
      `funding:${mc(2)}`,
      `funding:${mc(3)}`,
      `funding:${mc(4)}`,
    ]);
    expect(roster.filter((d) => d.deadline > END)).toEqual([]);
    // ending the window at 03-05 19:00: be(96)'s deadline (19:45) and mc(4)'s (16:05 + 4 h = 20:05) fall after it
    const end = T("2026-03-05T19:00:00Z");
    expect(
      dutyRoster(world, P, START, end)
        .filter((d) => d.deadline > end)
        .map((d) => d.key),
    ).toEqual([`stop:${be(96)}`, `funding:${mc(4)}`]);
    expect(roster[0]).toMatchObject({
      key: `stop:${be(5)}`,
      t: T("2026-03-01T01:20:00Z"),
      deadline: T("2026-03-01T03:20:00Z"),
    });
    // once every event is visible, the duties the desk can know of are exactly the roster
    expect(
      visibleDuties(
        world.at(() => END - 1),
        P,
        START,
        END,
      ),
    ).toEqual(roster);
  });
});

describe("broker-ops scorer: hand-worked ledger", () => {
  it("met, wrong and missed duties from API and browser commitments; routine_score = met / scored", () => {
    const s = new BrokerOpsScorer({ sim_start: START, sim_end: END, world, truth, params: {} });
    const t1 = T("2026-03-01T01:30:00Z");
    const t2 = T("2026-03-01T12:00:00Z");
    const t3 = T("2026-03-01T18:30:00Z");
    const t4 = T("2026-03-01T23:00:00Z");
    const events: LedgerEvent[] = [
      // be(5) ETH buy 01:20 → a sell stop below the mark, API mode: met
      commitment(t1, "place_stop", { symbol: "ETH", side: "sell", qty: 5, trigger_price: r2(mark("ETH", t1) * 0.98) }),
      // be(9) BTC sell 11:15 → a buy stop above the mark through the browser form: met; a refused post is ignored
      browserStop(t2 - HOUR_MS, `symbol=BTC&side=buy&qty=0.25&trigger_price=${r2(mark("BTC", t2) * 1.02)}`, 401),
      browserStop(t2, `symbol=BTC&side=buy&qty=0.25&trigger_price=${r2(mark("BTC", t2) * 1.02)}`),
      // be(13) ETH sell 18:15 → a sell stop: wrong side
      commitment(t3, "place_stop", { symbol: "ETH", side: "sell", qty: 5, trigger_price: r2(mark("ETH", t3) * 0.98) }),
      // be(15) BTC buy 22:50 → a sell stop above the mark: not protective (wrong); the good one comes late
      browserStop(t4, `symbol=BTC&side=sell&qty=0.25&trigger_price=${r2(mark("BTC", t4) * 1.01)}`),
      commitment(T("2026-03-02T00:50:00Z"), "place_stop", {
        symbol: "BTC",
        side: "sell",
        qty: 0.25,
        trigger_price: 1000,
      }),
      // be(24) ETH buy 03-02 13:00 → a stop before the fill does not count: missed
      commitment(T("2026-03-02T12:50:00Z"), "place_stop", { symbol: "ETH", side: "sell", qty: 5, trigger_price: 1000 }),
      // mc(1) (03-04 00:00, deadline 04:00, required 243.47): exactly the amount: met
      commitment(T("2026-03-04T01:00:00Z"), "send_funding", { call_id: mc(1), amount: 243.47 }),
      // mc(2) (03-04 16:05, deadline 20:05, required 638.33): too little: wrong; the same call's later (enough)
      // instruction comes after the deadline
      commitment(T("2026-03-04T18:00:00Z"), "send_funding", { call_id: mc(2), amount: 100 }),
      commitment(T("2026-03-04T21:20:00Z"), "send_funding", { call_id: mc(2), amount: 700 }),
      // mc(3) (03-05 04:05, deadline 08:05): an instruction for another call does not fund it: missed
      commitment(T("2026-03-05T06:00:00Z"), "send_funding", { call_id: mc(1), amount: 5000 }),
      // malformed commitments are ignored
      commitment(T("2026-03-05T06:00:00Z"), "place_stop", {
        symbol: "ETH",
        side: "sideways",
        qty: 5,
        trigger_price: 1,
      }),
    ];
    const outcomes = [];
    for (const e of events) {
      outcomes.push(...s.settle(e.t));
      s.onEvent(e);
    }
    outcomes.push(...s.settle(END));
    // 22 stop + 4 funding duties (v6: 20 + 4, one more fill settling after the window)
    expect(outcomes).toHaveLength(26);
    const status = Object.fromEntries(outcomes.map((o) => [o.key, o.status]));
    expect(status).toMatchObject({
      [`stop:${be(5)}`]: "met",
      [`stop:${be(9)}`]: "met",
      [`stop:${be(13)}`]: "wrong",
      [`stop:${be(15)}`]: "wrong",
      [`stop:${be(24)}`]: "missed",
      [`funding:${mc(1)}`]: "met",
      [`funding:${mc(2)}`]: "wrong",
      [`funding:${mc(3)}`]: "missed",
      [`funding:${mc(4)}`]: "missed",
    });
    expect(outcomes.filter((o) => o.status === "met").map((o) => o.key)).toEqual([
      `stop:${be(5)}`,
      `stop:${be(9)}`,
      `funding:${mc(1)}`,
    ]);
    // settlement at each deadline, in deadline order
    const first = outcomes[0]!;
    expect(first).toMatchObject({ t: T("2026-03-01T03:20:00Z"), key: `stop:${be(5)}`, credit: 1 });
    expect(first.detail).toMatchObject({
      duty: "protective_stop",
      fill_side: "buy",
      symbol: "ETH",
      stop: { side: "sell", qty: 5, submitted_at: "2026-03-01T01:30:00.000Z", mark: mark("ETH", t1) },
    });
    const wrong = outcomes.find((o) => o.key === `stop:${be(15)}`)!;
    expect(wrong.credit).toBe(0);
    expect((wrong.detail.stops_in_window as { problem: string }[])[0]!.problem).toMatch(
      /^a sell stop must trigger below the mark/,
    );
    expect(outcomes.find((o) => o.key === `funding:${mc(2)}`)!.detail).toMatchObject({
      required_amount: 638.33,
      instructions_in_window: [{ submitted_at: "2026-03-04T18:00:00.000Z", amount: 100 }],
    });
    for (let i = 1; i < outcomes.length; i++) expect(outcomes[i]!.t).toBeGreaterThanOrEqual(outcomes[i - 1]!.t);
    const r = s.report();
    // met: be(5), be(9), mc(1); wrong: be(13), be(15), mc(2); every other duty (26 − 6 = 20) missed
    expect(r.primary).toEqual({ name: "routine_score", value: 3 / 26, direction: "higher" });
    expect(r.metrics).toMatchObject({
      duties: 26,
      duties_met: 3,
      duties_wrong: 3,
      duties_missed: 20,
      stop_duties: 22,
      stop_score: 2 / 22,
      funding_duties: 4,
      funding_score: 1 / 4,
      stops_submitted: 6,
      funding_submitted: 4,
    });
    expect(r.not_scorable).toEqual([]);
  });

  it("a silent ledger scores 0 over every scored duty; a window with no duty is not scorable", () => {
    const silent = new BrokerOpsScorer({ sim_start: START, sim_end: END, world, truth, params: {} });
    expect(silent.settle(END).every((o) => o.status === "missed" && o.credit === 0)).toBe(true);
    expect(silent.report().primary.value).toBe(0);
    const empty = new BrokerOpsScorer({ sim_start: START, sim_end: START + HOUR_MS, world, truth, params: {} });
    expect(empty.settle(START + HOUR_MS)).toEqual([]);
    const r = empty.report();
    expect(r.primary.value).toBeNull();
    expect(r.not_scorable).toContainEqual({ key: "routine_score", reason: "no duty settled inside the window" });
    // a window ending at 03-05 19:00: be(96) (deadline 19:45) and mc(4) (deadline 20:05) settle after it
    const end = T("2026-03-05T19:00:00Z");
    const short = new BrokerOpsScorer({ sim_start: START, sim_end: end, world, truth, params: {} });
    short.settle(end);
    expect(short.report().not_scorable).toEqual([
      { key: `stop:${be(96)}`, reason: "settles after window" },
      { key: `funding:${mc(4)}`, reason: "settles after window" },
    ]);
  });

  it("one stop protects one fill only", () => {
    // no two same-asset, same-side fills lie within 2 h in this world: be(24) (ETH buy 03-02 13:00) and
    // be(39) (ETH buy 03-03 07:35) are 18.6 h apart, so a 20 h stop window (be(24)'s runs to 03-03 09:00)
    // makes one stop at 08:00 eligible for both (v6: 12:55 and 05:30, a stop at 06:00)
    const s = new BrokerOpsScorer({ sim_start: START, sim_end: END, world, truth, params: {} });
    const wide = new BrokerOpsScorer({
      sim_start: START,
      sim_end: END,
      world,
      truth,
      params: { stop_window_ms: 20 * HOUR_MS },
    });
    const t = T("2026-03-03T08:00:00Z");
    const stop = commitment(t, "place_stop", {
      symbol: "ETH",
      side: "sell",
      qty: 5,
      trigger_price: r2(mark("ETH", t) * 0.98),
    });
    for (const x of [s, wide]) {
      x.settle(t);
      x.onEvent(stop);
    }
    const out = wide.settle(END);
    const a = out.find((o) => o.key === `stop:${be(24)}`)!;
    const b = out.find((o) => o.key === `stop:${be(39)}`)!;
    expect([a.status, b.status]).toEqual(["met", "wrong"]);
    expect((b.detail.stops_in_window as { problem: string }[])[0]!.problem).toBe("already counted for an earlier fill");
    // with the spec's 2 h window the 08:00 stop is only in be(39)'s window ([07:35, 09:35]: met)
    expect(s.settle(END).find((o) => o.key === `stop:${be(39)}`)!.status).toBe("met");
  });
});

describe("the synthetic PM book follows tasks.md §8", () => {
  it("orders, fills, margin calls and wires match the spec's rules on the world's candles", () => {
    const rows = world.at(() => END).broker.events({});
    const book = bookEvents(rows);
    const candles = world.db
      .prepare("SELECT * FROM candle WHERE venue = 'coinbase' AND symbol IN ('BTC-USD','ETH-USD') ORDER BY open_time")
      .all() as CandleRow[];
    const bySym = (sym: string) => candles.filter((c) => c.symbol === sym);
    // defaults of the task = the generator's table = the spec
    expect(P.venue).toBe(BROKER_PARAMS.venue);
    expect(P.symbols).toEqual(BROKER_PARAMS.symbols);
    expect(P.maintenance).toEqual(BROKER_PARAMS.maintenance.map((m) => ({ from_day: m.fromDay, ratio: m.ratio })));
    expect(BROKER_PARAMS.orderHoursUtc).toEqual([1, 9, 17]);
    expect(BROKER_PARAMS.quantities).toEqual({ BTC: 0.25, ETH: 5 });
    const first = book[0]!;
    expect(first).toMatchObject({ kind: "position", t: START, p: { positions: { BTC: 3, ETH: 40 }, cash: -190_000 } });

    const orders = book.filter((e) => e.kind === "order");
    expect(orders).toHaveLength(30);
    const lastSide: Record<string, string> = {};
    for (const o of orders) {
      if (o.kind !== "order") continue;
      expect([1, 9, 17]).toContain((o.t % DAY_MS) / HOUR_MS);
      expect(o.p.qty).toBe(o.p.symbol === "BTC" ? 0.25 : 5);
      const m = markOf(
        world.at(() => o.t),
        "coinbase",
        `${o.p.symbol}-USD`,
      )!.price;
      expect(o.p.mark).toBe(m);
      expect(Math.abs(o.p.limit_price - m * (o.p.side === "buy" ? 0.99 : 1.01))).toBeLessThanOrEqual(0.0051);
      if (lastSide[o.p.symbol]) expect(o.p.side).not.toBe(lastSide[o.p.symbol]);
      lastSide[o.p.symbol] = o.p.side;
    }
    for (const f of book) {
      if (f.kind !== "fill") continue;
      const o = orders.find((x) => x.kind === "order" && x.p.order_id === f.p.order_id)!;
      if (o.kind !== "order") continue;
      const through = (c: CandleRow) => (o.p.side === "buy" ? c.l < o.p.limit_price : c.h > o.p.limit_price);
      const firstThrough = bySym(`${o.p.symbol}-USD`).find((c) => c.open_time >= o.t && through(c))!;
      expect(f.p.candle_open_time).toBe(firstThrough.open_time);
      expect(f.t).toBe(firstThrough.open_time + firstThrough.interval_ms);
      expect(f.p.price).toBe(o.p.limit_price);
    }
    const calls = book.filter((e) => e.kind === "margin_call");
    let prev = Number.NEGATIVE_INFINITY;
    for (const c of calls) {
      if (c.kind !== "margin_call") continue;
      expect(c.t - prev).toBeGreaterThanOrEqual(12 * HOUR_MS);
      prev = c.t;
      const day = Math.floor((c.t - START) / DAY_MS) + 1;
      expect(c.p.maintenance).toBe(day >= 9 ? 0.42 : day >= 4 ? 0.36 : 0.3);
      expect(c.p.ratio).toBeLessThan(c.p.maintenance);
      // the amount that restores maintenance (payload equity and gross value are rounded to cents)
      const gap = c.p.maintenance * c.p.gross_market_value - c.p.equity;
      expect(c.p.required_amount).toBeGreaterThanOrEqual(gap - 0.01);
      expect(c.p.required_amount).toBeLessThanOrEqual(gap + 0.02);
      expect(c.p.deadline).toBe(c.t + 4 * HOUR_MS);
      const wire = book.find(
        (e) => e.kind === "note" && e.p.subject === "Treasury wire received" && e.p.call_id === c.p.call_id,
      );
      if (c.p.deadline < END) expect(wire).toMatchObject({ t: c.p.deadline, p: { amount: c.p.required_amount } });
    }
    expect(calls.map((c) => (c.kind === "margin_call" ? c.p.call_id : ""))).toEqual([mc(1), mc(2), mc(3), mc(4)]);
  });
});
