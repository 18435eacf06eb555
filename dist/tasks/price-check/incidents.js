import { OUTAGE_STATUSES } from "./incident-table.js";
import { SplitMix32 } from "./prng.js";
const MINUTE_MS = 6e4;
const DAY_MS = 864e5;
function durationMs(rng, p) {
  const m = Math.min(p.max_minutes, Math.max(p.min_minutes, rng.exp(p.mean_minutes)));
  return Math.round(m * MINUTE_MS);
}
function drawIncidentTrace(table, envSeed, window, venues) {
  const out = [];
  const sorted = [...venues].sort((a, b) => a.venue < b.venue ? -1 : a.venue > b.venue ? 1 : 0);
  for (const { venue, symbols } of sorted) {
    const spec = table[venue];
    if (!spec) continue;
    if (spec.outage.rate_per_day > 0) {
      const rng = SplitMix32.fromKey(`${envSeed}:${venue}:outage`);
      let t = window.start;
      for (; ; ) {
        t += Math.round(rng.exp(DAY_MS / spec.outage.rate_per_day));
        if (t >= window.end) break;
        const end = t + durationMs(rng, spec.outage);
        const mode = rng.next() < spec.outage.hang_share ? "hang" : "error";
        const status = OUTAGE_STATUSES[rng.int(OUTAGE_STATUSES.length)];
        out.push({ kind: "outage", venue, start: t, end, mode, status });
        t = end;
      }
    }
    if (spec.stale.rate_per_day > 0) {
      const rng = SplitMix32.fromKey(`${envSeed}:${venue}:stale`);
      let t = window.start;
      for (; ; ) {
        t += Math.round(rng.exp(DAY_MS / spec.stale.rate_per_day));
        if (t >= window.end) break;
        const end = t + durationMs(rng, spec.stale);
        out.push({ kind: "stale", venue, start: t, end });
        t = end;
      }
    }
    if (spec.spike.rate_per_day > 0) {
      for (const symbol of [...symbols].sort()) {
        const rng = SplitMix32.fromKey(`${envSeed}:${venue}:spike:${symbol}`);
        let t = window.start;
        for (; ; ) {
          t += Math.round(rng.exp(DAY_MS / spec.spike.rate_per_day));
          if (t >= window.end) break;
          const sign = rng.next() < 0.5 ? -1 : 1;
          out.push({
            kind: "spike",
            venue,
            symbol,
            t: Math.floor(t / 1e3) * 1e3,
            factor: 1 + sign * spec.spike.size
          });
        }
      }
    }
  }
  return out;
}
class IncidentIndex {
  constructor(trace) {
    this.trace = trace;
    for (const i of trace) {
      switch (i.kind) {
        case "outage":
          push(this.outages, i.venue, i);
          break;
        case "stale":
          push(this.stales, i.venue, i);
          break;
        case "spike":
          push(this.spikes, `${i.venue}\0${i.symbol}`, i);
          break;
        default: {
          const never = i;
          throw new Error(`unknown incident ${JSON.stringify(never)}`);
        }
      }
    }
  }
  trace;
  outages = /* @__PURE__ */ new Map();
  stales = /* @__PURE__ */ new Map();
  spikes = /* @__PURE__ */ new Map();
  /** the outage in force at t ([start, end)), if any */
  outageAt(venue, t) {
    return this.outages.get(venue)?.find((o) => o.start <= t && t < o.end) ?? null;
  }
  /** the stale episode in force at t ([start, end)), if any */
  staleAt(venue, t) {
    return this.stales.get(venue)?.find((s) => s.start <= t && t < s.end) ?? null;
  }
  /** spikes of (venue, symbol) with t in [from, to) */
  spikesIn(venue, symbol, from, to) {
    return (this.spikes.get(`${venue}\0${symbol}`) ?? []).filter((s) => s.t >= from && s.t < to);
  }
}
function push(m, k, v) {
  const a = m.get(k);
  if (a) a.push(v);
  else m.set(k, [v]);
}
export {
  IncidentIndex,
  drawIncidentTrace
};
//# sourceMappingURL=incidents.js.map
