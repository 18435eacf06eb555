import { DAY_MS } from "../../../src/common/time.js";
import { computeAgentBooks, type PublicFill } from "../../../src/tasks/risk-portfolio/agent-books.js";
import { type BookRules, type Rebuilt, rebuildBooks } from "../../../src/tasks/risk-portfolio/book-engine.js";
import type { FiledBook } from "../../../src/tasks/risk-portfolio/book-schema.js";
import { publicFill } from "../../../src/tasks/risk-portfolio/tools.js";
import { closeDays, D, orders } from "./fixtures.js";

/**
 * The hand-worked book (default rules: 10,000,000 cash, 5 bps commission, 1 bp slippage, borrow 4%
 * ACT/365). Two symbols; trading days Thu 03-05, Fri 03-06, Mon 03-09, Tue 03-10 (the weekend
 * 03-07/03-08 has no close); a history close on 03-04.
 *
 *   closes      AAA   BBB
 *   03-04        98    51   (history: before the account opens)
 *   03-05       100    50
 *   03-06       110    40
 *   03-09       105    45
 *   03-10       100    50
 *
 * Orders: 03-05 10:00 buy 1000 AAA, short 2000 BBB; 03-06 12:00 sell 1000 AAA then short 500 AAA
 * (crossing zero in two legs); Sun 03-08 09:00 cover 2000 BBB then buy 1000 BBB (crossing zero
 * again), cover 100 AAA, cover 100 AAA (two independent, identical fills) — executed at Monday's
 * close.
 *
 * 03-05 (first close, no borrow): buy 1000 AAA @100 = 100,000, commission 50, slippage 10 →
 *   cash 9,899,940; short 2000 BBB @50 = 100,000 − 60 → cash 9,999,880. equity = 9,999,880 +
 *   100,000 − 100,000 = 9,999,880; nav 0.999988; weights AAA 100,000 / 9,999,880 =
 *   0.010000120001440018, BBB −0.010000120001440018. costs 100 / 20 / 0.
 * 03-06: borrow = 0.04 × 1/365 × (2000 × 50) = 800/73 = 10.95890410958904 → cash 9,999,869.0410959;
 *   sell 1000 AAA @110: +110,000 − 55 − 11; short 500 AAA @110: +55,000 − 27.5 − 5.5 →
 *   cash 10,164,770.04109589; shares AAA −500, BBB −2000; equity = cash − 55,000 − 80,000 =
 *   10,029,770.04109589; nav 1.0029770041095891; costs 82.5 / 16.5 / 10.95890410958904;
 *   P&L long +10,000 (1000 × 10), short +20,000 (−2000 × −10).
 * 03-09 (3 calendar days): borrow = 0.04 × 3/365 × (500 × 110 + 2000 × 40 = 135,000) =
 *   44.38356164383562; cover 2000 BBB @45 (−90,054), buy 1000 BBB @45 (−45,027), cover 100 AAA
 *   @105 twice (−10,506.30 each) → cash 10,008,632.057534246; shares AAA −300, BBB 1000; equity =
 *   cash − 31,500 + 45,000 = 10,022,132.057534246; costs 78 / 15.6 / 44.38356164383562;
 *   P&L short −7,500 (AAA +2,500, BBB −10,000).
 * 03-10: borrow = 0.04 × 1/365 × 31,500 = 3.452054794520548; no fills → cash 10,008,628.605479453;
 *   equity = cash − 30,000 + 50,000 = 10,028,628.605479453; P&L long +5,000, short +1,500.
 */
export const HAND_RULES: BookRules = {
  initial_cash: 10_000_000,
  commission_bps: 5,
  slippage_bps: 1,
  borrow_rate: 0.04,
  day_count: 365,
};
export const HAND_SYMBOLS = ["AAA", "BBB"];
export const HAND_CLOSES = closeDays({
  "2026-03-04": { AAA: 98, BBB: 51 },
  "2026-03-05": { AAA: 100, BBB: 50 },
  "2026-03-06": { AAA: 110, BBB: 40 },
  "2026-03-09": { AAA: 105, BBB: 45 },
  "2026-03-10": { AAA: 100, BBB: 50 },
});
export const HAND_ORDERS = orders([
  ["2026-03-05T10:00:00Z", { symbol: "AAA", side: "buy", qty: 1000 }],
  ["2026-03-05T10:00:00Z", { symbol: "BBB", side: "short", qty: 2000 }],
  ["2026-03-06T12:00:00Z", { symbol: "AAA", side: "sell", qty: 1000 }],
  ["2026-03-06T12:00:00Z", { symbol: "AAA", side: "short", qty: 500 }],
  ["2026-03-08T09:00:00Z", { symbol: "BBB", side: "cover", qty: 2000 }],
  ["2026-03-08T09:00:00Z", { symbol: "BBB", side: "buy", qty: 1000 }],
  ["2026-03-08T09:00:00Z", { symbol: "AAA", side: "cover", qty: 100 }],
  ["2026-03-08T09:00:00Z", { symbol: "AAA", side: "cover", qty: 100 }],
]);
export const HAND_START = D("2026-03-05");
export const HAND_DAYS = ["2026-03-05", "2026-03-06", "2026-03-09", "2026-03-10"];

export function handRebuilt(): Rebuilt {
  return rebuildBooks({
    closes: HAND_CLOSES,
    orders: HAND_ORDERS,
    symbols: HAND_SYMBOLS,
    rules: HAND_RULES,
    startDay: HAND_START,
    until: D("2026-03-10") + DAY_MS,
  });
}

/** valid filed books for the hand-worked account, computed the agent's way from public data only */
export function handFiledBooks(): { day: string; book: FiledBook }[] {
  const rb = handRebuilt();
  const executions: PublicFill[] = rb.days.flatMap((d) => d.fills).map(publicFill);
  return computeAgentBooks({
    days: HAND_CLOSES.map((c) => ({ day: new Date(c.day).toISOString().slice(0, 10), closes: c.prices })),
    executions,
    rules: {
      first_day: "2026-03-05",
      ...HAND_RULES,
      max_gross_leverage: 2,
      universe: HAND_SYMBOLS,
      venue: "test",
    },
  });
}
