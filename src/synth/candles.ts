import type { Rng } from "../common/random.js";
import type { CandleRow } from "../world/types.js";
import type { FutureStream } from "./future.js";
import { DAY, HOUR } from "./time.js";

export const CANDLE_VENUES = ["kraken", "binance", "coinbase"] as const;
export const CANDLE_SYMBOLS = ["BTC-USD", "ETH-USD", "SOL-USD"] as const;

export const CANDLE_PARAMS = {
  intervalMs: 300_000,
  /** intra-candle substeps used to draw high/low */
  substeps: 5,
  /** anchor levels the log price mean-reverts to (half-life below) */
  levels: { "BTC-USD": 65_000, "ETH-USD": 3_100, "SOL-USD": 150 } as Record<string, number>,
  /** daily volatilities */
  dailyVol: { "BTC-USD": 0.025, "ETH-USD": 0.032, "SOL-USD": 0.045 } as Record<string, number>,
  /** loading on the common crypto factor (rest is idiosyncratic) */
  factorLoading: { "BTC-USD": 0.85, "ETH-USD": 0.8, "SOL-USD": 0.7 } as Record<string, number>,
  meanReversionHalfLifeDays: 6,
  /**
   * Volatility regimes (README "Calibration"): a daily two-state chain; a calm day turns stressed
   * with `stressEnterPerDay`, a stressed day calms with `stressExitPerDay`; a stress spell scales
   * every symbol's volatility by a multiplier drawn in [stressVolMin, stressVolMax] when it begins
   */
  stressEnterPerDay: 0.05,
  stressExitPerDay: 0.4,
  stressVolMin: 1.8,
  stressVolMax: 2.6,
  /** venue-specific noise around the true price, in bps (sd), and a persistent basis (bps) */
  venueNoiseBps: { kraken: 2, binance: 1.5, coinbase: 2.5 } as Record<string, number>,
  venueBasisBps: { kraken: 1, binance: -1, coinbase: 2 } as Record<string, number>,
  /** price tick per symbol */
  tick: { "BTC-USD": 0.1, "ETH-USD": 0.01, "SOL-USD": 0.001 } as Record<string, number>,
  /** mean 5-minute volume per symbol (base units) and venue share */
  volume: { "BTC-USD": 12, "ETH-USD": 160, "SOL-USD": 2400 } as Record<string, number>,
  venueVolume: { kraken: 0.6, binance: 1.6, coinbase: 1.0 } as Record<string, number>,
} as const;

function roundTick(x: number, tick: number): number {
  const d = tick >= 1 ? 0 : Math.round(-Math.log10(tick));
  return Number((Math.round(x / tick) * tick).toFixed(d));
}

/**
 * The volatility multiplier of each candle (1 on calm days): the regime chain steps once per UTC
 * day, two draws a day from `rng`; a day whose first candle is not yet visible at the cut
 * (index ≥ iSwitch) takes its draws from the future stream, the world's still consumed.
 */
function stressMultipliers(rng: Rng, t0: number, n: number, iSwitch: number, future: FutureStream): Float64Array {
  const P = CANDLE_PARAMS;
  const iv = P.intervalMs;
  const fr = future === null ? null : future.rng.split("regime");
  const out = new Float64Array(n);
  let stressed = false;
  let mult = 1;
  let day = -1;
  for (let i = 0; i < n; i++) {
    const d = Math.floor((t0 + i * iv) / DAY);
    if (d !== day) {
      day = d;
      let [u, v] = [rng.next(), rng.next()];
      if (fr !== null && i >= iSwitch) [u, v] = [fr.next(), fr.next()];
      if (stressed) stressed = u >= P.stressExitPerDay;
      else if (u < P.stressEnterPerDay) {
        stressed = true;
        mult = P.stressVolMin + v * (P.stressVolMax - P.stressVolMin);
      }
    }
    out[i] = stressed ? mult : 1;
  }
  return out;
}

/**
 * Complete 5-minute candles for every venue × symbol with open_time in [from, to). One true
 * log-price path per symbol (common factor + idiosyncratic noise, weak mean reversion); each venue
 * observes it with a small basis and independent noise; open = the venue's previous close.
 */
