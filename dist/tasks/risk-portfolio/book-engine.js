import { DAY_MS, isoDay } from "../../kernel/day.js";
const SIDES = ["buy", "sell", "short", "cover"];
const orderId = (n) => `O-${String(n).padStart(5, "0")}`;
const fillId = (n) => `F-${String(n).padStart(5, "0")}`;
const sideSign = (side) => side === "buy" || side === "cover" ? 1 : -1;
function legError(symbol, position, side, qty) {
  switch (side) {
    case "buy":
      return position < 0 ? `buy ${qty} ${symbol} from a short of ${position} would cross zero: cover ${-position} first, then buy (two ordered legs)` : null;
    case "sell":
      if (position <= 0)
        return `sell ${qty} ${symbol} needs a long position (position ${position}); to go short use side "short"`;
      return qty > position ? `sell ${qty} ${symbol} exceeds the long of ${position} and would cross zero: sell ${position}, then short ${qty - position} (two ordered legs)` : null;
    case "short":
      return position > 0 ? `short ${qty} ${symbol} from a long of ${position} would cross zero: sell ${position} first, then short (two ordered legs)` : null;
    case "cover":
      if (position >= 0)
        return `cover ${qty} ${symbol} needs a short position (position ${position}); to go long use side "buy"`;
      return qty > -position ? `cover ${qty} ${symbol} exceeds the short of ${-position} and would cross zero: cover ${-position}, then buy ${qty + position} (two ordered legs)` : null;
  }
}
function fillCosts(notional, r) {
  return { commission: notional * r.commission_bps / 1e4, slippage: notional * r.slippage_bps / 1e4 };
}
function borrowCost(shortValue, days, r) {
  return r.borrow_rate * days * shortValue / r.day_count;
}
function rebuildBooks(inp) {
  const { rules, symbols } = inp;
  let cash = rules.initial_cash;
  const shares = Object.fromEntries(symbols.map((s) => [s, 0]));
  const days = [];
  const refused = [];
  let prev = null;
  let next = 0;
  for (const c of inp.closes) {
    if (c.day < inp.startDay) continue;
    if (c.close_time > inp.until) break;
    const accrual = prev ? Math.round((c.day - prev.day) / DAY_MS) : 0;
    let shortPrev = 0;
    let pnlLong = 0;
    let pnlShort = 0;
    if (prev) {
      for (const s of symbols) {
        const q = shares[s];
        const dp = c.prices[s] - prev.prices[s];
        if (q < 0) {
          shortPrev += -q * prev.prices[s];
          pnlShort += q * dp;
        } else if (q > 0) pnlLong += q * dp;
      }
    }
    const borrow = borrowCost(shortPrev, accrual, rules);
    cash -= borrow;
    const fills = [];
    let commission = 0;
    let slippage = 0;
    while (next < inp.orders.length && inp.orders[next].t < c.close_time) {
      const o = inp.orders[next++];
      const why = symbols.includes(o.symbol) ? legError(o.symbol, shares[o.symbol], o.side, o.qty) : `unknown symbol ${o.symbol}`;
      if (why) {
        refused.push({ order: o, reason: why });
        continue;
      }
      const price = c.prices[o.symbol];
      const notional = o.qty * price;
      const fc = fillCosts(notional, rules);
      cash += sideSign(o.side) === 1 ? -notional : notional;
      cash -= fc.commission;
      cash -= fc.slippage;
      shares[o.symbol] = shares[o.symbol] + sideSign(o.side) * o.qty;
      commission += fc.commission;
      slippage += fc.slippage;
      fills.push({
        fill_id: fillId(o.n),
        order_id: o.order_id,
        day: isoDay(c.day),
        executed_at: c.close_time,
        symbol: o.symbol,
        side: o.side,
        qty: o.qty,
        price,
        notional,
        commission: fc.commission,
        slippage: fc.slippage
      });
    }
    let equity = cash;
    let longValue = 0;
    let shortValue = 0;
    for (const s of symbols) {
      const v = shares[s] * c.prices[s];
      equity += v;
      if (v > 0) longValue += v;
      else shortValue -= v;
    }
    days.push({
      day: c.day,
      date: isoDay(c.day),
      close_time: c.close_time,
      prices: { ...c.prices },
      accrual_days: accrual,
      short_value_prev: shortPrev,
      fills,
      costs: { commission, slippage, borrow },
      cash,
      shares: { ...shares },
      equity,
      nav: equity / rules.initial_cash,
      weights: Object.fromEntries(
        symbols.map((s) => [s, equity === 0 ? 0 : shares[s] * c.prices[s] / equity])
      ),
      long_value: longValue,
      short_value: shortValue,
      pnl_long: pnlLong,
      pnl_short: pnlShort
    });
    prev = c;
  }
  return { days, pending: inp.orders.slice(next), refused };
}
export {
  SIDES,
  borrowCost,
  fillCosts,
  fillId,
  legError,
  orderId,
  rebuildBooks,
  sideSign
};
//# sourceMappingURL=book-engine.js.map
