import { z } from "zod";
import { DAY_MS, HOUR_MS, startOfUtcDay } from "../../common/time.js";
import { type CommitmentEvent, ScorerBase } from "../scorer-base.js";
import type { NotScorable, Outcome, ScoreReport, ScorerContext } from "../task.js";
import { type BookDay, type Order, orderId, type Rebuilt, rebuildBooks } from "./book-engine.js";
import { dayStart } from "./book-schema.js";
import { type CloseDay, resolveUniverse, type Universe, worldCloseDays } from "./daily-closes.js";
import { rulesOf } from "./environment.js";
import { RiskPortfolioParams } from "./params.js";
import { type Performance, performanceOf } from "./performance.js";
import { type AccountingError, type Filing, reconcileBooks } from "./reconcile.js";
import { OrderArgs, SUBMIT_BOOKS_TOOL, SUBMIT_ORDERS_TOOL } from "./tools.js";

export const RISK_PORTFOLIO_SCORER_VERSION = "risk-portfolio-scorer/1";
/** errors listed in the final `portfolio` outcome (the count is always complete) */
const MAX_LISTED_ERRORS = 100;

/** ledger shapes read leniently: a commitment's orders must parse; a filing's book is checked by the reconciler */
const OrdersCommitment = z.object({ orders: z.array(OrderArgs) });
const BooksCommitment = z.object({ day: z.string(), book: z.unknown() });

export type BookStatus = "reconciled" | "mismatch" | "missing";

/** a rebuilt book as outcomes show it */
export function rebuiltView(b: BookDay) {
  return {
    cash: b.cash,
    shares: b.shares,
    costs: b.costs,
    equity: b.equity,
    nav: b.nav,
    weights: b.weights,
    fills: b.fills.map((f) => ({
      fill_id: f.fill_id,
      symbol: f.symbol,
      side: f.side,
      qty: f.qty,
      price: f.price,
      commission: f.commission,
      slippage: f.slippage,
    })),
  };
}

/** one scoring window [sim_start, end): its closes, required book days (with deadlines) and late ones */
interface RiskWindow {
  end: number;
  closes: CloseDay[];
  required: { date: string; deadline: number }[];
  late: NotScorable[];
}

/**
 * risk-portfolio grader (tasks.md §10). It rebuilds the account from the world's daily closes and
 * the ledger's accepted orders only (`submit_orders` commitments, numbered in ledger order exactly
 * as the environment numbers them), reconciles every `submit_books` commitment against it, and
 * only then scores performance of the rebuilt book.
 *
 * Outcomes: one per required book day `book:YYYY-MM-DD` (trading days of the window whose filing
 * deadline — close + filing_window_hours — is ≤ sim_end), settled at that deadline: `reconciled`
 * (credit 1), `mismatch` or `missing` (credit 0), with the day's errors and the rebuilt book. Then
 * `portfolio` at sim_end: `scored` (every book reconciled), `zeroed` (accounting errors: risk_score 0)
 * or `not_scorable` (no required day), credit = risk_score.
 */
export class RiskPortfolioScorer extends ScorerBase {
  protected readonly watchedTools: ReadonlySet<string> = new Set<string>();
  readonly params: RiskPortfolioParams;
  readonly universe: Universe;
  private readonly closes: CloseDay[];
  private readonly startDay: number;
  /** required book days (ascending) with their deadlines */
  private readonly required: { date: string; deadline: number }[];
  private readonly late: NotScorable[];
  private readonly orders: Order[] = [];
  private readonly filings: Filing[] = [];
  private emitted = 0;
  private finalEmitted = false;

  constructor(private readonly ctx: ScorerContext) {
    super();
    this.params = RiskPortfolioParams.parse(ctx.params ?? {});
    this.universe = resolveUniverse(ctx.world.db, this.params, ctx.sim_start);
    this.startDay = startOfUtcDay(ctx.sim_start);
    ({ closes: this.closes, required: this.required, late: this.late } = this.windowOf(ctx.sim_end));
  }

