import {
  FixedWindowLimiter,
  SlidingWindowLimiter,
  TokenBucketLimiter
} from "../../kernel/rate-limiter.js";
import { aggregateBars } from "./candle-series.js";
import { keyedUniform } from "./prng.js";
import {
  binanceLimitBody,
  coinbaseLimitBody,
  handleRequest,
  krakenLimitBody,
  outageBody,
  requestWeight
} from "./venue-handlers.js";
function makeLimiter(l) {
  switch (l.kind) {
    case "token-bucket":
      return new TokenBucketLimiter({ capacity: l.capacity, refillPerSec: l.refill_per_sec });
    case "sliding-window":
      return new SlidingWindowLimiter({ limit: l.limit, windowMs: l.window_ms });
    case "fixed-window":
      return new FixedWindowLimiter({ limit: l.limit, windowMs: l.window_ms });
    default: {
      const never = l;
      throw new Error(`unknown limit ${JSON.stringify(never)}`);
    }
  }
}
function limitText(l) {
  switch (l.kind) {
    case "token-bucket":
      return `a burst of ${l.capacity} request weight, refilled at ${l.refill_per_sec} per second`;
    case "sliding-window":
    case "fixed-window":
      return `${l.limit} request weight per ${l.window_ms / 1e3} s`;
    default: {
      const never = l;
      throw new Error(`unknown limit ${JSON.stringify(never)}`);
    }
  }
}
class VenueApi {
  constructor(o) {
    this.o = o;
    for (const v of o.setup.venues) {
      const spec = o.table[v];
      if (!spec) throw new Error(`venue "${v}" is not in the venue table`);
      this.state.set(v, { spec, limiter: makeLimiter(spec.limit), retryUntil: 0, ignored: 0, bannedUntil: 0 });
    }
  }
  o;
  state = /* @__PURE__ */ new Map();
  calls = 0;
  venues() {
    return [...this.state.keys()];
  }
  fetch(req) {
    const st = this.state.get(req.venue);
    if (!st) throw new Error(`unknown venue "${req.venue}"`);
    const now = this.o.view.now();
    const callIndex = this.calls++;
    const { path, params } = splitPath(req.path, req.params);
    const spec = st.spec;
    const timeoutMs = Math.round(req.timeout_s * 1e3);
    const latency = spec.latency.base_ms + Math.floor(spec.latency.jitter_ms * keyedUniform(this.o.envSeed, spec.venue, callIndex));
    const timeout = () => ({ status: 0, headers: {}, body: "", elapsed_ms: timeoutMs, error: "timeout" });
    const respond = (r2) => latency > timeoutMs ? timeout() : { status: r2.status, headers: r2.headers, body: r2.body, elapsed_ms: latency };
    if (now < st.bannedUntil) return respond(this.limitResponse(st, true, st.bannedUntil - now));
    if (now < st.retryUntil) {
      st.ignored++;
      if (st.ignored >= spec.ban.ignored_before_ban) {
        st.bannedUntil = now + spec.ban.duration_minutes * 6e4;
        st.retryUntil = 0;
        st.ignored = 0;
        return respond(this.limitResponse(st, true, st.bannedUntil - now));
      }
      return respond(this.limitResponse(st, false, st.retryUntil - now));
    }
    const weight = requestWeight(spec.style, path, params);
    const got = st.limiter.tryAcquire(now, weight);
    if (!got.ok) {
      const retryS = Math.max(1, Math.ceil(got.retryAfterMs / 1e3));
      st.retryUntil = now + retryS * 1e3;
      st.ignored = 0;
      return respond(this.limitResponse(st, false, retryS * 1e3));
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
  limitResponse(st, banned, waitMs) {
    const retryAfter = String(Math.max(1, Math.ceil(waitMs / 1e3)));
    const style = st.spec.style;
    switch (style) {
      case "kraken":
        return {
          status: banned ? st.spec.ban.status : 429,
          headers: { "content-type": "application/json; charset=utf-8", "retry-after": retryAfter },
          body: krakenLimitBody(banned)
        };
      case "binance-spot":
      case "binance-index":
        return {
          status: banned ? st.spec.ban.status : 429,
          headers: { "content-type": "application/json;charset=UTF-8", "retry-after": retryAfter },
          body: binanceLimitBody(banned, limitText(st.spec.limit), st.bannedUntil)
        };
      case "coinbase":
        return {
          status: banned ? st.spec.ban.status : 429,
          headers: { "content-type": "application/json; charset=utf-8", "retry-after": retryAfter },
          body: coinbaseLimitBody(banned)
        };
      default: {
        const never = style;
        throw new Error(`unknown api style ${String(never)}`);
      }
    }
  }
  /** the served candles of a venue at `now`: frozen at a stale episode's start, spikes applied */
  feed(venue, now) {
    const base = (this.o.setupAt ? this.o.setupAt(now) : this.o.setup).baseInterval[venue] ?? {};
    const stale = this.o.incidents?.staleAt(venue, now) ?? null;
    const asOf = stale ? stale.start : now;
    const view = this.o.view;
    const incidents = this.o.incidents;
    return {
      symbols: Object.keys(base).sort(),
      baseIntervalMs: (symbol) => base[symbol],
      bars: (symbol, intervalMs, from, to) => {
        const b = base[symbol];
        const qFrom = Math.floor(from / intervalMs) * intervalMs;
        const qTo = Math.min(Math.floor(to / intervalMs) * intervalMs + intervalMs - b, asOf - b);
        if (qTo < qFrom) return [];
        const rows = view.exchanges.candles(venue, symbol, qFrom, qTo).filter((r) => r.interval_ms === b && r.visible_at <= asOf);
        const bars = rows.map((r) => ({ open_time: r.open_time, o: r.o, h: r.h, l: r.l, c: r.c, v: r.v }));
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
      }
    };
  }
}
function splitPath(rawPath, params) {
  const q = rawPath.indexOf("?");
  const path = q >= 0 ? rawPath.slice(0, q) : rawPath;
  const out = {};
  if (q >= 0) for (const [k, v] of new URLSearchParams(rawPath.slice(q + 1))) out[k] = v;
  for (const [k, v] of Object.entries(params)) out[k] = String(v);
  return { path, params: out };
}
export {
  VenueApi,
  limitText,
  makeLimiter,
  splitPath
};
//# sourceMappingURL=venue-api.js.map
