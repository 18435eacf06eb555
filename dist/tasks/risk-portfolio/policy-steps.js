import { DAY_MS, isoDay, startOfUtcDay } from "../../kernel/day.js";
import { AccountView, computeAgentBooks, legsToTarget, PricesView } from "./agent-books.js";
import { dayStart } from "./book-schema.js";
import {
  GET_ACCOUNT_TOOL,
  GET_PRICES_TOOL,
  SUBMIT_BOOKS_TOOL,
  SUBMIT_ORDERS_TOOL,
  VALIDATE_BOOKS_TOOL
} from "./tools.js";
async function driveSteps(api, gen) {
  let r = gen.next();
  while (!r.done) {
    const res = await api.call(r.value.tool, r.value.args);
    r = gen.next(res);
  }
}
const HISTORY_DAYS = 25;
const CHUNK_DAYS = 400;
function* keepBooks() {
  const a = yield { tool: GET_ACCOUNT_TOOL, args: {} };
  if (!a.ok) return null;
  const account = AccountView.parse(a.value);
  const days = [];
  let from = dayStart(account.rules.first_day) - HISTORY_DAYS * DAY_MS;
  for (; ; ) {
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
  const projected = { ...account.shares };
  for (const o of account.pending_orders)
    projected[o.symbol] = (projected[o.symbol] ?? 0) + (o.side === "buy" || o.side === "cover" ? o.qty : -o.qty);
  const last = books[books.length - 1];
  return { account, days, equity: last ? last.book.equity : account.rules.initial_cash, projected };
}
function ordersToTargets(ctx, targets, lastCloses, band) {
  const orders = [];
  for (const s of ctx.account.rules.universe) {
    const cur = ctx.projected[s] ?? 0;
    const tgt = targets[s] ?? 0;
    const crosses = Math.sign(cur) * Math.sign(tgt) < 0;
    if (!crosses && tgt !== 0 && Math.abs(tgt - cur) * lastCloses[s] < band * ctx.equity) continue;
    orders.push(...legsToTarget(s, cur, tgt));
  }
  return orders;
}
function* holdCashSteps() {
  yield* keepBooks();
}
const MOMENTUM = {
  /** momentum lookback (trading days) */
  lookback: 7,
  /** volatility from the last ≤ this many daily returns */
  volWindow: 20,
  minReturns: 5,
  /** target gross exposure as a multiple of equity */
  gross: 1,
  /** skip a rebalance smaller than this share of equity */
  band: 0.02
};
const sd = (xs) => {
  const m = xs.reduce((s, x) => s + x, 0) / xs.length;
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1));
};
function* momentumSteps() {
  const ctx = yield* keepBooks();
  if (!ctx || ctx.days.length === 0) return;
  const syms = ctx.account.rules.universe;
  const series = ctx.days;
  const last = series[series.length - 1];
  if (series.length < MOMENTUM.lookback + 1 || series.length - 1 < MOMENTUM.minReturns) return;
  const raw = {};
  for (const s of syms) {
    const c = series.map((d) => d.closes[s]);
    const m = c.length - 1;
    const rets = [];
    for (let i = Math.max(1, m - MOMENTUM.volWindow + 1); i <= m; i++)
      rets.push(c[i] / c[i - 1] - 1);
    const vol = sd(rets);
    const mom = c[m] / c[m - MOMENTUM.lookback] - 1;
    raw[s] = vol > 0 && mom !== 0 ? Math.sign(mom) / vol : 0;
  }
  const norm = syms.reduce((a, s) => a + Math.abs(raw[s]), 0);
  const targets = {};
  for (const s of syms) {
    const w = norm > 0 ? raw[s] / norm * MOMENTUM.gross : 0;
    targets[s] = Math.trunc(w * ctx.equity / last.closes[s]);
  }
  const orders = ordersToTargets(ctx, targets, last.closes, MOMENTUM.band);
  if (orders.length) yield { tool: SUBMIT_ORDERS_TOOL, args: { orders } };
}
const ORACLE_GROSS = 1.9;
function* oracleSteps(now, closeOf) {
  const ctx = yield* keepBooks();
  if (!ctx || ctx.days.length === 0) return;
  const syms = ctx.account.rules.universe;
  const last = ctx.days[ctx.days.length - 1];
  const today = startOfUtcDay(now);
  const c0 = closeOf(today);
  let c1 = null;
  for (let d = today + DAY_MS, i = 0; c0 && !c1 && i < 10; d += DAY_MS, i++) c1 = closeOf(d);
  const targets = {};
  for (const s of syms) {
    const dir = c0 && c1 ? Math.sign(c1[s] - c0[s]) : 0;
    targets[s] = Math.trunc(dir * ORACLE_GROSS / syms.length * (ctx.equity / last.closes[s]));
  }
  const orders = ordersToTargets(ctx, targets, last.closes, 0);
  if (orders.length) yield { tool: SUBMIT_ORDERS_TOOL, args: { orders } };
}
export {
  HISTORY_DAYS,
  MOMENTUM,
  ORACLE_GROSS,
  driveSteps,
  holdCashSteps,
  keepBooks,
  momentumSteps,
  oracleSteps,
  ordersToTargets
};
//# sourceMappingURL=policy-steps.js.map
