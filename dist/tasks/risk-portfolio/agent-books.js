import { z } from "zod";
import { SIDES } from "./book-engine.js";
const PublicFill = z.object({
  fill_id: z.string(),
  order_id: z.string(),
  day: z.string(),
  executed_at: z.string(),
  symbol: z.string(),
  side: z.enum(SIDES),
  qty: z.number(),
  price: z.number()
});
const AccountView = z.object({
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
    venue: z.string()
  })
});
const PricesView = z.object({
  symbols: z.array(z.string()),
  last_complete_day: z.string(),
  days: z.array(z.object({ day: z.string(), closes: z.record(z.string(), z.number()) })),
  non_trading_days: z.array(z.string())
});
const DAY = 864e5;
const isBuyLike = (s) => s === "buy" || s === "cover";
function computeAgentBooks(o) {
  const r = o.rules;
  const syms = r.universe;
  let cash = r.initial_cash;
  const pos = {};
  for (const s of syms) pos[s] = 0;
  let prev = null;
  const out = [];
  for (const d of o.days) {
    if (d.day < r.first_day) continue;
    let borrow = 0;
    if (prev) {
      const days = (Date.parse(`${d.day}T00:00:00Z`) - Date.parse(`${prev.day}T00:00:00Z`)) / DAY;
      let shortValue = 0;
      for (const s of syms) if (pos[s] < 0) shortValue += -pos[s] * prev.closes[s];
      borrow = shortValue * r.borrow_rate * (days / r.day_count);
    }
    cash -= borrow;
    const fills = o.executions.filter((f) => f.day === d.day).sort((a, b) => a.fill_id < b.fill_id ? -1 : 1);
    let commission = 0;
    let slippage = 0;
    for (const f of fills) {
      const notional = f.price * f.qty;
      const c = notional * (r.commission_bps / 1e4);
      const sl = notional * (r.slippage_bps / 1e4);
      commission += c;
      slippage += sl;
      cash = isBuyLike(f.side) ? cash - (notional + c + sl) : cash + (notional - c - sl);
      pos[f.symbol] = pos[f.symbol] + (isBuyLike(f.side) ? f.qty : -f.qty);
    }
    let marketValue = 0;
    for (const s of syms) marketValue += pos[s] * d.closes[s];
    const equity = cash + marketValue;
    const weights = {};
    for (const s of syms) weights[s] = equity === 0 ? 0 : pos[s] * d.closes[s] / equity;
    out.push({
      day: d.day,
      book: {
        cash,
        shares: { ...pos },
        costs: { commission, slippage, borrow },
        equity,
        nav: equity / r.initial_cash,
        weights,
        fills: fills.map((f) => ({ fill_id: f.fill_id, symbol: f.symbol, side: f.side, qty: f.qty, price: f.price }))
      }
    });
    prev = d;
  }
  return out;
}
function legsToTarget(symbol, cur, target) {
  if (target === cur) return [];
  const leg = (side, qty) => ({ symbol, side, qty });
  if (cur >= 0 && target >= 0) return [target > cur ? leg("buy", target - cur) : leg("sell", cur - target)];
  if (cur <= 0 && target <= 0) return [target < cur ? leg("short", cur - target) : leg("cover", target - cur)];
  if (cur > 0) return [leg("sell", cur), leg("short", -target)];
  return [leg("cover", -cur), leg("buy", target)];
}
export {
  AccountView,
  PricesView,
  PublicFill,
  computeAgentBooks,
  legsToTarget
};
//# sourceMappingURL=agent-books.js.map
