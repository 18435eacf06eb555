/**
 * R7: the book-v2 mutation suite. A valid multi-day book is generated from a scripted trading
 * sequence (hand-book.ts: shorts, covers, crossing zero twice in two legs, weekend borrow, two equal
 * independent fills) by the agent-side book-keeping from public data; each mutation below must be
 * caught with its specific error code, and the positive cases must pass.
 */
import { describe, expect, it } from "vitest";
import type { BookDay } from "../../../src/tasks/risk-portfolio/book-engine.js";
import type { FiledBook } from "../../../src/tasks/risk-portfolio/book-schema.js";
import { type ErrorCode, type Filing, reconcileBooks } from "../../../src/tasks/risk-portfolio/reconcile.js";
import { D } from "./fixtures.js";
import { HAND_DAYS, HAND_RULES, HAND_SYMBOLS, handFiledBooks, handRebuilt } from "./hand-book.js";

const HOUR = 3_600_000;
const rebuilt = handRebuilt();
const closesOf = new Map(rebuilt.days.map((d) => [d.date, d.prices]));
const window = (day: string) => ({ open: D(day) + 24 * HOUR, deadline: D(day) + 48 * HOUR });

type Books = { day: string; book: FiledBook; t?: number }[];
const clone = (b: Books): Books => structuredClone(b);
const valid = (): Books => handFiledBooks().map((b) => ({ ...b, t: D(b.day) + 25 * HOUR }));

function check(books: readonly Filing[], required: readonly string[] = HAND_DAYS) {
  return reconcileBooks({
    rebuilt: rebuilt.days,
    fillsById: new Map(rebuilt.days.flatMap((d) => d.fills).map((f) => [f.fill_id, f])),
    symbols: HAND_SYMBOLS,
    initialCash: HAND_RULES.initial_cash,
    tol: { cash: 1e-6, ratio: 1e-12 },
    filings: books,
    required,
    window,
  });
}

/** the book of `day` in a mutable copy */
const at = (b: Books, day: string) => (b.find((x) => x.day === day) as Books[number]).book;

/** re-derives equity, nav and weights from the (mutated) cash and shares: a mutation that keeps the book's own identities */
function consistent(book: FiledBook, day: string): FiledBook {
  const px = closesOf.get(day) as Record<string, number>;
  let equity = book.cash;
  for (const s of HAND_SYMBOLS) equity += (book.shares[s] ?? 0) * (px[s] as number);
  book.equity = equity;
  book.nav = equity / HAND_RULES.initial_cash;
  for (const s of HAND_SYMBOLS) book.weights[s] = ((book.shares[s] ?? 0) * (px[s] as number)) / equity;
  return book;
}

interface Mutation {
  name: string;
  expect: ErrorCode;
  apply(b: Books): Books;
}

