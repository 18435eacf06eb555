import { z } from "zod";
import { DAY_MS, isoDay, isoInstant, startOfUtcDay } from "../../common/time.js";
import { defineTool, ok, reject, type ToolDef } from "../../tools/tool.js";
import { type Fill, SIDES } from "./book-engine.js";
import { BookFiling, DayString, dayStart } from "./book-schema.js";
import type { RiskPortfolioEnv } from "./environment.js";

export const GET_PRICES_TOOL = "get_prices";
export const GET_ACCOUNT_TOOL = "get_account";
export const SUBMIT_ORDERS_TOOL = "submit_orders";
export const SUBMIT_BOOKS_TOOL = "submit_books";
export const VALIDATE_BOOKS_TOOL = "validate_books";

export const OrderArgs = z
  .object({
    symbol: z.string().describe("one of the portfolio's symbols"),
    side: z.enum(SIDES).describe("buy or sell (a long), short or cover (a short)"),
    qty: z.number().int().positive().describe("integer number of shares (units), > 0"),
  })
  .strict();

export const SubmitOrdersArgs = (max: number) =>
  z
    .object({
      orders: z
        .array(OrderArgs)
        .min(1)
        .max(max)
        .describe(`1 to ${max} orders, executed at today's close in this order (all or nothing)`),
    })
    .strict();
export const SubmitBooksArgs = BookFiling;

/** a public execution as get_account shows it (costs are the agent's to compute) */
export function publicFill(f: Fill) {
  return {
    fill_id: f.fill_id,
    order_id: f.order_id,
    day: f.day,
    executed_at: isoInstant(f.executed_at),
    symbol: f.symbol,
    side: f.side,
    qty: f.qty,
    price: f.price,
  };
}

/**
 * The agent tools of risk-portfolio: `get_prices` (daily closes of completed days), `get_account`
 * (cash, shares, public executions, pending orders, filed and due books), `submit_orders`
 * (executed at the close, commit), `submit_books` (one book per trading day, commit) and
 * `validate_books` (checks books against the rules and the public executions). All free.
 */
