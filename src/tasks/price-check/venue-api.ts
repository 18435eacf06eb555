import { keyedUniform } from "../../common/random.js";
import {
  FixedWindowLimiter,
  type RateLimiter,
  SlidingWindowLimiter,
  TokenBucketLimiter,
} from "../../kernel/rate-limiter.js";
import type { AsOfView } from "../../world/as-of-view.js";
import { aggregateBars, type Bar } from "./candle-series.js";
import type { VenueLimit, VenueSpec } from "./incident-table.js";
import type { IncidentIndex } from "./incidents.js";
import {
  binanceLimitBody,
  type CandleFeed,
  coinbaseLimitBody,
  handleRequest,
  krakenLimitBody,
  outageBody,
  type Params,
  type RawResponse,
  requestWeight,
} from "./venue-handlers.js";
import type { PriceCheckSetup } from "./world-setup.js";

/** What http_fetch returns to the agent. */
export interface HttpResponse {
  /** HTTP status; 0 when the call timed out */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** simulated duration of the call (the clock does not move) */
  elapsed_ms: number;
  /** "timeout" when no response arrived within timeout_s */
  error?: string;
}

export interface FetchRequest {
  venue: string;
  path: string;
  params: Record<string, string | number | boolean>;
  timeout_s: number;
}

export function makeLimiter(l: VenueLimit): RateLimiter {
  switch (l.kind) {
    case "token-bucket":
      return new TokenBucketLimiter({ capacity: l.capacity, refillPerSec: l.refill_per_sec });
    case "sliding-window":
      return new SlidingWindowLimiter({ limit: l.limit, windowMs: l.window_ms });
    case "fixed-window":
      return new FixedWindowLimiter({ limit: l.limit, windowMs: l.window_ms });
    default: {
      const never: never = l;
      throw new Error(`unknown limit ${JSON.stringify(never)}`);
    }
  }
}

/** "1200 request weight per 1 minute" style text for bodies and docs */
export function limitText(l: VenueLimit): string {
  switch (l.kind) {
    case "token-bucket":
      return `a burst of ${l.capacity} request weight, refilled at ${l.refill_per_sec} per second`;
    case "sliding-window":
    case "fixed-window":
      return `${l.limit} request weight per ${l.window_ms / 1000} s`;
    default: {
      const never: never = l;
      throw new Error(`unknown limit ${JSON.stringify(never)}`);
    }
  }
}

interface VenueState {
  spec: VenueSpec;
  limiter: RateLimiter;
  /** a 429's Retry-After is running until this instant */
  retryUntil: number;
  /** calls made while that Retry-After was running */
  ignored: number;
  bannedUntil: number;
}

/**
 * The in-process, incident-injecting replay of each venue's public HTTP API. Data comes from the
 * agent's as-of view (completed candles only). Per call, in this order:
 * 1. banned → the ban status (418 / 403) with Retry-After (the ban is not extended);
 * 2. a 429's Retry-After still running → the call ignores it: after `ignored_before_ban` such calls
 *    the venue bans for the pinned duration, otherwise another 429;
 * 3. the request weight is taken from the venue's limiter (simulated time); refused → 429 with
 *    Retry-After = ceil(retryAfterMs / 1000) s (at least 1);
 * 4. an outage in force → 5xx with a body ("error" outages) or a timeout ("hang" outages);
 * 5. otherwise the style handler answers (200, or the venue's 4xx for bad paths and params), from
 *    data frozen at the stale episode's start while one is in force, with spiked closes.
 * A response slower than timeout_s becomes a timeout too. elapsed_ms = base + floor(jitter · u)
 * with u keyed by (env seed, venue, call index); a timeout's elapsed_ms is timeout_s · 1000.
 * Nothing here moves the clock.
 */
export class VenueApi {
  private readonly state = new Map<string, VenueState>();
  private calls = 0;

  constructor(
    private readonly o: {
      view: AsOfView;
      setup: PriceCheckSetup;
      table: Readonly<Record<string, VenueSpec>>;
      incidents: IncidentIndex | null;
      envSeed: number;
      /** the setup visible at a time (a venue serves only the symbols whose series is visible now); absent: `setup` */
      setupAt?: (t: number) => PriceCheckSetup;
    },
  ) {
    for (const v of o.setup.venues) {
      const spec = o.table[v];
      if (!spec) throw new Error(`venue "${v}" is not in the venue table`);
      this.state.set(v, { spec, limiter: makeLimiter(spec.limit), retryUntil: 0, ignored: 0, bannedUntil: 0 });
    }
  }

  venues(): string[] {
    return [...this.state.keys()];
  }

