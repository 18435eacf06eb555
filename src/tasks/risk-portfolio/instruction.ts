import { isoDay } from "../../common/time.js";
import type { Universe } from "./daily-closes.js";
import type { RiskPortfolioParams } from "./params.js";

export interface InstructionInput {
  params: RiskPortfolioParams;
  universe: Universe;
  sim_start: number;
  sim_end: number;
  budget_usd: number;
}

const money = (x: number) => x.toLocaleString("en-US", { maximumFractionDigits: 2 });

/** The agent's task text, rendered with the run's real universe, rules, window and budget. */
export function renderInstruction(o: InstructionInput): string {
  const p = o.params;
  const u = o.universe;
  const pct = (x: number) => `${Number((x * 100).toFixed(6))}%`;
  return [
    "# Portfolio with full-book grading",
    "",
    `You manage a long/short portfolio of ${u.symbols.join(", ")} (daily closes from ${u.venue}) from ` +
      `${isoDay(o.sim_start)} to ${isoDay(o.sim_end - 1)} (UTC, inclusive). You start with ${money(p.initial_cash)} in ` +
      "cash and no positions. You keep your own books and file one every trading day; before anything else is " +
      "scored, they are reconciled against the account rebuilt from the closes and your executions.",
    "",
    "## Market and orders",
    "- Day D's close is the close of the last candle of UTC day D; it is known at D+1 00:00 UTC (`get_prices`). " +
      "Crypto trades every calendar day; a day without a close for every symbol is a non-trading day (no fills, " +
      "no book).",
    "- `submit_orders` (free): orders submitted during UTC day D execute at D's close, in submission order (at the " +
      "next trading day's close if D has none). The fill price is the close. Quantities are whole units (integers).",
    "- `buy` opens or adds to a long; `sell` reduces a long (at most its size); `short` opens or adds to a short; " +
      "`cover` reduces a short (at most its size). Crossing zero takes two ordered legs — sell then short, or cover " +
      "then buy; a single order that would cross zero is rejected (free, with the reason). Pending orders count: " +
      "legs are checked against your positions after the orders already waiting for the close.",
    `- Pre-trade check: a batch that would raise gross exposure above ${p.max_gross_leverage} × equity (valued at ` +
      "the last known close) is rejected; batches that reduce gross exposure always pass. Batches are all or nothing.",
    `- Costs, per fill, on notional = qty × close: commission ${p.commission_bps} bps and slippage ${p.slippage_bps} bp ` +
      "(a cash charge; the price stays the close). buy and cover pay notional + commission + slippage; sell and " +
      "short receive notional − commission − slippage.",
    `- Borrow: ${pct(p.borrow_rate)} a year, ACT/${p.day_count}. At each close, borrow = ${p.borrow_rate} × (calendar ` +
      `days since the previous close) / ${p.day_count} × the previous close's short market value (Σ over short ` +
      "positions of |shares| × previous close). It is debited from cash before that close's trades. The first " +
      "close has no borrow.",
    "- `get_account` (free) shows cash and shares after the last close, every execution (fill_id, order_id, day, " +
      "side, qty, price), pending orders, the books you filed and the books due now with their deadlines.",
    "",
    "## Your books",
    `- For every trading day D from ${isoDay(o.sim_start)} on, call \`submit_books(day, book)\` after D's close: the ` +
      `filing window is [D+1 00:00 UTC, D+1 00:00 + ${p.filing_window_hours} h). One filing per day; it is final.`,
    "- The book is the state after D's close: `cash`; `shares` {symbol: integer, shorts negative}; `costs` " +
      "{commission, slippage, borrow} charged at that close; `equity` = cash + Σ shares × close; `nav` = equity / " +
      `${money(p.initial_cash)}; \`weights\` {symbol: shares × close / equity} (signed: shorts are negative; 0 when ` +
      "equity is 0); `fills` = that close's executions [{fill_id, symbol, side, qty, price}] in execution order. A " +
      "symbol left out of shares or weights counts as 0.",
    `- Tolerances: |filed − rebuilt| ≤ ${p.tol_cash} for cash, equity and each cost; ≤ ${p.tol_ratio} for nav and ` +
      "weights; shares are integers and must match exactly. Each book must also hold its own identities " +
      "(equity, nav, weights from its own numbers; previous shares plus its fills, one legal leg at a time, give " +
      "its shares).",
    "- Errors that zero the score: a missing or duplicated day, a book for a day without a close, missing, " +
      "understated or duplicated fees or borrow, missing or extra fills, a fill listed twice or on the wrong day, " +
      "tampered shares, cash, equity, nav or weights, non-integer shares, non-finite numbers, unknown symbols, an " +
      "illegal inventory transition.",
    "- `validate_books(books)` (free) checks books [{day, book}] exactly as they will be reconciled, against the " +
      "rules, the known closes and your executions only, and lists every error. It files nothing.",
    "",
    "## Scoring",
    "- Gate: every book whose filing window ends inside the run must be filed and reconcile. Any accounting error " +
      "scores `risk_score` = 0, whatever the performance.",
    "- Otherwise, from the rebuilt book: `risk_score` = PSR × max(0, 1 − max drawdown) × K. PSR is the probabilistic " +
      "Sharpe ratio of the daily returns against 0 (Φ of the daily Sharpe × √(n − 1), adjusted for skewness and " +
      `kurtosis; 0.5 for a flat book). Max drawdown is of the NAV path. K = ${p.var_fail_factor} when a Kupiec test ` +
      `rejects (p < ${p.kupiec_alpha}) the ${pct(p.var_level)} one-day historical VaR of your positions (last ` +
      `${p.var_window_days} daily returns, at least ${p.var_min_obs}), else 1.`,
    "- Also reported: net return, annualized volatility and Sharpe (365 days, risk-free 0), turnover, costs " +
      "(commission, slippage, borrow) and the P&L of long and short positions.",
    `- Your total budget is $${o.budget_usd.toFixed(2)} for everything (model calls included). All task tools are free.`,
  ].join("\n");
}