  /** the closes, the required book days and the late ones of the window [sim_start, end) */
  private windowOf(end: number): RiskWindow {
    const closes = worldCloseDays(this.ctx.world.db, this.universe, end);
    const required: RiskWindow["required"] = [];
    const late: NotScorable[] = [];
    for (const c of closes) {
      if (c.day < this.startDay) continue;
      const date = new Date(c.day).toISOString().slice(0, 10);
      const deadline = this.deadline(date);
      if (deadline <= end) required.push({ date, deadline });
      else late.push({ key: `book:${date}`, reason: "settles after window" });
    }
    return { end, closes, required, late };
  }

  /** this scorer's own window */
  private get window(): RiskWindow {
    return { end: this.ctx.sim_end, closes: this.closes, required: this.required, late: this.late };
  }

  private deadline(date: string): number {
    return dayStart(date) + DAY_MS + this.params.filing_window_hours * HOUR_MS;
  }

  protected override onCommitment(e: CommitmentEvent): void {
    if (e.t < this.ctx.sim_start || e.t >= this.ctx.sim_end) return;
    if (e.tool === SUBMIT_ORDERS_TOOL) {
      const a = OrdersCommitment.safeParse(e.args);
      if (!a.success) return;
      for (const o of a.data.orders) {
        const n = this.orders.length + 1;
        this.orders.push({ ...o, n, order_id: orderId(n), t: e.t });
      }
    } else if (e.tool === SUBMIT_BOOKS_TOOL) {
      const a = BooksCommitment.safeParse(e.args);
      if (a.success) this.filings.push({ day: a.data.day, book: a.data.book, t: e.t });
    }
  }

  /** the account rebuilt from the world's closes and the orders seen, through `until` */
  rebuild(until: number, w: RiskWindow = this.window): Rebuilt {
    return rebuildBooks({
      closes: w.closes,
      orders: this.orders,
      symbols: this.universe.symbols,
      rules: rulesOf(this.params),
      startDay: this.startDay,
      until: Math.min(until, w.end),
    });
  }

  private reconcile(acc: Rebuilt, required: readonly string[]): AccountingError[] {
    return reconcileBooks({
      rebuilt: acc.days,
      fillsById: new Map(acc.days.flatMap((d) => d.fills).map((f) => [f.fill_id, f])),
      symbols: this.universe.symbols,
      initialCash: this.params.initial_cash,
      tol: { cash: this.params.tol_cash, ratio: this.params.tol_ratio },
      filings: this.filings,
      required,
      window: (d) => ({ open: dayStart(d) + DAY_MS, deadline: this.deadline(d) }),
    });
  }

