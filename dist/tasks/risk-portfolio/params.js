import { z } from "zod";
const RiskPortfolioParams = z.object({
  /** the venue whose candles give the daily closes; null = "kraken" when the world has it, else the first venue */
  venue: z.string().min(1).nullable().default(null),
  /** the traded universe; null = every symbol of the venue whose series is visible by sim_start */
  symbols: z.array(z.string().min(1)).min(1).nullable().default(null),
  initial_cash: z.number().positive().default(1e7),
  /** commission per fill, basis points of notional */
  commission_bps: z.number().nonnegative().default(5),
  /** cash slippage per fill, basis points of notional (the fill price stays the close) */
  slippage_bps: z.number().nonnegative().default(1),
  /** annual borrow rate on the previous close's short market value */
  borrow_rate: z.number().nonnegative().default(0.04),
  /** ACT/day_count: borrow accrues over calendar days / day_count */
  day_count: z.number().int().positive().default(365),
  /** pre-trade check: gross exposure after a batch ≤ this × equity (batches that reduce gross always pass) */
  max_gross_leverage: z.number().positive().default(2),
  max_orders_per_call: z.number().int().positive().default(20),
  /** a day's book may be filed from its close for this many hours */
  filing_window_hours: z.number().positive().default(24),
  /** the longest get_prices range in days */
  max_price_days: z.number().int().positive().default(400),
  /** the most books one validate_books call checks */
  max_validate_books: z.number().int().positive().default(60),
  /** reconciliation tolerances: |residual| ≤ tol_cash for cash, equity and costs; ≤ tol_ratio for NAV and weights */
  tol_cash: z.number().nonnegative().default(1e-6),
  tol_ratio: z.number().nonnegative().default(1e-12),
  /** performance: days per year for annualization (crypto trades every calendar day) */
  annualization_days: z.number().positive().default(365),
  /** one-day historical VaR level and its sample: the last ≤ var_window_days daily returns, at least var_min_obs */
  var_level: z.number().gt(0).lt(1).default(0.95),
  var_window_days: z.number().int().positive().default(60),
  var_min_obs: z.number().int().positive().default(10),
  /** Kupiec POF test: the VaR passes when its p-value ≥ kupiec_alpha */
  kupiec_alpha: z.number().gt(0).lt(1).default(0.05),
  /** factor applied to the score when the Kupiec test rejects the VaR */
  var_fail_factor: z.number().min(0).max(1).default(0.5)
}).strict();
export {
  RiskPortfolioParams
};
//# sourceMappingURL=params.js.map
