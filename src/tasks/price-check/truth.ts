import type { WorldCandles } from "./candle-series.js";
import type { PriceCheckSetup } from "./world-setup.js";

export interface TruthPoint {
  /** the cross-venue median close */
  price: number;
  /** the candle each truth venue contributed (venues without a complete candle are absent) */
  venues: { venue: string; open_time: number; close: number }[];
}

/** Median; the mean of the two middle values for an even count. Throws on an empty list. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) throw new RangeError("median of an empty list");
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/**
 * The truth of price-check (tasks.md §5) from UNTOUCHED world candles (no incidents): at instant t,
 * for each truth venue of the symbol, the last candle at the truth interval completed at or before
 * t (open_time + interval ≤ t; aggregated from the venue's base candles when they are finer, complete
 * buckets only, looking back at most 3 truth intervals of base candles), and the median of their
 * closes. null when no truth venue has such a candle.
 */
export class PriceTruth {
  constructor(
    private readonly candles: WorldCandles,
    private readonly setup: PriceCheckSetup,
  ) {}

  at(symbol: string, t: number): TruthPoint | null {
    const I = this.setup.truthIntervalMs;
    const venues: TruthPoint["venues"] = [];
    for (const venue of this.setup.truthVenues[symbol] ?? []) {
      const base = this.setup.baseInterval[venue]?.[symbol];
      if (base === undefined) continue;
      const n = I / base;
      const last = this.candles.lastCompleteBucket(venue, symbol, base, I, t - base, 3 * n);
      if (last && last.open_time + I <= t) venues.push({ venue, open_time: last.open_time, close: last.c });
    }
    if (venues.length === 0) return null;
    return { price: median(venues.map((v) => v.close)), venues };
  }

  /** when every candle behind a truth point is visible in the world (its base candles, aggregated or not) */
  visibleAt(symbol: string, p: TruthPoint): number {
    const I = this.setup.truthIntervalMs;
    let at = 0;
    for (const v of p.venues) {
      const base = this.setup.baseInterval[v.venue]?.[symbol];
      if (base === undefined) continue;
      at = Math.max(at, this.candles.visibleThrough(v.venue, symbol, base, v.open_time, v.open_time + I) ?? 0);
    }
    return at;
  }
}
