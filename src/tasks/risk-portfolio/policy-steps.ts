import { DAY_MS, isoDay, startOfUtcDay } from "../../common/time.js";
import type { ToolResult } from "../../tools/tool.js";
import type { PolicyApi } from "../task.js";
import { AccountView, type CloseRow, computeAgentBooks, legsToTarget, PricesView } from "./agent-books.js";
import type { OrderRequest } from "./book-engine.js";
import { dayStart } from "./book-schema.js";
import {
  GET_ACCOUNT_TOOL,
  GET_PRICES_TOOL,
  SUBMIT_BOOKS_TOOL,
  SUBMIT_ORDERS_TOOL,
  VALIDATE_BOOKS_TOOL,
} from "./tools.js";

/**
 * The reference policies as step generators over the agent tools: each yields `{tool, args}` and
 * receives the tool's result, so the same code drives the scripted agent (`driveSteps`) and the
 * LLM-agent tests (a test server replaying the steps as tool calls).
 */
export interface Step {
  tool: string;
  args: unknown;
}
export type Steps<R = void> = Generator<Step, R, ToolResult>;

/** runs a step generator against a policy API */
export async function driveSteps(api: PolicyApi, gen: Steps<unknown>): Promise<void> {
  let r = gen.next();
  while (!r.done) {
    const res = await api.call(r.value.tool, r.value.args);
    r = gen.next(res);
  }
}

/** days of history the policies read before the account's first day (signals) */
export const HISTORY_DAYS = 25;
/** get_prices is read in chunks of this many days (its default cap is 400) */
const CHUNK_DAYS = 400;

export interface BookContext {
  account: AccountView;
  /** trading days with closes, history included, ascending */
  days: CloseRow[];
  /** equity of the last computed book (initial cash before the first close) */
  equity: number;
  /** shares after the last close plus pending orders */
  projected: Record<string, number>;
}

/**
 * Book-keeping every policy shares: reads the account and the closes, computes its own books
 * (`computeAgentBooks`), checks the due ones with validate_books and files them.
 */
export function* keepBooks(): Steps<BookContext | null> {
  const a = yield { tool: GET_ACCOUNT_TOOL, args: {} };
  if (!a.ok) return null;
  const account = AccountView.parse(a.value);
  const days: CloseRow[] = [];
  let from = dayStart(account.rules.first_day) - HISTORY_DAYS * DAY_MS;
  for (;;) {
    const to = from + (CHUNK_DAYS - 1) * DAY_MS;
    const r = yield { tool: GET_PRICES_TOOL, args: { from: isoDay(from), to: isoDay(to) } };
    if (!r.ok) return null;
    const p = PricesView.parse(r.value);
    days.push(...p.days.map((d) => ({ day: d.day, closes: d.closes })));
    if (dayStart(p.last_complete_day) <= to) break;
    from = to + DAY_MS;
  }
  const books = computeAgentBooks({ days, executions: account.executions, rules: account.rules });
  const due = account.books_due.flatMap((d) => books.filter((b) => b.day === d.day));
  if (due.length > 0) {
    yield { tool: VALIDATE_BOOKS_TOOL, args: { books: due } };
    for (const b of due) yield { tool: SUBMIT_BOOKS_TOOL, args: b };
  }
  const projected: Record<string, number> = { ...account.shares };
  for (const o of account.pending_orders)
    projected[o.symbol] = (projected[o.symbol] ?? 0) + (o.side === "buy" || o.side === "cover" ? o.qty : -o.qty);
  const last = books[books.length - 1];
  return { account, days, equity: last ? last.book.equity : account.rules.initial_cash, projected };
}

/** orders that move the projected positions to the targets (skipping changes below `band` × equity) */
export function ordersToTargets(
  ctx: BookContext,
  targets: Record<string, number>,
  lastCloses: Record<string, number>,
  band: number,
): OrderRequest[] {
  const orders: OrderRequest[] = [];
  for (const s of ctx.account.rules.universe) {
    const cur = ctx.projected[s] ?? 0;
    const tgt = targets[s] ?? 0;
    const crosses = Math.sign(cur) * Math.sign(tgt) < 0;
    if (!crosses && tgt !== 0 && Math.abs(tgt - cur) * (lastCloses[s] as number) < band * ctx.equity) continue;
    orders.push(...legsToTarget(s, cur, tgt));
  }
  return orders;
}

