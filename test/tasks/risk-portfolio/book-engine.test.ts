import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DAY_MS } from "../../../src/common/time.js";
import { legsToTarget } from "../../../src/tasks/risk-portfolio/agent-books.js";
import {
  type BookDay,
  legError,
  type Order,
  orderId,
  rebuildBooks,
  sideSign,
} from "../../../src/tasks/risk-portfolio/book-engine.js";
import { closeDays, D } from "./fixtures.js";
import { HAND_RULES, handFiledBooks, handRebuilt } from "./hand-book.js";

const close = (x: number, y: number, digits = 7) => expect(x).toBeCloseTo(y, digits);

describe("book v2, the hand-worked book (numbers derived in hand-book.ts)", () => {
  const rb = handRebuilt();
  const [d5, d6, d9, d10] = rb.days as [BookDay, BookDay, BookDay, BookDay];

  it("books the trading days only, from the account's first day (history and the weekend have no book)", () => {
    expect(rb.days.map((d) => d.date)).toEqual(["2026-03-05", "2026-03-06", "2026-03-09", "2026-03-10"]);
    expect(rb.days.map((d) => d.accrual_days)).toEqual([0, 1, 3, 1]);
    expect(rb.pending).toEqual([]);
    expect(rb.refused).toEqual([]);
  });

  it("03-05: first close, no borrow, two opening fills", () => {
    expect(d5.costs).toEqual({ commission: 100, slippage: 20, borrow: 0 });
    expect(d5.cash).toBe(9_999_880);
    expect(d5.shares).toEqual({ AAA: 1000, BBB: -2000 });
    expect(d5.equity).toBe(9_999_880);
    expect(d5.nav).toBe(0.999988);
    close(d5.weights.AAA as number, 0.010000120001440018, 15);
    close(d5.weights.BBB as number, -0.010000120001440018, 15);
    expect(d5.fills.map((f) => [f.fill_id, f.order_id, f.side, f.qty, f.price, f.notional])).toEqual([
      ["F-00001", "O-00001", "buy", 1000, 100, 100_000],
      ["F-00002", "O-00002", "short", 2000, 50, 100_000],
    ]);
  });

  it("03-06: one day of borrow on 100,000 short, then sell 1000 and short 500 AAA (two legs)", () => {
    close(d6.costs.borrow, 800 / 73, 12);
    close(d6.costs.borrow, 10.95890410958904, 12);
    expect(d6.short_value_prev).toBe(100_000);
    close(d6.costs.commission, 82.5, 12);
    close(d6.costs.slippage, 16.5, 12);
    close(d6.cash, 10_164_770.04109589);
    expect(d6.shares).toEqual({ AAA: -500, BBB: -2000 });
    close(d6.equity, 10_029_770.04109589);
    close(d6.nav, 1.0029770041095891, 14);
    close(d6.weights.AAA as number, -0.005483675076760832, 14);
    close(d6.weights.BBB as number, -0.007976254657106665, 14);
    expect(d6.pnl_long).toBe(10_000);
    expect(d6.pnl_short).toBe(20_000);
  });

  it("03-09: weekend borrow over 3 calendar days, crossing zero on BBB, two identical independent covers", () => {
    expect(d9.accrual_days).toBe(3);
    expect(d9.short_value_prev).toBe(135_000);
    close(d9.costs.borrow, 44.38356164383562, 12);
    close(d9.costs.commission, 78, 12);
    close(d9.costs.slippage, 15.6, 12);
    close(d9.cash, 10_008_632.057534246);
    expect(d9.shares).toEqual({ AAA: -300, BBB: 1000 });
    close(d9.equity, 10_022_132.057534246);
    close(d9.nav, 1.0022132057534248, 14);
    close(d9.weights.AAA as number, -0.0031430437973843633, 14);
    close(d9.weights.BBB as number, 0.004490062567691948, 14);
    const [, , c1, c2] = d9.fills;
    expect(c1?.fill_id).toBe("F-00007");
    expect(c2?.fill_id).toBe("F-00008");
    expect({ ...c1, fill_id: "", order_id: "" }).toEqual({ ...c2, fill_id: "", order_id: "" });
    expect(d9.pnl_short).toBe(-7_500);
  });

  it("03-10: borrow on 300 × 105, no fills", () => {
    close(d10.costs.borrow, 3.452054794520548, 12);
    expect(d10.fills).toEqual([]);
    close(d10.cash, 10_008_628.605479453);
    close(d10.equity, 10_028_628.605479453);
    close(d10.nav, 1.0028628605479453, 14);
    expect(d10.pnl_long).toBe(5_000);
    expect(d10.pnl_short).toBe(1_500);
  });

  it("the agent-side book-keeping (a separate implementation) agrees within the published tolerances", () => {
    const filed = handFiledBooks();
    expect(filed.map((f) => f.day)).toEqual(rb.days.map((d) => d.date));
    for (const [i, f] of filed.entries()) {
      const b = rb.days[i] as BookDay;
      expect(Math.abs(f.book.cash - b.cash)).toBeLessThanOrEqual(1e-6);
      expect(Math.abs(f.book.equity - b.equity)).toBeLessThanOrEqual(1e-6);
      expect(Math.abs(f.book.nav - b.nav)).toBeLessThanOrEqual(1e-12);
      expect(f.book.shares).toEqual(b.shares);
    }
  });

  it("an order submitted exactly at a close executes at the next close; history closes never fill", () => {
    const cd = closeDays({ "2026-03-01": { X: 10 }, "2026-03-02": { X: 11 }, "2026-03-03": { X: 12 } });
    const o: Order[] = [
      { n: 1, order_id: orderId(1), t: D("2026-03-02"), symbol: "X", side: "buy", qty: 1 },
      { n: 2, order_id: orderId(2), t: D("2026-03-02") + DAY_MS - 1, symbol: "X", side: "buy", qty: 1 },
      { n: 3, order_id: orderId(3), t: D("2026-03-03"), symbol: "X", side: "buy", qty: 1 },
    ];
    const r = rebuildBooks({
      closes: cd,
      orders: o,
      symbols: ["X"],
      rules: HAND_RULES,
      startDay: D("2026-03-02"),
      until: D("2026-03-04"),
    });
    expect(r.days.map((d) => [d.date, d.fills.map((f) => [f.fill_id, f.price])])).toEqual([
      [
        "2026-03-02",
        [
          ["F-00001", 11],
          ["F-00002", 11],
        ],
      ],
      ["2026-03-03", [["F-00003", 12]]],
    ]);
  });
});