export function riskPortfolioTools(env: RiskPortfolioEnv): ToolDef[] {
  const p = env.params;
  const u = env.universe;

  const getPrices = defineTool({
    name: GET_PRICES_TOOL,
    description:
      `Free. Daily closes of ${u.symbols.join(", ")} (${u.venue}) for completed UTC days in [from, to] (YYYY-MM-DD, ` +
      `inclusive; default: the last 30 days). Day D closes at D+1 00:00 UTC and is visible from then on; \`to\` is ` +
      `capped to the last completed day. Days without a close for every symbol are non-trading days (listed apart). ` +
      `At most ${p.max_price_days} days per call.`,
    args: z
      .object({
        from: DayString.optional().describe("first day (YYYY-MM-DD; default: 29 days before `to`)"),
        to: DayString.optional().describe("last day (YYYY-MM-DD; default and cap: the last completed day)"),
      })
      .strict(),
    kind: "data",
    run: (a) => {
      const lastComplete = startOfUtcDay(env.now()) - DAY_MS;
      const wantTo = a.to ? dayStart(a.to) : lastComplete;
      const to = Math.min(wantTo, lastComplete);
      const from = a.from ? dayStart(a.from) : to - 29 * DAY_MS;
      if ((to - from) / DAY_MS + 1 > p.max_price_days)
        return reject(`range ${isoDay(from)} → ${isoDay(to)} is longer than ${p.max_price_days} days`);
      const days: { day: string; close_time: string; closes: Record<string, number> }[] = [];
      const nonTrading: string[] = [];
      for (let d = from; d <= to; d += DAY_MS) {
        const c = env.closes.get(d);
        if (c === undefined) break;
        if (c === null) nonTrading.push(isoDay(d));
        else days.push({ day: isoDay(d), close_time: isoInstant(c.close_time), closes: c.prices });
      }
      return ok({
        venue: u.venue,
        symbols: u.symbols,
        last_complete_day: isoDay(lastComplete),
        ...(wantTo > to ? { capped_to: isoDay(to) } : {}),
        days,
        non_trading_days: nonTrading,
      });
    },
  });

  const getAccount = defineTool({
    name: GET_ACCOUNT_TOOL,
    description:
      "Free. Your account after the last close: cash, shares, every execution so far (fill_id, order_id, day, " +
      "symbol, side, qty, price: commissions, slippage and borrow are yours to compute), pending orders, the days " +
      "you filed and the books due now (with their deadlines), and the accounting rules. `since_day` keeps only " +
      "executions of that day or later.",
    args: z
      .object({ since_day: DayString.optional().describe("list only executions from this day on (YYYY-MM-DD)") })
      .strict(),
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
        executions: acc.days
          .flatMap((d) => d.fills)
          .filter((f) => f.day >= since)
          .map(publicFill),
        pending_orders: acc.pending.map((o) => ({
          order_id: o.order_id,
          submitted_at: isoInstant(o.t),
          symbol: o.symbol,
          side: o.side,
          qty: o.qty,
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
          venue: u.venue,
        },
      });
    },
  });

  const submitOrders = defineTool({
    name: SUBMIT_ORDERS_TOOL,
    description:
      "Free. Submit orders [{symbol, side: buy|sell|short|cover, qty (integer > 0)}], all or nothing. Orders " +
      "submitted during UTC day D execute at D's close (known at D+1 00:00 UTC), or at the next trading day's close " +
      "if D has none, in submission order. buy opens/increases a long, sell reduces it (at most the long), short " +
      "opens/increases a short, cover reduces it (at most the short): crossing zero takes two ordered legs (sell then " +
      `short; cover then buy). A batch that would raise gross exposure above ${p.max_gross_leverage} × equity (at the ` +
      "last close) is refused.",
    args: SubmitOrdersArgs(p.max_orders_per_call),
    kind: "commit",
    run: (a) => {
      const r = env.submitOrders(a.orders);
      if (!r.ok) return reject(r.error);
      const today = startOfUtcDay(env.now());
      return ok({
        accepted: r.orders.map((o) => ({ order_id: o.order_id, symbol: o.symbol, side: o.side, qty: o.qty })),
        executes_at_close_of: isoDay(today),
        close_time: isoInstant(today + DAY_MS),
      });
    },
  });

  const submitBooks = defineTool({
    name: SUBMIT_BOOKS_TOOL,
    description:
      "Free. File your book for trading day `day` (YYYY-MM-DD), the state after that day's close: {cash, shares " +
      "{symbol: integer}, costs {commission, slippage, borrow} (that close's), equity, nav, weights {symbol: " +
      "signed}, fills [{fill_id, symbol, side, qty, price}] (that close's executions, in execution order)}. " +
      `One filing per day, final, accepted from the day's close for ${p.filing_window_hours} hours. The filing is ` +
      "not checked here: use validate_books first.",
    args: SubmitBooksArgs,
    kind: "commit",
    run: (a) => {
      const r = env.submitBook(a);
      if (!r.ok) return reject(r.error);
      return ok({ accepted: true, day: a.day, filed_at: isoInstant(r.filed_at) });
    },
  });

  const validateBooks = defineTool({
    name: VALIDATE_BOOKS_TOOL,
    description:
      `Free. Check up to ${p.max_validate_books} books [{day, book}] (the submit_books format) against the ` +
      "accounting rules, the known closes and your public executions, exactly as they will be reconciled: " +
      "returns {valid, errors [{day, code, field, message}]}. A day's inventory transition is checked from the " +
      "previous day's book in the same call, else from the account's previous positions. Files nothing.",
    args: z
      .object({
        books: z
          .array(BookFiling)
          .min(1)
          .max(p.max_validate_books)
          .describe(`1 to ${p.max_validate_books} books [{day, book}], in the submit_books format`),
      })
      .strict(),
    kind: "meta",
    run: (a) => {
      const errors = env.validate(a.books);
      return ok({ valid: errors.length === 0, checked: a.books.length, errors });
    },
  });

  return [getPrices, getAccount, submitOrders, submitBooks, validateBooks];
}