const MUTATIONS: Mutation[] = [
  {
    name: "missing commission (cash kept consistent with it)",
    expect: "cost_mismatch",
    apply: (b) => {
      const k = at(b, "2026-03-05");
      k.cash += k.costs.commission;
      k.costs.commission = 0;
      consistent(k, "2026-03-05");
      return b;
    },
  },
  {
    name: "understated commission (half)",
    expect: "cost_mismatch",
    apply: (b) => {
      const k = at(b, "2026-03-06");
      k.cash += k.costs.commission / 2;
      k.costs.commission /= 2;
      consistent(k, "2026-03-06");
      return b;
    },
  },
  {
    name: "duplicated commission",
    expect: "cash_mismatch",
    apply: (b) => {
      const k = at(b, "2026-03-09");
      k.cash -= k.costs.commission;
      k.costs.commission *= 2;
      consistent(k, "2026-03-09");
      return b;
    },
  },
  {
    name: "missing slippage",
    expect: "cost_mismatch",
    apply: (b) => {
      const k = at(b, "2026-03-09");
      k.cash += k.costs.slippage;
      k.costs.slippage = 0;
      consistent(k, "2026-03-09");
      return b;
    },
  },
  {
    name: "missing weekend borrow",
    expect: "cost_mismatch",
    apply: (b) => {
      const k = at(b, "2026-03-09");
      k.cash += k.costs.borrow;
      k.costs.borrow = 0;
      consistent(k, "2026-03-09");
      return b;
    },
  },
  {
    name: "weekend borrow accrued for one day instead of three",
    expect: "cost_mismatch",
    apply: (b) => {
      const k = at(b, "2026-03-09");
      const one = k.costs.borrow / 3;
      k.cash += k.costs.borrow - one;
      k.costs.borrow = one;
      consistent(k, "2026-03-09");
      return b;
    },
  },
  {
    name: "a fill listed twice in one book (duplicate fill id)",
    expect: "duplicate_fill_id",
    apply: (b) => {
      const k = at(b, "2026-03-09");
      k.fills.push({ ...(k.fills[0] as FiledBook["fills"][number]) });
      return b;
    },
  },
  {
    name: "a fill booked on two days",
    expect: "duplicate_fill_id",
    apply: (b) => {
      at(b, "2026-03-10").fills.push({ ...(at(b, "2026-03-09").fills[0] as FiledBook["fills"][number]) });
      return b;
    },
  },
  {
    name: "an extra, invented fill",
    expect: "unknown_fill",
    apply: (b) => {
      at(b, "2026-03-10").fills.push({ fill_id: "F-00099", symbol: "AAA", side: "cover", qty: 1, price: 100 });
      return b;
    },
  },
  {
    name: "a missing fill (one of the two identical covers)",
    expect: "missing_fill",
    apply: (b) => {
      const k = at(b, "2026-03-09");
      k.fills = k.fills.filter((f) => f.fill_id !== "F-00008");
      return b;
    },
  },
  {
    name: "a fill with a tampered quantity",
    expect: "fill_mismatch",
    apply: (b) => {
      (at(b, "2026-03-05").fills[0] as FiledBook["fills"][number]).qty = 999;
      return b;
    },
  },
  {
    name: "a fill with a tampered price",
    expect: "fill_mismatch",
    apply: (b) => {
      (at(b, "2026-03-06").fills[1] as FiledBook["fills"][number]).price = 110.01;
      return b;
    },
  },
  {
    name: "a fill moved to the previous day",
    expect: "fill_wrong_day",
    apply: (b) => {
      const k6 = at(b, "2026-03-06");
      const moved = k6.fills.shift() as FiledBook["fills"][number];
      at(b, "2026-03-05").fills.push(moved);
      return b;
    },
  },
  {
    name: "share tampering (one more share, the book's identities kept)",
    expect: "shares_mismatch",
    apply: (b) => {
      const k = at(b, "2026-03-06");
      k.shares.AAA = (k.shares.AAA as number) - 1;
      consistent(k, "2026-03-06");
      return b;
    },
  },
  {
    name: "fractional shares",
    expect: "non_integer_shares",
    apply: (b) => {
      at(b, "2026-03-10").shares.BBB = 1000.5;
      return b;
    },
  },
  {
    name: "tampered intermediate NAV",
    expect: "nav_mismatch",
    apply: (b) => {
      at(b, "2026-03-06").nav += 1e-9;
      return b;
    },
  },
  {
    name: "NAV inconsistent with the book's own equity",
    expect: "nav_identity",
    apply: (b) => {
      at(b, "2026-03-09").nav = at(b, "2026-03-06").nav;
      return b;
    },
  },
  {
    name: "tampered equity",
    expect: "equity_identity",
    apply: (b) => {
      at(b, "2026-03-09").equity += 0.01;
      return b;
    },
  },
  {
    name: "tampered cash (everything else re-derived from it)",
    expect: "cash_mismatch",
    apply: (b) => {
      const k = at(b, "2026-03-10");
      k.cash += 1;
      consistent(k, "2026-03-10");
      return b;
    },
  },
  {
    name: "a cash residual just over the 1e-6 tolerance",
    expect: "cash_mismatch",
    apply: (b) => {
      const k = at(b, "2026-03-06");
      k.cash += 2e-6;
      k.equity += 2e-6;
      return b;
    },
  },
  {
    name: "a weight off by 1e-9",
    expect: "weight_mismatch",
    apply: (b) => {
      const k = at(b, "2026-03-05");
      k.weights.AAA = (k.weights.AAA as number) + 1e-9;
      return b;
    },
  },
  {
    name: "a short weight with the wrong sign",
    expect: "weight_mismatch",
    apply: (b) => {
      const k = at(b, "2026-03-06");
      k.weights.BBB = -(k.weights.BBB as number);
      return b;
    },
  },
  {
    name: "a non-zero weight left out",
    expect: "weight_mismatch",
    apply: (b) => {
      delete at(b, "2026-03-09").weights.AAA;
      return b;
    },
  },
  {
    name: "a missing day",
    expect: "missing_day",
    apply: (b) => b.filter((x) => x.day !== "2026-03-09"),
  },
  {
    name: "a duplicated day",
    expect: "duplicate_day",
    apply: (b) => [...b, { ...(b[1] as Books[number]) }],
  },
  {
    name: "a book for a non-trading day (Saturday)",
    expect: "unknown_day",
    apply: (b) => [...b, { day: "2026-03-07", book: structuredClone(at(b, "2026-03-06")), t: D("2026-03-08") + HOUR }],
  },
  {
    name: "non-finite cash (NaN)",
    expect: "non_finite",
    apply: (b) => {
      at(b, "2026-03-05").cash = Number.NaN;
      return b;
    },
  },
  {
    name: "non-finite weight (Infinity)",
    expect: "non_finite",
    apply: (b) => {
      at(b, "2026-03-06").weights.AAA = Number.POSITIVE_INFINITY;
      return b;
    },
  },
  {
    name: "non-finite shares (null, as JSON writes Infinity)",
    expect: "non_finite",
    apply: (b) => {
      (at(b, "2026-03-09").shares as Record<string, unknown>).AAA = null;
      return b;
    },
  },
  {
    name: "illegal inventory transition: one leg through zero instead of sell then short",
    expect: "illegal_transition",
    apply: (b) => {
      const k = at(b, "2026-03-06");
      k.fills = [{ fill_id: "F-00003", symbol: "AAA", side: "sell", qty: 1500, price: 110 }];
      return b;
    },
  },
  {
    name: "illegal inventory transition: the two legs in the wrong order",
    expect: "illegal_transition",
    apply: (b) => {
      const k = at(b, "2026-03-09");
      const [cover, buy, ...rest] = k.fills;
      k.fills = [buy as FiledBook["fills"][number], cover as FiledBook["fills"][number], ...rest];
      return b;
    },
  },
  {
    name: "shares moved without fills",
    expect: "shares_fill_mismatch",
    apply: (b) => {
      const k = at(b, "2026-03-10");
      k.shares.BBB = 900;
      consistent(k, "2026-03-10");
      return b;
    },
  },
  {
    name: "an unknown symbol in shares",
    expect: "unknown_symbol",
    apply: (b) => {
      at(b, "2026-03-05").shares.ZZZ = 0;
      return b;
    },
  },
  {
    name: "a book without costs",
    expect: "malformed_book",
    apply: (b) => {
      delete (at(b, "2026-03-05") as Partial<FiledBook>).costs;
      return b;
    },
  },
  {
    name: "a book filed after its window",
    expect: "filed_outside_window",
    apply: (b) => {
      (b[0] as Books[number]).t = D("2026-03-07") + HOUR;
      return b;
    },
  },
];

