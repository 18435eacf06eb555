import { DAY, HOUR } from "./time.js";
const CANDLE_VENUES = ["kraken", "binance", "coinbase"];
const CANDLE_SYMBOLS = ["BTC-USD", "ETH-USD", "SOL-USD"];
const CANDLE_PARAMS = {
  intervalMs: 3e5,
  /** intra-candle substeps used to draw high/low */
  substeps: 5,
  /** anchor levels the log price mean-reverts to (half-life below) */
  levels: { "BTC-USD": 65e3, "ETH-USD": 3100, "SOL-USD": 150 },
  /** daily volatilities */
  dailyVol: { "BTC-USD": 0.025, "ETH-USD": 0.032, "SOL-USD": 0.045 },
  /** loading on the common crypto factor (rest is idiosyncratic) */
  factorLoading: { "BTC-USD": 0.85, "ETH-USD": 0.8, "SOL-USD": 0.7 },
  meanReversionHalfLifeDays: 6,
  /** venue-specific noise around the true price, in bps (sd), and a persistent basis (bps) */
  venueNoiseBps: { kraken: 2, binance: 1.5, coinbase: 2.5 },
  venueBasisBps: { kraken: 1, binance: -1, coinbase: 2 },
  /** price tick per symbol */
  tick: { "BTC-USD": 0.1, "ETH-USD": 0.01, "SOL-USD": 1e-3 },
  /** mean 5-minute volume per symbol (base units) and venue share */
  volume: { "BTC-USD": 12, "ETH-USD": 160, "SOL-USD": 2400 },
  venueVolume: { kraken: 0.6, binance: 1.6, coinbase: 1 }
};
function roundTick(x, tick) {
  const d = tick >= 1 ? 0 : Math.round(-Math.log10(tick));
  return Number((Math.round(x / tick) * tick).toFixed(d));
}
function generateCandles(rng, from, to, future = null) {
  const P = CANDLE_PARAMS;
  const iv = P.intervalMs;
  const t0 = Math.ceil(from / iv) * iv;
  const n = Math.max(0, Math.ceil((to - t0) / iv));
  const perDay = DAY / iv;
  const sub = P.substeps;
  const factorRng = rng.split("factor");
  const iSwitch = future === null ? n : Math.max(0, Math.floor((future.from - t0) / iv));
  const fut = (r, label) => future === null ? r : future.rng.split(label);
  const futFactor = fut(factorRng, "factor");
  const draw = (main, other, i) => {
    const x = main.normal();
    return i >= iSwitch ? other.normal() : x;
  };
  const kappa = Math.log(2) / (P.meanReversionHalfLifeDays * perDay * sub);
  const truth = /* @__PURE__ */ new Map();
  const symRngs = CANDLE_SYMBOLS.map((s) => rng.split(`symbol-${s}`));
  const futSyms = CANDLE_SYMBOLS.map((s, j) => fut(symRngs[j], `symbol-${s}`));
  const levelRng = rng.split("levels");
  const logs = CANDLE_SYMBOLS.map((s) => Math.log(P.levels[s] * (1 + 0.03 * levelRng.normal())));
  const arrays = CANDLE_SYMBOLS.map(() => ({ c: new Float64Array(n), h: new Float64Array(n), l: new Float64Array(n) }));
  for (let i = 0; i < n; i++) {
    const hi = logs.map((x) => x);
    const lo = logs.map((x) => x);
    for (let s = 0; s < sub; s++) {
      const f = draw(factorRng, futFactor, i);
      for (let j = 0; j < CANDLE_SYMBOLS.length; j++) {
        const sym = CANDLE_SYMBOLS[j];
        const sigma = P.dailyVol[sym] / Math.sqrt(perDay * sub);
        const b = P.factorLoading[sym];
        const eps = b * f + Math.sqrt(1 - b * b) * draw(symRngs[j], futSyms[j], i);
        const anchor = Math.log(P.levels[sym]);
        const x = logs[j] + sigma * eps - kappa * (logs[j] - anchor);
        logs[j] = x;
        if (x > hi[j]) hi[j] = x;
        if (x < lo[j]) lo[j] = x;
      }
    }
    for (let j = 0; j < CANDLE_SYMBOLS.length; j++) {
      const a = arrays[j];
      a.c[i] = Math.exp(logs[j]);
      a.h[i] = Math.exp(hi[j]);
      a.l[i] = Math.exp(lo[j]);
    }
  }
  CANDLE_SYMBOLS.forEach((s, j) => {
    truth.set(s, arrays[j]);
  });
  const rows = [];
  for (const venue of CANDLE_VENUES) {
    const vr = rng.split(`venue-${venue}`);
    const noise = P.venueNoiseBps[venue] / 1e4;
    const basis = 1 + P.venueBasisBps[venue] / 1e4;
    for (const sym of CANDLE_SYMBOLS) {
      const fr = fut(vr, `venue-${venue}-${sym}`);
      const tr = truth.get(sym);
      const tick = P.tick[sym];
      let open = roundTick(tr.c[0] * basis, tick);
      for (let i = 0; i < n; i++) {
        const openTime = t0 + i * iv;
        const c = roundTick(tr.c[i] * basis * (1 + noise * draw(vr, fr, i)), tick);
        const h = Math.max(
          open,
          c,
          roundTick(tr.h[i] * basis * (1 + Math.abs(noise * draw(vr, fr, i))), tick)
        );
        const l = Math.min(
          open,
          c,
          roundTick(tr.l[i] * basis * (1 - Math.abs(noise * draw(vr, fr, i))), tick)
        );
        const hour = openTime % DAY / HOUR;
        const diurnal = 1 + 0.35 * Math.cos(2 * Math.PI * (hour - 15) / 24);
        const v = P.volume[sym] * P.venueVolume[venue] * diurnal * Math.exp(0.5 * draw(vr, fr, i) - 0.125);
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
          visible_at: openTime + iv
        });
        open = c;
      }
    }
  }
  return rows;
}
export {
  CANDLE_PARAMS,
  CANDLE_SYMBOLS,
  CANDLE_VENUES,
  generateCandles
};
//# sourceMappingURL=candles.js.map