describe("leg rules", () => {
  it("crossing zero needs two ordered legs", () => {
    expect(legError("X", 10, "sell", 10)).toBeNull();
    expect(legError("X", 10, "sell", 15)).toMatch(/sell 10, then short 5 \(two ordered legs\)/);
    expect(legError("X", 10, "short", 1)).toMatch(/sell 10 first, then short/);
    expect(legError("X", -4, "buy", 1)).toMatch(/cover 4 first, then buy/);
    expect(legError("X", -4, "cover", 6)).toMatch(/cover 4, then buy 2/);
    expect(legError("X", 0, "sell", 1)).toMatch(/needs a long position/);
    expect(legError("X", 0, "cover", 1)).toMatch(/needs a short position/);
    expect(legError("X", 0, "buy", 1)).toBeNull();
    expect(legError("X", 0, "short", 1)).toBeNull();
  });

  it("legsToTarget reaches any target with legal legs (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: -50, max: 50 }), fc.integer({ min: -50, max: 50 }), (cur, tgt) => {
        let p = cur;
        for (const leg of legsToTarget("X", cur, tgt)) {
          expect(leg.qty).toBeGreaterThan(0);
          expect(legError("X", p, leg.side, leg.qty)).toBeNull();
          p += sideSign(leg.side) * leg.qty;
        }
        expect(p).toBe(tgt);
      }),
    );
  });
});

describe("book identities (property over random legal order streams)", () => {
  it("equity = cash + Σ shares × close; Δequity = P&L long + P&L short − costs; every weight carries its position's sign", () => {
    const arb = fc.record({
      prices: fc.array(fc.tuple(fc.integer({ min: 50, max: 150 }), fc.integer({ min: 5, max: 30 })), {
        minLength: 3,
        maxLength: 8,
      }),
      targets: fc.array(fc.tuple(fc.integer({ min: -300, max: 300 }), fc.integer({ min: -300, max: 300 })), {
        minLength: 3,
        maxLength: 8,
      }),
    });
    fc.assert(
      fc.property(arb, ({ prices, targets }) => {
        const table: Record<string, Record<string, number>> = {};
        prices.forEach(([a, b], i) => {
          // skip every 4th calendar day: a non-trading day inside the stream
          const day = new Date(D("2026-03-01") + i * (i % 4 === 3 ? 2 : 1) * DAY_MS).toISOString().slice(0, 10);
          table[day] = { A: a, B: b };
        });
        const cd = closeDays(table);
        const ords: Order[] = [];
        const pos = { A: 0, B: 0 } as Record<string, number>;
        cd.forEach((c, i) => {
          const [ta, tb] = targets[i % targets.length] as [number, number];
          for (const [s, tgt] of [
            ["A", ta],
            ["B", tb],
          ] as const)
            for (const leg of legsToTarget(s, pos[s] as number, tgt)) {
              const n = ords.length + 1;
              ords.push({ ...leg, n, order_id: orderId(n), t: c.day + 3_600_000 });
              pos[s] = (pos[s] as number) + sideSign(leg.side) * leg.qty;
            }
        });
        const r = rebuildBooks({
          closes: cd,
          orders: ords,
          symbols: ["A", "B"],
          rules: HAND_RULES,
          startDay: cd[0]!.day,
          until: Number.MAX_SAFE_INTEGER,
        });
        expect(r.refused).toEqual([]);
        let prevEquity = HAND_RULES.initial_cash;
        for (const d of r.days) {
          const mv = (d.shares.A as number) * (d.prices.A as number) + (d.shares.B as number) * (d.prices.B as number);
          expect(Math.abs(d.equity - (d.cash + mv))).toBeLessThan(1e-6);
          const costs = d.costs.commission + d.costs.slippage + d.costs.borrow;
          expect(Math.abs(d.equity - prevEquity - (d.pnl_long + d.pnl_short - costs))).toBeLessThan(1e-6);
          expect(d.costs.borrow).toBeGreaterThanOrEqual(0);
          for (const s of ["A", "B"]) expect(Math.sign(d.weights[s] as number)).toBe(Math.sign(d.shares[s] as number));
          prevEquity = d.equity;
        }
      }),
      { numRuns: 200 },
    );
  });
});
