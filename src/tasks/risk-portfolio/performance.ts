import type { BookDay } from "./book-engine.js";
import type { CloseDay } from "./daily-closes.js";
import type { RiskPortfolioParams } from "./params.js";
import { kupiecPof, normalCdf, quantile7 } from "./stats.js";

/**
 * Performance of the REBUILT book (never of filed numbers). Definitions (README "Score"):
 * - daily return r_k = equity_k / equity_{k−1} − 1 over the account's trading days, equity_{−1} =
 *   initial cash (r_k = −1 once equity_{k−1} ≤ 0);
 * - volatility = sample sd(r) · √A, Sharpe = mean(r) / sd(r) · √A (A = 365, risk-free 0; 0 when
 *   sd = 0 or fewer than 2 returns);
 * - PSR = Φ(SR · √(n − 1) / √(1 − γ3 · SR + (γ4 − 1) / 4 · SR²)) with SR the daily Sharpe and γ3, γ4
 *   the returns' skewness and (non-excess) kurtosis — the probabilistic Sharpe ratio against 0
 *   (Bailey & López de Prado, 2012); 0.5 when SR = 0;
 * - max drawdown over the NAV path starting at 1; turnover = Σ fill notional / mean equity;
 * - VaR: after each close with a non-zero position, the 95% one-day historical VaR of the held
 *   positions = −q₀.₀₅ (type-7 quantile) of Σ_i w_i ρ_i,s over the last ≤ 60 daily asset returns
 *   (≥ 10 needed; pre-window history counts); it is exceeded when the next close's hypothetical
 *   return (same positions, no trades or costs) Σ_i shares_i Δclose_i / equity < −VaR. Kupiec POF
 *   on (exceedances, tested days) with p = 0.05; pass when its p-value ≥ 0.05;
 * - performance_score = PSR × max(0, 1 − max drawdown) × (var_fail_factor when Kupiec rejects, else 1).
 */
export interface VarBacktest {
  level: number;
  days_tested: number;
  exceedances: number;
  mean_var: number;
  kupiec_lr: number;
  kupiec_p: number;
  pass: boolean;
}

export interface Performance {
  days: number;
  final_nav: number;
  net_return: number;
  volatility_ann: number | null;
  sharpe_ann: number | null;
  psr: number;
  max_drawdown: number;
  turnover: number | null;
  var: VarBacktest | null;
  commission: number;
  slippage: number;
  borrow: number;
  costs_total: number;
  pnl_long: number;
  pnl_short: number;
  return_long: number;
  return_short: number;
  return_costs: number;
  fills: number;
  traded_notional: number;
  performance_score: number;
}

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

export function dailyReturns(days: readonly BookDay[], initialCash: number): number[] {
  let prev = initialCash;
  return days.map((d) => {
    const r = prev <= 0 ? -1 : d.equity / prev - 1;
    prev = d.equity;
    return r;
  });
}

/** probabilistic Sharpe ratio against 0 and the daily Sharpe it is based on */
export function probabilisticSharpe(r: readonly number[]): { sr: number; sd: number; psr: number } {
  const n = r.length;
  if (n < 2) return { sr: 0, sd: 0, psr: 0.5 };
  const m = mean(r);
  const dev = r.map((x) => x - m);
  const ss = dev.reduce((s, x) => s + x * x, 0);
  const sd = Math.sqrt(ss / (n - 1));
  if (!(sd > 0)) return { sr: 0, sd: 0, psr: 0.5 };
  const sr = m / sd;
  const m2 = ss / n;
  const skew = dev.reduce((s, x) => s + x ** 3, 0) / n / m2 ** 1.5;
  const kurt = dev.reduce((s, x) => s + x ** 4, 0) / n / (m2 * m2);
  const denom = 1 - skew * sr + ((kurt - 1) / 4) * sr * sr;
  const z = (sr * Math.sqrt(n - 1)) / Math.sqrt(Math.max(denom, Number.MIN_VALUE));
  return { sr, sd, psr: normalCdf(z) };
}

export function maxDrawdown(navs: readonly number[]): number {
  let peak = 1;
  let mdd = 0;
  for (const v of navs) {
    if (v > peak) peak = v;
    const dd = peak > 0 ? 1 - v / peak : 0;
    if (dd > mdd) mdd = dd;
  }
  return mdd;
}