  fetch(req: FetchRequest): HttpResponse {
    const st = this.state.get(req.venue);
    if (!st) throw new Error(`unknown venue "${req.venue}"`);
    const now = this.o.view.now();
    const callIndex = this.calls++;
    const { path, params } = splitPath(req.path, req.params);
    const spec = st.spec;
    const timeoutMs = Math.round(req.timeout_s * 1000);
    const latency =
      spec.latency.base_ms + Math.floor(spec.latency.jitter_ms * keyedUniform(this.o.envSeed, spec.venue, callIndex));
    const timeout = (): HttpResponse => ({ status: 0, headers: {}, body: "", elapsed_ms: timeoutMs, error: "timeout" });
    const respond = (r: RawResponse): HttpResponse =>
      latency > timeoutMs ? timeout() : { status: r.status, headers: r.headers, body: r.body, elapsed_ms: latency };

    if (now < st.bannedUntil) return respond(this.limitResponse(st, true, st.bannedUntil - now));
    if (now < st.retryUntil) {
      st.ignored++;
      if (st.ignored >= spec.ban.ignored_before_ban) {
        st.bannedUntil = now + spec.ban.duration_minutes * 60_000;
        st.retryUntil = 0;
        st.ignored = 0;
        return respond(this.limitResponse(st, true, st.bannedUntil - now));
      }
      return respond(this.limitResponse(st, false, st.retryUntil - now));
    }
    const weight = requestWeight(spec.style, path, params);
    const got = st.limiter.tryAcquire(now, weight);
    if (!got.ok) {
      const retryS = Math.max(1, Math.ceil(got.retryAfterMs / 1000));
      st.retryUntil = now + retryS * 1000;
      st.ignored = 0;
      return respond(this.limitResponse(st, false, retryS * 1000));
    }
    const outage = this.o.incidents?.outageAt(spec.venue, now) ?? null;
    if (outage) {
      if (outage.mode === "hang") return timeout();
      return respond(outageBody(spec.style, outage.status));
    }
    const r = handleRequest(spec.style, path, params, this.feed(spec.venue, now), now);
    if (spec.style === "binance-spot" || spec.style === "binance-index") {
      const l = spec.limit;
      if (l.kind !== "token-bucket") r.headers["x-mbx-used-weight-1m"] = String(l.limit - st.limiter.remaining(now));
    }
    return respond(r);
  }

  private limitResponse(st: VenueState, banned: boolean, waitMs: number): RawResponse {
    const retryAfter = String(Math.max(1, Math.ceil(waitMs / 1000)));
    const style = st.spec.style;
    switch (style) {
      case "kraken":
        return {
          status: banned ? st.spec.ban.status : 429,
          headers: { "content-type": "application/json; charset=utf-8", "retry-after": retryAfter },
          body: krakenLimitBody(banned),
        };
      case "binance-spot":
      case "binance-index":
        return {
          status: banned ? st.spec.ban.status : 429,
          headers: { "content-type": "application/json;charset=UTF-8", "retry-after": retryAfter },
          body: binanceLimitBody(banned, limitText(st.spec.limit), st.bannedUntil),
        };
      case "coinbase":
        return {
          status: banned ? st.spec.ban.status : 429,
          headers: { "content-type": "application/json; charset=utf-8", "retry-after": retryAfter },
          body: coinbaseLimitBody(banned),
        };
      default: {
        const never: never = style;
        throw new Error(`unknown api style ${String(never)}`);
      }
    }
  }

  /** the served candles of a venue at `now`: frozen at a stale episode's start, spikes applied */
  private feed(venue: string, now: number): CandleFeed {
    const base = (this.o.setupAt ? this.o.setupAt(now) : this.o.setup).baseInterval[venue] ?? {};
    const stale = this.o.incidents?.staleAt(venue, now) ?? null;
    const asOf = stale ? stale.start : now;
    const view = this.o.view;
    const incidents = this.o.incidents;
    let symbols = sortedSymbols.get(base);
    if (!symbols) {
      symbols = Object.freeze(Object.keys(base).sort());
      sortedSymbols.set(base, symbols);
    }
    return {
      symbols,
      baseIntervalMs: (symbol) => base[symbol] as number,
      bars: (symbol, intervalMs, from, to) => {
        const b = base[symbol] as number;
        const qFrom = Math.floor(from / intervalMs) * intervalMs;
        const qTo = Math.min(Math.floor(to / intervalMs) * intervalMs + intervalMs - b, asOf - b);
        if (qTo < qFrom) return [];
        const rows = view.exchanges
          .candles(venue, symbol, qFrom, qTo)
          .filter((r) => r.interval_ms === b && r.visible_at <= asOf);
        const bars: Bar[] = rows.map((r) => ({ open_time: r.open_time, o: r.o, h: r.h, l: r.l, c: r.c, v: r.v }));
        if (incidents) {
          const spikes = incidents.spikesIn(venue, symbol, qFrom, qTo + b);
          if (spikes.length) {
            const byOpen = new Map(bars.map((x) => [x.open_time, x]));
            for (const s of spikes) {
              const bar = byOpen.get(Math.floor(s.t / b) * b);
              if (!bar) continue;
              bar.c *= s.factor;
              bar.h = Math.max(bar.h, bar.c);
              bar.l = Math.min(bar.l, bar.c);
            }
          }
        }
        return aggregateBars(bars, b, intervalMs).filter((x) => x.open_time >= from && x.open_time <= to);
      },
    };
  }
}

/** a venue's symbols, sorted, per base-interval map of a (frozen, shared) setup: one sort per setup, not per request */
const sortedSymbols = new WeakMap<object, readonly string[]>();

/** Splits "path?query" and merges the query with explicit params (explicit params win). */
export function splitPath(rawPath: string, params: FetchRequest["params"]): { path: string; params: Params } {
  const q = rawPath.indexOf("?");
  const path = q >= 0 ? rawPath.slice(0, q) : rawPath;
  const out: Params = {};
  if (q >= 0) for (const [k, v] of new URLSearchParams(rawPath.slice(q + 1))) out[k] = v;
  for (const [k, v] of Object.entries(params)) out[k] = String(v);
  return { path, params: out };
}