describe("R7: every mutation of a valid book is caught with its specific error", () => {
  it("the unmutated book reconciles (shorts, two-leg crossings, weekend borrow, equal independent fills)", () => {
    expect(check(valid())).toEqual([]);
  });

  it(`has ≥ 24 distinct mutations (${MUTATIONS.length})`, () => {
    expect(MUTATIONS.length).toBeGreaterThanOrEqual(24);
    expect(new Set(MUTATIONS.map((m) => m.name)).size).toBe(MUTATIONS.length);
    expect(new Set(MUTATIONS.map((m) => m.expect)).size).toBeGreaterThanOrEqual(20);
  });

  it.each(MUTATIONS.map((m) => [m.name, m] as const))("%s", (_name, m) => {
    const errors = check(m.apply(clone(valid())));
    expect(errors.map((e) => e.code)).toContain(m.expect);
    for (const e of errors) expect(e.message.length).toBeGreaterThan(10);
  });
});

describe("R7 positives: legitimate books pass", () => {
  it("independent equal fills are two fills, not a duplicate", () => {
    const k = at(valid(), "2026-03-09");
    const covers = k.fills.filter((f) => f.side === "cover" && f.symbol === "AAA");
    expect(covers.map((f) => f.fill_id)).toEqual(["F-00007", "F-00008"]);
    expect({ ...covers[0], fill_id: "" }).toEqual({ ...covers[1], fill_id: "" });
    expect(check(valid())).toEqual([]);
  });

  it("weekend borrow: Monday accrues 3 calendar days and the book says so", () => {
    const k = at(valid(), "2026-03-09");
    expect(Math.abs(k.costs.borrow - (0.04 * 3 * 135_000) / 365)).toBeLessThan(1e-9);
    expect((rebuilt.days[2] as BookDay).accrual_days).toBe(3);
  });

  it("non-trading days need no book: the weekend is neither required nor missing", () => {
    expect(HAND_DAYS).not.toContain("2026-03-07");
    expect(check(valid()).filter((e) => e.code === "missing_day")).toEqual([]);
  });

  it("residuals inside the tolerances pass (5e-7 on cash and equity, 5e-13 on nav and a weight)", () => {
    const b = valid();
    const k = at(b, "2026-03-06");
    k.cash += 5e-7;
    k.equity += 5e-7;
    k.nav += 5e-14;
    k.weights.AAA = (k.weights.AAA as number) + 5e-13;
    expect(check(b)).toEqual([]);
  });

  it("filing order does not matter (transitions follow the days)", () => {
    expect(check(valid().reverse())).toEqual([]);
  });

  it("a book checked alone uses the account's previous positions for its transition", () => {
    const only = valid().filter((x) => x.day === "2026-03-09");
    expect(check(only, [])).toEqual([]);
  });
});