/** the VaR backtest of the rebuilt book against the closes (history included) */
export function varBacktest(
  days: readonly BookDay[],
  closes: readonly CloseDay[],
  symbols: readonly string[],
  p: Pick<RiskPortfolioParams, "var_level" | "var_window_days" | "var_min_obs">,
): Omit<VarBacktest, "kupiec_lr" | "kupiec_p" | "pass"> {
  const idx = new Map(closes.map((c, i) => [c.day, i]));
  let tested = 0;
  let exceed = 0;
  let varSum = 0;
  for (let k = 0; k + 1 < days.length; k++) {
    const d = days[k] as BookDay;
    const nextDay = days[k + 1] as BookDay;
    if (!(d.equity > 0) || symbols.every((s) => d.shares[s] === 0)) continue;
    const j = idx.get(d.day);
    if (j === undefined) continue;
    const first = Math.max(1, j - p.var_window_days + 1);
    if (j - first + 1 < p.var_min_obs) continue;
    const sample: number[] = [];
    for (let s = first; s <= j; s++) {
      const a = closes[s - 1] as CloseDay;
      const b = closes[s] as CloseDay;
      let x = 0;
      for (const sym of symbols)
        x += (d.weights[sym] as number) * ((b.prices[sym] as number) / (a.prices[sym] as number) - 1);
      sample.push(x);
    }
    const v = -quantile7(sample, 1 - p.var_level);
    let h = 0;
    for (const sym of symbols)
      h += (d.shares[sym] as number) * ((nextDay.prices[sym] as number) - (d.prices[sym] as number));
    h /= d.equity;
    tested++;
    varSum += v;
    if (h < -v) exceed++;
  }
  return { level: p.var_level, days_tested: tested, exceedances: exceed, mean_var: tested ? varSum / tested : 0 };
}

export function performanceOf(
  days: readonly BookDay[],
  closes: readonly CloseDay[],
  symbols: readonly string[],
  params: RiskPortfolioParams,
): Performance | null {
  if (days.length === 0) return null;
  const init = params.initial_cash;
  const r = dailyReturns(days, init);
  const { sr, sd, psr } = probabilisticSharpe(r);
  const A = Math.sqrt(params.annualization_days);
  const mdd = maxDrawdown(days.map((d) => d.nav));
  const fills = days.flatMap((d) => d.fills);
  const traded = fills.reduce((s, f) => s + f.notional, 0);
  const meanEquity = mean(days.map((d) => d.equity));
  const vb = varBacktest(days, closes, symbols, params);
  let v: VarBacktest | null = null;
  if (vb.days_tested > 0) {
    const k = kupiecPof(vb.exceedances, vb.days_tested, 1 - params.var_level);
    v = { ...vb, kupiec_lr: k.lr, kupiec_p: k.p_value, pass: k.p_value >= params.kupiec_alpha };
  }
  const sum = (f: (d: BookDay) => number) => days.reduce((s, d) => s + f(d), 0);
  const commission = sum((d) => d.costs.commission);
  const slippage = sum((d) => d.costs.slippage);
  const borrow = sum((d) => d.costs.borrow);
  const costs = commission + slippage + borrow;
  const pnlLong = sum((d) => d.pnl_long);
  const pnlShort = sum((d) => d.pnl_short);
  const last = days[days.length - 1] as BookDay;
  return {
    days: days.length,
    final_nav: last.nav,
    net_return: last.nav - 1,
    volatility_ann: r.length >= 2 ? sd * A : null,
    sharpe_ann: r.length >= 2 ? sr * A : null,
    psr,
    max_drawdown: mdd,
    turnover: meanEquity > 0 ? traded / meanEquity : null,
    var: v,
    commission,
    slippage,
    borrow,
    costs_total: costs,
    pnl_long: pnlLong,
    pnl_short: pnlShort,
    return_long: pnlLong / init,
    return_short: pnlShort / init,
    return_costs: -costs / init,
    fills: fills.length,
    traded_notional: traded,
    performance_score: psr * Math.max(0, 1 - mdd) * (v && !v.pass ? params.var_fail_factor : 1),
  };
}
