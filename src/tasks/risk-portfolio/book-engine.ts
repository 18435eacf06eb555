import { DAY_MS, isoDay } from "../../common/time.js";
import type { CloseDay } from "./daily-closes.js";

/**
 * Book v2 (tasks.md §10), the one accounting engine shared by the environment (executions,
 * account, validate_books) and the grader: a pure function of the daily closes and the accepted
 * orders, never of numbers an agent reports.
 *
 * At each trading day's close, in this order:
 * 1. borrow = borrow_rate × (calendar days since the previous account close) / day_count ×
 *    the previous close's short market value (Σ over short positions of |shares| × previous close),
 *    debited from cash before any trade;
 * 2. every pending order submitted before this close executes at the close, in submission order:
 *    notional = qty × close, commission = notional × commission_bps / 10,000, slippage = notional ×
 *    slippage_bps / 10,000; buy and cover pay notional + commission + slippage, sell and short receive
 *    notional − commission − slippage;
 * 3. equity = cash + Σ shares × close; NAV = equity / initial cash; weight = shares × close / equity
 *    (signed: shorts have negative weights; 0 when equity is exactly 0).
 */

export const SIDES = ["buy", "sell", "short", "cover"] as const;
export type Side = (typeof SIDES)[number];

export interface OrderRequest {
  symbol: string;
  side: Side;
  qty: number;
}

/** An accepted order: `n` is its 1-based rank among all accepted orders of the run. */
export interface Order extends OrderRequest {
  n: number;
  order_id: string;
  /** submission instant */
  t: number;
}

export interface Fill {
  fill_id: string;
  order_id: string;
  /** the trading day whose close executed it (YYYY-MM-DD) */
  day: string;
  executed_at: number;
  symbol: string;
  side: Side;
  qty: number;
  price: number;
  notional: number;
  commission: number;
  slippage: number;
}

export interface BookRules {
  initial_cash: number;
  commission_bps: number;
  slippage_bps: number;
  borrow_rate: number;
  day_count: number;
}

export interface Costs {
  commission: number;
  slippage: number;
  borrow: number;
}

/** The rebuilt book after one trading day's close. */
export interface BookDay {
  day: number;
  date: string;
  close_time: number;
  prices: Record<string, number>;
  /** calendar days since the previous account close (0 on the first) */
  accrual_days: number;
  /** the previous close's short market value (≥ 0) the borrow accrued on */
  short_value_prev: number;
  fills: Fill[];
  costs: Costs;
  cash: number;
  /** every universe symbol, zeros included */
  shares: Record<string, number>;
  equity: number;
  nav: number;
  weights: Record<string, number>;
  long_value: number;
  /** |short market value| */
  short_value: number;
  /** price P&L since the previous close of the positions held long / short over it */
  pnl_long: number;
  pnl_short: number;
}

export const orderId = (n: number) => `O-${String(n).padStart(5, "0")}`;
export const fillId = (n: number) => `F-${String(n).padStart(5, "0")}`;

/** +1 for buy/cover (shares up), −1 for sell/short */
export const sideSign = (side: Side): 1 | -1 => (side === "buy" || side === "cover" ? 1 : -1);

/**
 * Whether one leg is legal from `position`: buy from a flat or long position; sell at most the
 * long; short from a flat or short position; cover at most the short. Crossing zero therefore takes
 * two ordered legs (sell then short; cover then buy). Returns null when legal, else the reason.
 */
export function legError(symbol: string, position: number, side: Side, qty: number): string | null {
  switch (side) {
    case "buy":
      return position < 0
        ? `buy ${qty} ${symbol} from a short of ${position} would cross zero: cover ${-position} first, then buy (two ordered legs)`
        : null;
    case "sell":
      if (position <= 0)
        return `sell ${qty} ${symbol} needs a long position (position ${position}); to go short use side "short"`;
      return qty > position
        ? `sell ${qty} ${symbol} exceeds the long of ${position} and would cross zero: sell ${position}, then short ${qty - position} (two ordered legs)`
        : null;
    case "short":
      return position > 0
        ? `short ${qty} ${symbol} from a long of ${position} would cross zero: sell ${position} first, then short (two ordered legs)`
        : null;
    case "cover":
      if (position >= 0)
        return `cover ${qty} ${symbol} needs a short position (position ${position}); to go long use side "buy"`;
      return qty > -position
        ? `cover ${qty} ${symbol} exceeds the short of ${-position} and would cross zero: cover ${-position}, then buy ${qty + position} (two ordered legs)`
        : null;
  }
}