/** hold-cash: keeps correct books and never trades */
export function* holdCashSteps(): Steps {
  yield* keepBooks();
}

export const MOMENTUM = {
  /** momentum lookback (trading days) */
  lookback: 7,
  /** volatility from the last ≤ this many daily returns */
  volWindow: 20,
  minReturns: 5,
  /** target gross exposure as a multiple of equity */
  gross: 1,
  /** skip a rebalance smaller than this share of equity */
  band: 0.02,
} as const;

const sd = (xs: readonly number[]) => {
  const m = xs.reduce((s, x) => s + x, 0) / xs.length;
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1));
};

/**
 * momentum-risk-parity (honest heuristic, agent-visible tools only): keeps its books, then targets
 * signed inverse-volatility weights — long when the 7-day return is positive, short otherwise,
 * |w_i| ∝ 1 / σ_i (σ from the last ≤ 20 daily returns, ≥ 5 needed), Σ|w_i| = 1 — sized on its own
 * last equity at the last close, truncated to whole shares, crossing zero in two legs, skipping
 * changes below 2% of equity.
 */
export function* momentumSteps(): Steps {
  const ctx = yield* keepBooks();
  if (!ctx || ctx.days.length === 0) return;
  const syms = ctx.account.rules.universe;
  const series = ctx.days;
  const last = series[series.length - 1] as CloseRow;
  if (series.length < MOMENTUM.lookback + 1 || series.length - 1 < MOMENTUM.minReturns) return;
  const raw: Record<string, number> = {};
  for (const s of syms) {
    const c = series.map((d) => d.closes[s] as number);
    const m = c.length - 1;
    const rets: number[] = [];
    for (let i = Math.max(1, m - MOMENTUM.volWindow + 1); i <= m; i++)
      rets.push((c[i] as number) / (c[i - 1] as number) - 1);
    const vol = sd(rets);
    const mom = (c[m] as number) / (c[m - MOMENTUM.lookback] as number) - 1;
    raw[s] = vol > 0 && mom !== 0 ? Math.sign(mom) / vol : 0;
  }
  const norm = syms.reduce((a, s) => a + Math.abs(raw[s] as number), 0);
  const targets: Record<string, number> = {};
  for (const s of syms) {
    const w = norm > 0 ? ((raw[s] as number) / norm) * MOMENTUM.gross : 0;
    targets[s] = Math.trunc((w * ctx.equity) / (last.closes[s] as number));
  }
  const orders = ordersToTargets(ctx, targets, last.closes, MOMENTUM.band);
  if (orders.length) yield { tool: SUBMIT_ORDERS_TOOL, args: { orders } };
}

/** the oracle's gross exposure (just under the default 2× cap) */
export const ORACLE_GROSS = 1.9;

/**
 * oracle steps (tests and calibration only): `closeOf(day)` reads closes from the untouched world,
 * including the future. Orders placed today execute at today's close; the oracle holds, equally
 * weighted at 1.9× gross, the sign of each symbol's move from today's close to the next trading
 * day's close.
 */
export function* oracleSteps(now: number, closeOf: (day: number) => Record<string, number> | null): Steps {
  const ctx = yield* keepBooks();
  if (!ctx || ctx.days.length === 0) return;
  const syms = ctx.account.rules.universe;
  const last = ctx.days[ctx.days.length - 1] as CloseRow;
  const today = startOfUtcDay(now);
  const c0 = closeOf(today);
  let c1: Record<string, number> | null = null;
  for (let d = today + DAY_MS, i = 0; c0 && !c1 && i < 10; d += DAY_MS, i++) c1 = closeOf(d);
  const targets: Record<string, number> = {};
  for (const s of syms) {
    const dir = c0 && c1 ? Math.sign((c1[s] as number) - (c0[s] as number)) : 0;
    targets[s] = Math.trunc(((dir * ORACLE_GROSS) / syms.length) * (ctx.equity / (last.closes[s] as number)));
  }
  const orders = ordersToTargets(ctx, targets, last.closes, 0);
  if (orders.length) yield { tool: SUBMIT_ORDERS_TOOL, args: { orders } };
}
