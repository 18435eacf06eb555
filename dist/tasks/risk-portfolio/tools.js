import { z } from "zod";
import { DAY_MS, isoDay, isoInstant, startOfUtcDay } from "../../kernel/day.js";
import { defineTool, ok, reject } from "../../tools/tool.js";
import { SIDES } from "./book-engine.js";
import { BookFiling, DayString, dayStart } from "./book-schema.js";
const GET_PRICES_TOOL = "get_prices";
const GET_ACCOUNT_TOOL = "get_account";
const SUBMIT_ORDERS_TOOL = "submit_orders";
const SUBMIT_BOOKS_TOOL = "submit_books";
const VALIDATE_BOOKS_TOOL = "validate_books";
const OrderArgs = z.object({
  symbol: z.string(),
  side: z.enum(SIDES),
  qty: z.number().int().positive().describe("integer number of shares (units), > 0")
}).strict();
const SubmitOrdersArgs = (max) => z.object({ orders: z.array(OrderArgs).min(1).max(max) }).strict();
const SubmitBooksArgs = BookFiling;
function publicFill(f) {
  return {
    fill_id: f.fill_id,
    order_id: f.order_id,
    day: f.day,
    executed_at: isoInstant(f.executed_at),
    symbol: f.symbol,
    side: f.side,
    qty: f.qty,
    price: f.price
  };
}
function riskPortfolioTools(env) {
  const p = env.params;
  const u = env.universe;
  const getPrices = defineTool({
    name: GET_PRICES_TOOL,
    description: `Free. Daily closes of ${u.symbols.join(", ")} (${u.venue}) for completed UTC days in [from, to] (YYYY-MM-DD, inclusive; default: the last 30 days). Day D closes at D+1 00:00 UTC and is visible from then on; \`to\` is capped to the last completed day. Days without a close for every symbol are non-trading days (listed apart). At most ${p.max_price_days} days per call.`,
    args: z.object({
      from: DayString.optional(),
      to: DayString.optional()
    }).strict(),
    kind: "data",
    run: (a) => {
      const lastComplete = startOfUtcDay(env.now()) - DAY_MS;
      const wantTo = a.to ? dayStart(a.to) : lastComplete;
      const to = Math.min(wantTo, lastComplete);
      const from = a.from ? dayStart(a.from) : to - 29 * DAY_MS;
      if ((to - from) / DAY_MS + 1 > p.max_price_days)
        return reject(`range ${isoDay(from)} \u2192 ${isoDay(to)} is longer than ${p.max_price_days} days`);
      const days = [];
      const nonTrading = [];
      for (let d = from; d <= to; d += DAY_MS) {
        const c = env.closes.get(d);
        if (c === void 0) break;
        if (c === null) nonTrading.push(isoDay(d));
        else days.push({ day: isoDay(d), close_time: isoInstant(c.close_time), closes: c.prices });
      }
      return ok({
        venue: u.venue,
        symbols: u.symbols,
        last_complete_day: isoDay(lastComplete),
        ...wantTo > to ? { capped_to: isoDay(to) } : {},
        days,
        non_trading_days: nonTrading
      });
    }
  });
  const getAccount = defineTool({
    name: GET_ACCOUNT_TOOL,
    description: "Free. Your account after the last close: cash, shares, every execution so far (fill_id, order_id, day, symbol, side, qty, price: commissions, slippage and borrow are yours to compute), pending orders, the days you filed and the books due now (with their deadlines), and the accounting rules. `since_day` keeps only executions of that day or later.",
    args: z.object({ since_day: DayString.optional() }).strict(),
    kind: "data",
    run: (a) => {
      const acc = env.account();
      const last = env.lastBook();
      const since = a.since_day ?? "";
      return ok({
        now: isoInstant(env.now()),
        as_of_close: last ? last.date : null,
        cash: last ? last.cash : p.initial_cash,
        shares: last ? last.shares : Object.fromEntries(u.symbols.map((s) => [s, 0])),
        executions: acc.days.flatMap((d) => d.fills).filter((f) => f.day >= since).map(publicFill),
        pending_orders: acc.pending.map((o) => ({
          order_id: o.order_id,
          submitted_at: isoInstant(o.t),
          symbol: o.symbol,
          side: o.side,
          qty: o.qty
        })),
        books_filed: env.filedDays(),
        books_due: env.booksDue().map((b) => ({ day: b.day, deadline: isoInstant(b.deadline) })),
        rules: {
          first_day: isoDay(env.startDay),
          initial_cash: p.initial_cash,
          commission_bps: p.commission_bps,
          slippage_bps: p.slippage_bps,
          borrow_rate: p.borrow_rate,
          day_count: p.day_count,
          max_gross_leverage: p.max_gross_leverage,
          filing_window_hours: p.filing_window_hours,
          tolerance_cash: p.tol_cash,
          tolerance_nav_weights: p.tol_ratio,
          universe: u.symbols,
          venue: u.venue
        }
      });
    }
  });
  const submitOrders = defineTool({
    name: SUBMIT_ORDERS_TOOL,
    description: `Free. Submit orders [{symbol, side: buy|sell|short|cover, qty (integer > 0)}], all or nothing. Orders submitted during UTC day D execute at D's close (known at D+1 00:00 UTC), or at the next trading day's close if D has none, in submission order. buy opens/increases a long, sell reduces it (at most the long), short opens/increases a short, cover reduces it (at most the short): crossing zero takes two ordered legs (sell then short; cover then buy). A batch that would raise gross exposure above ${p.max_gross_leverage} \xD7 equity (at the last close) is refused.`,
    args: SubmitOrdersArgs(p.max_orders_per_call),
    kind: "commit",
    run: (a) => {
      const r = env.submitOrders(a.orders);
      if (!r.ok) return reject(r.error);
      const today = startOfUtcDay(env.now());
      return ok({
        accepted: r.orders.map((o) => ({ order_id: o.order_id, symbol: o.symbol, side: o.side, qty: o.qty })),
        executes_at_close_of: isoDay(today),
        close_time: isoInstant(today + DAY_MS)
      });
    }
  });
  const submitBooks = defineTool({
    name: SUBMIT_BOOKS_TOOL,
    description: `Free. File your book for trading day \`day\` (YYYY-MM-DD), the state after that day's close: {cash, shares {symbol: integer}, costs {commission, slippage, borrow} (that close's), equity, nav, weights {symbol: signed}, fills [{fill_id, symbol, side, qty, price}] (that close's executions, in execution order)}. One filing per day, final, accepted from the day's close for ${p.filing_window_hours} hours. The filing is not checked here: use validate_books first.`,
    args: SubmitBooksArgs,
    kind: "commit",
    run: (a) => {
      const r = env.submitBook(a);
      if (!r.ok) return reject(r.error);
      return ok({ accepted: true, day: a.day, filed_at: isoInstant(r.filed_at) });
    }
  });
  const validateBooks = defineTool({
    name: VALIDATE_BOOKS_TOOL,
    description: `Free. Check up to ${p.max_validate_books} books [{day, book}] (the submit_books format) against the accounting rules, the known closes and your public executions, exactly as they will be reconciled: returns {valid, errors [{day, code, field, message}]}. A day's inventory transition is checked from the previous day's book in the same call, else from the account's previous positions. Files nothing.`,
    args: z.object({ books: z.array(BookFiling).min(1).max(p.max_validate_books) }).strict(),
    kind: "meta",
    run: (a) => {
      const errors = env.validate(a.books);
      return ok({ valid: errors.length === 0, checked: a.books.length, errors });
    }
  });
  return [getPrices, getAccount, submitOrders, submitBooks, validateBooks];
}
export {
  GET_ACCOUNT_TOOL,
  GET_PRICES_TOOL,
  OrderArgs,
  SUBMIT_BOOKS_TOOL,
  SUBMIT_ORDERS_TOOL,
  SubmitBooksArgs,
  SubmitOrdersArgs,
  VALIDATE_BOOKS_TOOL,
  publicFill,
  riskPortfolioTools
};
//# sourceMappingURL=tools.js.map
