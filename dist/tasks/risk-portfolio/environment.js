import { DAY_MS, HOUR_MS, isoDay, startOfUtcDay } from "../../kernel/day.js";
import {
  legError,
  orderId,
  rebuildBooks,
  sideSign
} from "./book-engine.js";
import { dayStart } from "./book-schema.js";
import { resolveUniverse, ViewCloses } from "./daily-closes.js";
import { reconcileBooks } from "./reconcile.js";
const rulesOf = (p) => ({
  initial_cash: p.initial_cash,
  commission_bps: p.commission_bps,
  slippage_bps: p.slippage_bps,
  borrow_rate: p.borrow_rate,
  day_count: p.day_count
});
const LATEST_LOOKBACK_DAYS = 31;
class RiskPortfolioEnv {
  constructor(o) {
    this.o = o;
    this.params = o.params;
    this.rules = rulesOf(o.params);
    this.universe = resolveUniverse(o.world.db, o.params, o.sim_start);
    this.closes = new ViewCloses(o.view, this.universe);
    this.startDay = startOfUtcDay(o.sim_start);
  }
  o;
  params;
  rules;
  universe;
  closes;
  startDay;
  orders = [];
  filings = /* @__PURE__ */ new Map();
  cached = null;
  now() {
    return this.o.view.now();
  }
  /** the account rebuilt from the closes known now */
  account() {
    const now = this.now();
    const key = `${now}|${this.orders.length}`;
    if (this.cached?.key === key) return this.cached.value;
    const until = Math.min(now, this.o.sim_end);
    const lastDay = startOfUtcDay(until) - DAY_MS;
    const value = rebuildBooks({
      closes: this.closes.range(this.startDay, lastDay),
      orders: this.orders,
      symbols: this.universe.symbols,
      rules: this.rules,
      startDay: this.startDay,
      until
    });
    this.cached = { key, value };
    return value;
  }
  lastBook() {
    const d = this.account().days;
    return d.length ? d[d.length - 1] : null;
  }
  executions() {
    return this.account().days.flatMap((d) => d.fills);
  }
  filingWindow(day) {
    const open = dayStart(day) + DAY_MS;
    return { open, deadline: open + this.params.filing_window_hours * HOUR_MS };
  }
  filedDays() {
    return [...this.filings.keys()].sort();
  }
  /** the filed books by day, with the instant each was filed */
  filed() {
    return this.filedDays().map((day) => ({ day, t: this.filings.get(day).t }));
  }
  /** books whose filing window is open now and that are not filed yet */
  booksDue() {
    const now = this.now();
    return this.account().days.map((d) => d.date).filter((d) => !this.filings.has(d) && now < this.filingWindow(d).deadline).map((d) => ({ day: d, deadline: this.filingWindow(d).deadline }));
  }
  /** Accepts a batch of orders (all or nothing). Returns the accepted orders or the reason for refusing the batch. */
  submitOrders(batch) {
    const u = this.universe;
    for (const [k, o] of batch.entries())
      if (!u.symbols.includes(o.symbol))
        return {
          ok: false,
          error: `order ${k + 1}: unknown symbol "${o.symbol}"; the universe is ${u.symbols.join(", ")}. Nothing was accepted.`
        };
    const acc = this.account();
    const pos = {
      ...this.lastBook()?.shares ?? Object.fromEntries(u.symbols.map((s) => [s, 0]))
    };
    for (const o of acc.pending) pos[o.symbol] = pos[o.symbol] + sideSign(o.side) * o.qty;
    const before = { ...pos };
    for (const [k, o] of batch.entries()) {
      const why = legError(o.symbol, pos[o.symbol], o.side, o.qty);
      if (why)
        return {
          ok: false,
          error: `order ${k + 1}: ${why} (positions include your pending orders). Nothing was accepted.`
        };
      pos[o.symbol] = pos[o.symbol] + sideSign(o.side) * o.qty;
    }
    const latest = this.closes.latest(LATEST_LOOKBACK_DAYS);
    if (!latest)
      return { ok: false, error: "no daily close is known yet: orders cannot be checked. Nothing was accepted." };
    const gross = (p) => u.symbols.reduce((s, sym) => s + Math.abs(p[sym]) * latest.prices[sym], 0);
    const costBps = this.params.commission_bps + this.params.slippage_bps;
    const traded = [...acc.pending, ...batch].reduce((s, o) => s + o.qty * latest.prices[o.symbol], 0);
    const last = this.lastBook();
    const equity = (last ? last.equity : this.params.initial_cash) - traded * costBps / 1e4;
    const gAfter = gross(pos);
    const cap = this.params.max_gross_leverage;
    if (gAfter > gross(before) && gAfter > cap * equity)
      return {
        ok: false,
        error: `gross exposure after this batch would be ${gAfter.toFixed(2)} at the ${isoDay(latest.day)} closes, above ${cap} \xD7 the estimated equity ${equity.toFixed(2)} (the pre-trade leverage cap). Nothing was accepted.`
      };
    const t = this.now();
    const accepted = batch.map((o) => {
      const n = this.orders.length + 1;
      const order = { ...o, n, order_id: orderId(n), t };
      this.orders.push(order);
      return order;
    });
    return { ok: true, orders: accepted };
  }
  /** Files a book; refuses (free, with a reason) days that cannot be filed now. */
  submitBook(f) {
    const now = this.now();
    const d = dayStart(f.day);
    if (d < this.startDay)
      return { ok: false, error: `${f.day} is before the account opened (its first day is ${isoDay(this.startDay)})` };
    const { open, deadline } = this.filingWindow(f.day);
    if (now < open)
      return {
        ok: false,
        error: `the close of ${f.day} is not known yet: its book can be filed from ${new Date(open).toISOString()}`
      };
    if (this.closes.get(d) === null)
      return { ok: false, error: `${f.day} has no close (a non-trading day): no book is due for it` };
    if (now >= deadline)
      return {
        ok: false,
        error: `the filing window of ${f.day} closed at ${new Date(deadline).toISOString()}`
      };
    const prior = this.filings.get(f.day);
    if (prior)
      return {
        ok: false,
        error: `${f.day} is already filed (at ${new Date(prior.t).toISOString()}); filed books are final`
      };
    this.filings.set(f.day, { t: now, book: f.book });
    return { ok: true, filed_at: now };
  }
  /** checks books against the accounting rules, the closes known now and the public executions */
  validate(books) {
    const acc = this.account();
    return reconcileBooks({
      rebuilt: acc.days,
      fillsById: new Map(acc.days.flatMap((d) => d.fills).map((f) => [f.fill_id, f])),
      symbols: this.universe.symbols,
      initialCash: this.params.initial_cash,
      tol: { cash: this.params.tol_cash, ratio: this.params.tol_ratio },
      filings: books.map((b) => ({ day: b.day, book: b.book })),
      required: []
    });
  }
}
export {
  RiskPortfolioEnv,
  rulesOf
};
//# sourceMappingURL=environment.js.map