  settle(t: number): Outcome[] {
    const out: Outcome[] = [];
    if (this.emitted < this.required.length && (this.required[this.emitted] as { deadline: number }).deadline <= t) {
      const acc = this.rebuild(t);
      const byDate = new Map(acc.days.map((d) => [d.date, d]));
      const due = this.required.filter((r, i) => i >= this.emitted && r.deadline <= t);
      const errors = this.reconcile(
        acc,
        due.map((r) => r.date),
      );
      for (const r of due) {
        const own = errors.filter((x) => x.day === r.date);
        const status: BookStatus = own.some((x) => x.code === "missing_day")
          ? "missing"
          : own.length === 0
            ? "reconciled"
            : "mismatch";
        const filed = this.filings.find((f) => f.day === r.date);
        const book = byDate.get(r.date) as BookDay;
        out.push({
          t: r.deadline,
          key: `book:${r.date}`,
          status,
          credit: status === "reconciled" ? 1 : 0,
          detail: {
            day: r.date,
            ...(filed?.t !== undefined ? { filed_at: new Date(filed.t).toISOString() } : {}),
            errors: own,
            rebuilt: rebuiltView(book),
          },
        });
        this.emitted++;
      }
    }
    if (!this.finalEmitted && t >= this.ctx.sim_end) {
      this.finalEmitted = true;
      const f = this.final();
      out.push({
        t: this.ctx.sim_end,
        key: "portfolio",
        status: f.risk_score === null ? "not_scorable" : f.gate ? "scored" : "zeroed",
        credit: f.risk_score,
        detail: {
          gate: f.gate,
          books_required: this.required.length,
          accounting_errors: f.errors.length,
          errors: f.errors.slice(0, MAX_LISTED_ERRORS),
          ...(f.perf ? { performance: f.perf } : {}),
        },
      });
    }
    return out.sort((a, b) => a.t - b.t || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** the final reconciliation and performance */
  final(w: RiskWindow = this.window): {
    gate: boolean;
    errors: AccountingError[];
    perf: Performance | null;
    risk_score: number | null;
    acc: Rebuilt;
  } {
    const acc = this.rebuild(w.end, w);
    const errors = this.reconcile(
      acc,
      w.required.map((r) => r.date),
    );
    const perf = performanceOf(acc.days, w.closes, this.universe.symbols, this.params);
    const gate = w.required.length > 0 && errors.length === 0 && acc.refused.length === 0;
    const risk_score = w.required.length === 0 || !perf ? null : gate ? perf.performance_score : 0;
    return { gate, errors, perf, risk_score, acc };
  }

  report(): ScoreReport {
    return this.reportOver(this.window);
  }

  /**
   * The report of a fresh scorer with window [sim_start, end): that window's closes and required
   * books, the account rebuilt through `end` from the orders and filings so far (all before `end`).
   */
  reportAt(end: number): ScoreReport {
    return this.reportOver(this.windowOf(end));
  }

  private reportOver(w: RiskWindow): ScoreReport {
    const f = this.final(w);
    const notScorable: NotScorable[] = [];
    if (f.risk_score === null)
      notScorable.push({ key: "risk_score", reason: "no book's filing deadline falls inside the window" });
    if (f.perf && !f.perf.var)
      notScorable.push({
        key: "var_backtest",
        reason: `no day with a non-zero position and at least ${this.params.var_min_obs} daily returns of history`,
      });
    const counts = { reconciled: 0, mismatch: 0, missing: 0 };
    for (const r of w.required) {
      const own = f.errors.filter((x) => x.day === r.date);
      if (own.some((x) => x.code === "missing_day")) counts.missing++;
      else if (own.length === 0) counts.reconciled++;
      else counts.mismatch++;
    }
    const p = f.perf;
    const v = p?.var ?? null;
    return {
      primary: { name: "risk_score", value: f.risk_score, direction: "higher" },
      metrics: {
        risk_score: f.risk_score,
        performance_score: p ? p.performance_score : null,
        books_gate: w.required.length ? (f.gate ? 1 : 0) : null,
        books_required: w.required.length,
        books_reconciled: counts.reconciled,
        books_mismatched: counts.mismatch,
        books_missing: counts.missing,
        accounting_errors: f.errors.length,
        refused_orders: f.acc.refused.length,
        final_nav: p ? p.final_nav : null,
        net_return: p ? p.net_return : null,
        volatility_ann: p ? p.volatility_ann : null,
        sharpe_ann: p ? p.sharpe_ann : null,
        psr: p ? p.psr : null,
        max_drawdown: p ? p.max_drawdown : null,
        turnover: p ? p.turnover : null,
        var_mean: v ? v.mean_var : null,
        var_days_tested: v ? v.days_tested : null,
        var_exceedances: v ? v.exceedances : null,
        kupiec_lr: v ? v.kupiec_lr : null,
        kupiec_p: v ? v.kupiec_p : null,
        kupiec_pass: v ? (v.pass ? 1 : 0) : null,
        commission: p ? p.commission : null,
        slippage: p ? p.slippage : null,
        borrow: p ? p.borrow : null,
        costs_total: p ? p.costs_total : null,
        pnl_long: p ? p.pnl_long : null,
        pnl_short: p ? p.pnl_short : null,
        return_long: p ? p.return_long : null,
        return_short: p ? p.return_short : null,
        return_costs: p ? p.return_costs : null,
        fills: p ? p.fills : null,
        traded_notional: p ? p.traded_notional : null,
      },
      not_scorable: [...notScorable, ...w.late],
    };
  }
}
