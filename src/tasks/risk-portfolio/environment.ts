import { DAY_MS, HOUR_MS, isoDay, startOfUtcDay } from "../../common/time.js";
import type { AsOfView } from "../../world/as-of-view.js";
import type { WorldStore } from "../../world/world-store.js";
import {
  type BookDay,
  type BookRules,
  type Fill,
  legError,
  type Order,
  type OrderRequest,
  orderId,
  type Rebuilt,
  rebuildBooks,
  sideSign,
} from "./book-engine.js";
import { type BookFiling, dayStart } from "./book-schema.js";
import { resolveUniverse, type Universe, ViewCloses } from "./daily-closes.js";
import type { RiskPortfolioParams } from "./params.js";
import { type AccountingError, reconcileBooks } from "./reconcile.js";

export const rulesOf = (p: RiskPortfolioParams): BookRules => ({
  initial_cash: p.initial_cash,
  commission_bps: p.commission_bps,
  slippage_bps: p.slippage_bps,
  borrow_rate: p.borrow_rate,
  day_count: p.day_count,
});

export interface RiskEnvInput {
  params: RiskPortfolioParams;
  view: AsOfView;
  /** used once, for the universe (series visible by sim_start) */
  world: WorldStore;
  sim_start: number;
  sim_end: number;
}

/** how far back the pre-trade check looks for the latest known close */
const LATEST_LOOKBACK_DAYS = 31;

/**
 * One run's market and account: daily closes through the as-of view, accepted orders, filed books.
 * Executions are never stored: the account is rebuilt from the closes known now and the accepted
 * orders with the same engine the grader uses, so the public executions and the grader's fills are
 * equal by construction. Its state is rebuilt by re-running the episode (resume).
 */
export class RiskPortfolioEnv {
  readonly params: RiskPortfolioParams;
  readonly rules: BookRules;
  readonly universe: Universe;
  readonly closes: ViewCloses;
  readonly startDay: number;
  private readonly orders: Order[] = [];
  private readonly filings = new Map<string, { t: number; book: BookFiling["book"] }>();
  private cached: { key: string; value: Rebuilt } | null = null;

  constructor(private readonly o: RiskEnvInput) {
    this.params = o.params;
    this.rules = rulesOf(o.params);
    this.universe = resolveUniverse(o.world.db, o.params, o.sim_start);
    this.closes = new ViewCloses(o.view, this.universe);
    this.startDay = startOfUtcDay(o.sim_start);
  }

  now(): number {
    return this.o.view.now();
  }

