import { z } from "zod";
import { DAY_MS } from "../../common/time.js";
import { SIDES, type Side } from "./book-engine.js";
import type { FiledBook } from "./book-schema.js";

/**
 * The reference policies' own book-keeping, written from the agent's side: it reads only what the
 * tools return (closes from get_prices, executions and rules from get_account) and is deliberately
 * a separate implementation from the grader's engine (its own loop and arithmetic order), so the
 * policies' reconciled books also cross-check the engine within the published tolerances.
 */

export const PublicFill = z.object({
  fill_id: z.string(),
  order_id: z.string(),
  day: z.string(),
  executed_at: z.string(),
  symbol: z.string(),
  side: z.enum(SIDES),
  qty: z.number(),
  price: z.number(),
});
export type PublicFill = z.infer<typeof PublicFill>;

export const AccountView = z.object({
  now: z.string(),
  as_of_close: z.string().nullable(),
  cash: z.number(),
  shares: z.record(z.string(), z.number()),
  executions: z.array(PublicFill),
  pending_orders: z.array(z.object({ order_id: z.string(), symbol: z.string(), side: z.enum(SIDES), qty: z.number() })),
  books_filed: z.array(z.string()),
  books_due: z.array(z.object({ day: z.string(), deadline: z.string() })),
  rules: z.object({
    first_day: z.string(),
    initial_cash: z.number(),
    commission_bps: z.number(),
    slippage_bps: z.number(),
    borrow_rate: z.number(),
    day_count: z.number(),
    max_gross_leverage: z.number(),
    universe: z.array(z.string()),
    venue: z.string(),
  }),
});
export type AccountView = z.infer<typeof AccountView>;

export const PricesView = z.object({
  symbols: z.array(z.string()),
  last_complete_day: z.string(),
  days: z.array(z.object({ day: z.string(), closes: z.record(z.string(), z.number()) })),
  non_trading_days: z.array(z.string()),
});
export type PricesView = z.infer<typeof PricesView>;

export interface CloseRow {
  day: string;
  closes: Record<string, number>;
}

const isBuyLike = (s: Side) => s === "buy" || s === "cover";

/** Books of every trading day from the account's first day, in day order. */
export function computeAgentBooks(o: {
  days: readonly CloseRow[];
  executions: readonly PublicFill[];
  rules: AccountView["rules"];
}): { day: string; book: FiledBook }[] {
  const r = o.rules;
  const syms = r.universe;
  let cash = r.initial_cash;
  const pos: Record<string, number> = {};
  for (const s of syms) pos[s] = 0;
  let prev: CloseRow | null = null;
  const out: { day: string; book: FiledBook }[] = [];
  for (const d of o.days) {
    if (d.day < r.first_day) continue;
    // borrow on yesterday's shorts, over the calendar days since the previous close, before trading
    let borrow = 0;
    if (prev) {
      const days = (Date.parse(`${d.day}T00:00:00Z`) - Date.parse(`${prev.day}T00:00:00Z`)) / DAY_MS;
      let shortValue = 0;
      for (const s of syms) if ((pos[s] as number) < 0) shortValue += -(pos[s] as number) * (prev.closes[s] as number);
      borrow = shortValue * r.borrow_rate * (days / r.day_count);
    }
    cash -= borrow;
    const fills = o.executions.filter((f) => f.day === d.day).sort((a, b) => (a.fill_id < b.fill_id ? -1 : 1));
    let commission = 0;
    let slippage = 0;
    for (const f of fills) {
      const notional = f.price * f.qty;
      const c = notional * (r.commission_bps / 10_000);
      const sl = notional * (r.slippage_bps / 10_000);
      commission += c;
      slippage += sl;
      cash = isBuyLike(f.side) ? cash - (notional + c + sl) : cash + (notional - c - sl);
      pos[f.symbol] = (pos[f.symbol] as number) + (isBuyLike(f.side) ? f.qty : -f.qty);
    }
    let marketValue = 0;
    for (const s of syms) marketValue += (pos[s] as number) * (d.closes[s] as number);
    const equity = cash + marketValue;
    const weights: Record<string, number> = {};
    for (const s of syms) weights[s] = equity === 0 ? 0 : ((pos[s] as number) * (d.closes[s] as number)) / equity;
    out.push({
      day: d.day,
      book: {
        cash,
        shares: { ...pos },
        costs: { commission, slippage, borrow },
        equity,
        nav: equity / r.initial_cash,
        weights,
        fills: fills.map((f) => ({ fill_id: f.fill_id, symbol: f.symbol, side: f.side, qty: f.qty, price: f.price })),
      },
    });
    prev = d;
  }
  return out;
}

/** the legs from `cur` to `target` shares: at most two, crossing zero as sell→short or cover→buy */
export function legsToTarget(
  symbol: string,
  cur: number,
  target: number,
): { symbol: string; side: Side; qty: number }[] {
  if (target === cur) return [];
  const leg = (side: Side, qty: number) => ({ symbol, side, qty });
  if (cur >= 0 && target >= 0) return [target > cur ? leg("buy", target - cur) : leg("sell", cur - target)];
  if (cur <= 0 && target <= 0) return [target < cur ? leg("short", cur - target) : leg("cover", target - cur)];
  if (cur > 0) return [leg("sell", cur), leg("short", -target)];
  return [leg("cover", -cur), leg("buy", target)];
}