/** commission and slippage of one fill */
export function fillCosts(notional: number, r: BookRules): { commission: number; slippage: number } {
  return { commission: (notional * r.commission_bps) / 10_000, slippage: (notional * r.slippage_bps) / 10_000 };
}

/** borrow accrued over `days` calendar days on a short market value */
export function borrowCost(shortValue: number, days: number, r: BookRules): number {
  return (r.borrow_rate * days * shortValue) / r.day_count;
}

export interface RebuildInput {
  /** trading days (ascending; may include days before the account starts) */
  closes: readonly CloseDay[];
  /** accepted orders, ascending by n */
  orders: readonly Order[];
  symbols: readonly string[];
  rules: BookRules;
  /** the account's first day (00:00 UTC of sim_start); earlier closes are history */
  startDay: number;
  /** closes with close_time ≤ until are booked */
  until: number;
}

export interface Rebuilt {
  days: BookDay[];
  /** orders not executed by `until` */
  pending: Order[];
  /** orders the engine refused at execution (an illegal leg): never happens for orders the tools accepted */
  refused: { order: Order; reason: string }[];
}

/** Rebuilds the account's daily books from closes and accepted orders. */
export function rebuildBooks(inp: RebuildInput): Rebuilt {
  const { rules, symbols } = inp;
  let cash = rules.initial_cash;
  const shares: Record<string, number> = Object.fromEntries(symbols.map((s) => [s, 0]));
  const days: BookDay[] = [];
  const refused: Rebuilt["refused"] = [];
  let prev: CloseDay | null = null;
  let next = 0;
  for (const c of inp.closes) {
    if (c.day < inp.startDay) continue;
    if (c.close_time > inp.until) break;
    const accrual = prev ? Math.round((c.day - prev.day) / DAY_MS) : 0;
    let shortPrev = 0;
    let pnlLong = 0;
    let pnlShort = 0;
    if (prev) {
      for (const s of symbols) {
        const q = shares[s] as number;
        const dp = (c.prices[s] as number) - (prev.prices[s] as number);
        if (q < 0) {
          shortPrev += -q * (prev.prices[s] as number);
          pnlShort += q * dp;
        } else if (q > 0) pnlLong += q * dp;
      }
    }
    const borrow = borrowCost(shortPrev, accrual, rules);
    cash -= borrow;
    const fills: Fill[] = [];
    let commission = 0;
    let slippage = 0;
    while (next < inp.orders.length && (inp.orders[next] as Order).t < c.close_time) {
      const o = inp.orders[next++] as Order;
      const why = symbols.includes(o.symbol)
        ? legError(o.symbol, shares[o.symbol] as number, o.side, o.qty)
        : `unknown symbol ${o.symbol}`;
      if (why) {
        refused.push({ order: o, reason: why });
        continue;
      }
      const price = c.prices[o.symbol] as number;
      const notional = o.qty * price;
      const fc = fillCosts(notional, rules);
      cash += sideSign(o.side) === 1 ? -notional : notional;
      cash -= fc.commission;
      cash -= fc.slippage;
      shares[o.symbol] = (shares[o.symbol] as number) + sideSign(o.side) * o.qty;
      commission += fc.commission;
      slippage += fc.slippage;
      fills.push({
        fill_id: fillId(o.n),
        order_id: o.order_id,
        day: isoDay(c.day),
        executed_at: c.close_time,
        symbol: o.symbol,
        side: o.side,
        qty: o.qty,
        price,
        notional,
        commission: fc.commission,
        slippage: fc.slippage,
      });
    }
    let equity = cash;
    let longValue = 0;
    let shortValue = 0;
    for (const s of symbols) {
      const v = (shares[s] as number) * (c.prices[s] as number);
      equity += v;
      if (v > 0) longValue += v;
      else shortValue -= v;
    }
    days.push({
      day: c.day,
      date: isoDay(c.day),
      close_time: c.close_time,
      prices: { ...c.prices },
      accrual_days: accrual,
      short_value_prev: shortPrev,
      fills,
      costs: { commission, slippage, borrow },
      cash,
      shares: { ...shares },
      equity,
      nav: equity / rules.initial_cash,
      weights: Object.fromEntries(
        symbols.map((s) => [s, equity === 0 ? 0 : ((shares[s] as number) * (c.prices[s] as number)) / equity]),
      ),
      long_value: longValue,
      short_value: shortValue,
      pnl_long: pnlLong,
      pnl_short: pnlShort,
    });
    prev = c;
  }
  return { days, pending: inp.orders.slice(next), refused };
}
