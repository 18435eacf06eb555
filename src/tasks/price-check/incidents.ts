import { SplitMix32 } from "../../common/random.js";
import { DAY_MS, MINUTE_MS } from "../../common/time.js";
import { OUTAGE_STATUSES, type VenueSpec } from "./incident-table.js";

/** One drawn incident: environment-side state, never shown to the agent (only its effects are). */
export type Incident =
  | { kind: "outage"; venue: string; start: number; end: number; mode: "error" | "hang"; status: number }
  | { kind: "stale"; venue: string; start: number; end: number }
  | { kind: "spike"; venue: string; symbol: string; t: number; factor: number };

export interface TraceVenue {
  venue: string;
  symbols: readonly string[];
}

function durationMs(rng: SplitMix32, p: { mean_minutes: number; min_minutes: number; max_minutes: number }): number {
  const m = Math.min(p.max_minutes, Math.max(p.min_minutes, rng.exp(p.mean_minutes)));
  return Math.round(m * MINUTE_MS);
}

/**
 * Draws the incident trace of a run from (table, env seed, window, venues): for every venue
 * (sorted by name) independent streams keyed `${envSeed}:${venue}:outage|stale` and
 * `${envSeed}:${venue}:spike:${symbol}`. Outages and stale episodes are Poisson arrivals (rate per
 * day) in [start, end) that never overlap within one kind: the next arrival is drawn from the end
 * of the previous episode. Spike times are rounded down to whole seconds. Pure: same inputs, same
 * trace; the order is (venue, kind, start).
 */
export function drawIncidentTrace(
  table: Readonly<Record<string, VenueSpec>>,
  envSeed: number,
  window: { start: number; end: number },
  venues: readonly TraceVenue[],
): Incident[] {
  const out: Incident[] = [];
  const sorted = [...venues].sort((a, b) => (a.venue < b.venue ? -1 : a.venue > b.venue ? 1 : 0));
  for (const { venue, symbols } of sorted) {
    const spec = table[venue];
    if (!spec) continue;
    if (spec.outage.rate_per_day > 0) {
      const rng = SplitMix32.fromKey(`${envSeed}:${venue}:outage`);
      let t = window.start;
      for (;;) {
        t += Math.round(rng.exp(DAY_MS / spec.outage.rate_per_day));
        if (t >= window.end) break;
        const end = t + durationMs(rng, spec.outage);
        const mode = rng.next() < spec.outage.hang_share ? "hang" : "error";
        const status = OUTAGE_STATUSES[rng.int(OUTAGE_STATUSES.length)] as number;
        out.push({ kind: "outage", venue, start: t, end, mode, status });
        t = end;
      }
    }
    if (spec.stale.rate_per_day > 0) {
      const rng = SplitMix32.fromKey(`${envSeed}:${venue}:stale`);
      let t = window.start;
      for (;;) {
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
        for (;;) {
          t += Math.round(rng.exp(DAY_MS / spec.spike.rate_per_day));
          if (t >= window.end) break;
          const sign = rng.next() < 0.5 ? -1 : 1;
          out.push({
            kind: "spike",
            venue,
            symbol,
            t: Math.floor(t / 1000) * 1000,
            factor: 1 + sign * spec.spike.size,
          });
        }
      }
    }
  }
  return out;
}

/** Fast lookups over a trace for the venue replay. */
export class IncidentIndex {
  private readonly outages = new Map<string, Extract<Incident, { kind: "outage" }>[]>();
  private readonly stales = new Map<string, Extract<Incident, { kind: "stale" }>[]>();
  private readonly spikes = new Map<string, Extract<Incident, { kind: "spike" }>[]>();

  constructor(readonly trace: readonly Incident[]) {
    for (const i of trace) {
      switch (i.kind) {
        case "outage":
          push(this.outages, i.venue, i);
          break;
        case "stale":
          push(this.stales, i.venue, i);
          break;
        case "spike":
          push(this.spikes, `${i.venue}\u0000${i.symbol}`, i);
          break;
        default: {
          const never: never = i;
          throw new Error(`unknown incident ${JSON.stringify(never)}`);
        }
      }
    }
  }

  /** the outage in force at t ([start, end)), if any */
  outageAt(venue: string, t: number): Extract<Incident, { kind: "outage" }> | null {
    return this.outages.get(venue)?.find((o) => o.start <= t && t < o.end) ?? null;
  }

  /** the stale episode in force at t ([start, end)), if any */
  staleAt(venue: string, t: number): Extract<Incident, { kind: "stale" }> | null {
    return this.stales.get(venue)?.find((s) => s.start <= t && t < s.end) ?? null;
  }

  /** spikes of (venue, symbol) with t in [from, to) */
  spikesIn(venue: string, symbol: string, from: number, to: number): Extract<Incident, { kind: "spike" }>[] {
    return (this.spikes.get(`${venue}\u0000${symbol}`) ?? []).filter((s) => s.t >= from && s.t < to);
  }
}

function push<T>(m: Map<string, T[]>, k: string, v: T): void {
  const a = m.get(k);
  if (a) a.push(v);
  else m.set(k, [v]);
}