export function generateCandles(rng: Rng, from: number, to: number, future: FutureStream = null): CandleRow[] {
  const P = CANDLE_PARAMS;
  const iv = P.intervalMs;
  const t0 = Math.ceil(from / iv) * iv;
  const n = Math.max(0, Math.ceil((to - t0) / iv));
  const perDay = DAY / iv;
  const sub = P.substeps;
  const factorRng = rng.split("factor");
  // with `future` (cut T): candles not yet visible at T (open_time + interval > T) draw from the
  // future stream; the world seed's draws are still made, so every earlier candle is unchanged
  const iSwitch = future === null ? n : Math.max(0, Math.floor((future.from - t0) / iv));
  const fut = (r: Rng, label: string) => (future === null ? r : future.rng.split(label));
  const futFactor = fut(factorRng, "factor");
  const draw = (main: Rng, other: Rng, i: number) => {
    const x = main.normal();
    return i >= iSwitch ? other.normal() : x;
  };
  const kappa = Math.log(2) / (P.meanReversionHalfLifeDays * perDay * sub);
  const volMult = stressMultipliers(rng.split("regime"), t0, n, iSwitch, future);
  // true paths: per symbol, per candle: open, close, high, low (true prices)
  const truth = new Map<string, { c: Float64Array; h: Float64Array; l: Float64Array }>();
  const symRngs = CANDLE_SYMBOLS.map((s) => rng.split(`symbol-${s}`));
  const futSyms = CANDLE_SYMBOLS.map((s, j) => fut(symRngs[j] as Rng, `symbol-${s}`));
  const levelRng = rng.split("levels");
  const logs = CANDLE_SYMBOLS.map((s) => Math.log((P.levels[s] as number) * (1 + 0.03 * levelRng.normal())));
  const arrays = CANDLE_SYMBOLS.map(() => ({ c: new Float64Array(n), h: new Float64Array(n), l: new Float64Array(n) }));
  for (let i = 0; i < n; i++) {
    const hi = logs.map((x) => x);
    const lo = logs.map((x) => x);
    for (let s = 0; s < sub; s++) {
      const f = draw(factorRng, futFactor, i);
      for (let j = 0; j < CANDLE_SYMBOLS.length; j++) {
        const sym = CANDLE_SYMBOLS[j] as string;
        const sigma = ((P.dailyVol[sym] as number) * (volMult[i] as number)) / Math.sqrt(perDay * sub);
        const b = P.factorLoading[sym] as number;
        const eps = b * f + Math.sqrt(1 - b * b) * draw(symRngs[j] as Rng, futSyms[j] as Rng, i);
        const anchor = Math.log(P.levels[sym] as number);
        const x = (logs[j] as number) + sigma * eps - kappa * ((logs[j] as number) - anchor);
        logs[j] = x;
        if (x > (hi[j] as number)) hi[j] = x;
        if (x < (lo[j] as number)) lo[j] = x;
      }
    }
    for (let j = 0; j < CANDLE_SYMBOLS.length; j++) {
      const a = arrays[j]!;
      a.c[i] = Math.exp(logs[j] as number);
      a.h[i] = Math.exp(hi[j] as number);
      a.l[i] = Math.exp(lo[j] as number);
    }
  }
  CANDLE_SYMBOLS.forEach((s, j) => {
    truth.set(s, arrays[j]!);
  });
  const rows: CandleRow[] = [];
  for (const venue of CANDLE_VENUES) {
    const vr = rng.split(`venue-${venue}`);
    const noise = (P.venueNoiseBps[venue] as number) / 1e4;
    const basis = 1 + (P.venueBasisBps[venue] as number) / 1e4;
    for (const sym of CANDLE_SYMBOLS) {
      const fr = fut(vr, `venue-${venue}-${sym}`);
      const tr = truth.get(sym)!;
      const tick = P.tick[sym] as number;
      let open = roundTick((tr.c[0] as number) * basis, tick);
      for (let i = 0; i < n; i++) {
        const openTime = t0 + i * iv;
        const c = roundTick((tr.c[i] as number) * basis * (1 + noise * draw(vr, fr, i)), tick);
        const h = Math.max(
          open,
          c,
          roundTick((tr.h[i] as number) * basis * (1 + Math.abs(noise * draw(vr, fr, i))), tick),
        );
        const l = Math.min(
          open,
          c,
          roundTick((tr.l[i] as number) * basis * (1 - Math.abs(noise * draw(vr, fr, i))), tick),
        );
        const hour = (openTime % DAY) / HOUR;
        const diurnal = 1 + 0.35 * Math.cos((2 * Math.PI * (hour - 15)) / 24);
        const v =
          (P.volume[sym] as number) *
          (P.venueVolume[venue] as number) *
          diurnal *
          Math.exp(0.5 * draw(vr, fr, i) - 0.125);
        rows.push({
          venue,
          symbol: sym,
          interval_ms: iv,
          open_time: openTime,
          o: open,
          h,
          l,
          c,
          v: Math.round(v * 1e4) / 1e4,
          visible_at: openTime + iv,
        });
        open = c;
      }
    }
  }
  return rows;
}