  /** the account rebuilt from the closes known now */
  account(): Rebuilt {
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
      until,
    });
    this.cached = { key, value };
    return value;
  }

  lastBook(): BookDay | null {
    const d = this.account().days;
    return d.length ? (d[d.length - 1] as BookDay) : null;
  }

  executions(): Fill[] {
    return this.account().days.flatMap((d) => d.fills);
  }

  filingWindow(day: string): { open: number; deadline: number } {
    const open = dayStart(day) + DAY_MS;
    return { open, deadline: open + this.params.filing_window_hours * HOUR_MS };
  }

  filedDays(): string[] {
    return [...this.filings.keys()].sort();
  }

  /** the filed books by day, with the instant each was filed */
  filed(): { day: string; t: number }[] {
    return this.filedDays().map((day) => ({ day, t: (this.filings.get(day) as { t: number }).t }));
  }

  /** books whose filing window is open now and that are not filed yet */
  booksDue(): { day: string; deadline: number }[] {
    const now = this.now();
    return this.account()
      .days.map((d) => d.date)
      .filter((d) => !this.filings.has(d) && now < this.filingWindow(d).deadline)
      .map((d) => ({ day: d, deadline: this.filingWindow(d).deadline }));
  }

  /** Accepts a batch of orders (all or nothing). Returns the accepted orders or the reason for refusing the batch. */
  submitOrders(batch: readonly OrderRequest[]): { ok: true; orders: Order[] } | { ok: false; error: string } {
    const u = this.universe;
    for (const [k, o] of batch.entries())
      if (!u.symbols.includes(o.symbol))
        return {
          ok: false,
          error: `order ${k + 1}: unknown symbol "${o.symbol}"; the universe is ${u.symbols.join(", ")}. Nothing was accepted.`,
        };
    const acc = this.account();
    const pos: Record<string, number> = {
      ...(this.lastBook()?.shares ?? Object.fromEntries(u.symbols.map((s) => [s, 0]))),
    };
    for (const o of acc.pending) pos[o.symbol] = (pos[o.symbol] as number) + sideSign(o.side) * o.qty;
    const before = { ...pos };
    for (const [k, o] of batch.entries()) {
      const why = legError(o.symbol, pos[o.symbol] as number, o.side, o.qty);
      if (why)
        return {
          ok: false,
          error: `order ${k + 1}: ${why} (positions include your pending orders). Nothing was accepted.`,
        };
      pos[o.symbol] = (pos[o.symbol] as number) + sideSign(o.side) * o.qty;
    }
    const latest = this.closes.latest(LATEST_LOOKBACK_DAYS);
    if (!latest)
      return { ok: false, error: "no daily close is known yet: orders cannot be checked. Nothing was accepted." };
    const gross = (p: Record<string, number>) =>
      u.symbols.reduce((s, sym) => s + Math.abs(p[sym] as number) * (latest.prices[sym] as number), 0);
    const costBps = this.params.commission_bps + this.params.slippage_bps;
    const traded = [...acc.pending, ...batch].reduce((s, o) => s + o.qty * (latest.prices[o.symbol] as number), 0);
    const last = this.lastBook();
    const equity = (last ? last.equity : this.params.initial_cash) - (traded * costBps) / 10_000;
    const gAfter = gross(pos);
    const cap = this.params.max_gross_leverage;
    if (gAfter > gross(before) && gAfter > cap * equity)
      return {
        ok: false,
        error:
          `gross exposure after this batch would be ${gAfter.toFixed(2)} at the ${isoDay(latest.day)} closes, above ${cap} × ` +
          `the estimated equity ${equity.toFixed(2)} (the pre-trade leverage cap). Nothing was accepted.`,
      };
    const t = this.now();
    const accepted = batch.map((o) => {
      const n = this.orders.length + 1;
      const order: Order = { ...o, n, order_id: orderId(n), t };
      this.orders.push(order);
      return order;
    });
    return { ok: true, orders: accepted };
  }

  /** Files a book; refuses (free, with a reason) days that cannot be filed now. */
  submitBook(f: BookFiling): { ok: true; filed_at: number } | { ok: false; error: string } {
    const now = this.now();
    const d = dayStart(f.day);
    if (d < this.startDay)
      return { ok: false, error: `${f.day} is before the account opened (its first day is ${isoDay(this.startDay)})` };
    const { open, deadline } = this.filingWindow(f.day);
    if (now < open)
      return {
        ok: false,
        error: `the close of ${f.day} is not known yet: its book can be filed from ${new Date(open).toISOString()}`,
      };
    if (this.closes.get(d) === null)
      return { ok: false, error: `${f.day} has no close (a non-trading day): no book is due for it` };
    if (now >= deadline)
      return {
        ok: false,
        error: `the filing window of ${f.day} closed at ${new Date(deadline).toISOString()}`,
      };
    const prior = this.filings.get(f.day);
    if (prior)
      return {
        ok: false,
        error: `${f.day} is already filed (at ${new Date(prior.t).toISOString()}); filed books are final`,
      };
    this.filings.set(f.day, { t: now, book: f.book });
    return { ok: true, filed_at: now };
  }

  /** checks books against the accounting rules, the closes known now and the public executions */
  validate(books: readonly BookFiling[]): AccountingError[] {
    const acc = this.account();
    return reconcileBooks({
      rebuilt: acc.days,
      fillsById: new Map(acc.days.flatMap((d) => d.fills).map((f) => [f.fill_id, f])),
      symbols: this.universe.symbols,
      initialCash: this.params.initial_cash,
      tol: { cash: this.params.tol_cash, ratio: this.params.tol_ratio },
      filings: books.map((b) => ({ day: b.day, book: b.book })),
      required: [],
    });
  }
}
