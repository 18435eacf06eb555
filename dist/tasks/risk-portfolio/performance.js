import { kupiecPof, normalCdf, quantile7 } from "./stats.js";
const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
function dailyReturns(days, initialCash) {
  let prev = initialCash;
  return days.map((d) => {
    const r = prev <= 0 ? -1 : d.equity / prev - 1;
    prev = d.equity;
    return r;
  });
}
function probabilisticSharpe(r) {
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
  const denom = 1 - skew * sr + (kurt - 1) / 4 * sr * sr;
  const z = sr * Math.sqrt(n - 1) / Math.sqrt(Math.max(denom, Number.MIN_VALUE));
  return { sr, sd, psr: normalCdf(z) };
}
function maxDrawdown(navs) {
  let peak = 1;
  let mdd = 0;
  for (const v of navs) {
    if (v > peak) peak = v;
    const dd = peak > 0 ? 1 - v / peak : 0;
    if (dd > mdd) mdd = dd;
  }
  return mdd;
}
function varBacktest(days, closes, symbols, p) {
  const idx = new Map(closes.map((c, i) => [c.day, i]));
  let tested = 0;
  let exceed = 0;
  let varSum = 0;
  for (let k = 0; k + 1 < days.length; k++) {
    const d = days[k];
    const nextDay = days[k + 1];
    if (!(d.equity > 0) || symbols.every((s) => d.shares[s] === 0)) continue;
    const j = idx.get(d.day);
    if (j === void 0) continue;
    const first = Math.max(1, j - p.var_window_days + 1);
    if (j - first + 1 < p.var_min_obs) continue;
    const sample = [];
    for (let s = first; s <= j; s++) {
      const a = closes[s - 1];
      const b = closes[s];
      let x = 0;
      for (const sym of symbols)
        x += d.weights[sym] * (b.prices[sym] / a.prices[sym] - 1);
      sample.push(x);
    }
    const v = -quantile7(sample, 1 - p.var_level);
    let h = 0;
    for (const sym of symbols)
      h += d.shares[sym] * (nextDay.prices[sym] - d.prices[sym]);
    h /= d.equity;
    tested++;
    varSum += v;
    if (h < -v) exceed++;
  }
  return { level: p.var_level, days_tested: tested, exceedances: exceed, mean_var: tested ? varSum / tested : 0 };
}
function performanceOf(days, closes, symbols, params) {
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
  let v = null;
  if (vb.days_tested > 0) {
    const k = kupiecPof(vb.exceedances, vb.days_tested, 1 - params.var_level);
    v = { ...vb, kupiec_lr: k.lr, kupiec_p: k.p_value, pass: k.p_value >= params.kupiec_alpha };
  }
  const sum = (f) => days.reduce((s, d) => s + f(d), 0);
  const commission = sum((d) => d.costs.commission);
  const slippage = sum((d) => d.costs.slippage);
  const borrow = sum((d) => d.costs.borrow);
  const costs = commission + slippage + borrow;
  const pnlLong = sum((d) => d.pnl_long);
  const pnlShort = sum((d) => d.pnl_short);
  const last = days[days.length - 1];
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
    performance_score: psr * Math.max(0, 1 - mdd) * (v && !v.pass ? params.var_fail_factor : 1)
  };
}
export {
  dailyReturns,
  maxDrawdown,
  performanceOf,
  probabilisticSharpe,
  varBacktest
};
//# sourceMappingURL=performance.js.map
