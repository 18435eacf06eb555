import { aggregateBars } from "./candle-series.js";
function median(xs) {
  if (xs.length === 0) throw new RangeError("median of an empty list");
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}
class PriceTruth {
  constructor(candles, setup) {
    this.candles = candles;
    this.setup = setup;
  }
  candles;
  setup;
  at(symbol, t) {
    const I = this.setup.truthIntervalMs;
    const venues = [];
    for (const venue of this.setup.truthVenues[symbol] ?? []) {
      const base = this.setup.baseInterval[venue]?.[symbol];
      if (base === void 0) continue;
      const n = I / base;
      const bars = this.candles.latest(venue, symbol, base, t - base, 3 * n);
      const agg = aggregateBars(bars, base, I);
      const last = agg[agg.length - 1];
      if (last && last.open_time + I <= t) venues.push({ venue, open_time: last.open_time, close: last.c });
    }
    if (venues.length === 0) return null;
    return { price: median(venues.map((v) => v.close)), venues };
  }
  /** when every candle behind a truth point is visible in the world (its base candles, aggregated or not) */
  visibleAt(symbol, p) {
    const I = this.setup.truthIntervalMs;
    let at = 0;
    for (const v of p.venues) {
      const base = this.setup.baseInterval[v.venue]?.[symbol];
      if (base === void 0) continue;
      at = Math.max(at, this.candles.visibleThrough(v.venue, symbol, base, v.open_time, v.open_time + I) ?? 0);
    }
    return at;
  }
}
export {
  PriceTruth,
  median
};
//# sourceMappingURL=truth.js.map
