import type { PriceCheckEnv } from "./environment.js";
import { type ApiStyle, INCIDENT_TABLE_VERSION, VENUE_TABLE } from "./incident-table.js";
import { pairNames } from "./symbol-map.js";
import { limitText } from "./venue-api.js";
import { BINANCE_INTERVALS, COINBASE_GRANULARITIES, KRAKEN_INTERVALS_MIN } from "./venue-handlers.js";

const ENDPOINTS: Record<ApiStyle, { method: "GET"; path: string; params: Record<string, string>; response: string }> = {
  kraken: {
    method: "GET",
    path: "/0/public/OHLC",
    params: {
      pair: "required: the pair name (see symbols), e.g. XBTUSD",
      interval:
        "minutes, default 1; one of 1,5,15,30,60,240,1440,10080,21600 (and a multiple of the replay's base interval)",
      since: "optional unix seconds: only candles opening strictly after it",
    },
    response:
      '{"error":[],"result":{"<PAIRKEY>":[[time_s,"open","high","low","close","vwap","volume",count],...],"last":time_s}} — up to 720 most recent completed candles, oldest first; query errors answer 200 with {"error":["EQuery:Unknown asset pair"]} or {"error":["EGeneral:Invalid arguments"]}',
  },
  "binance-spot": {
    method: "GET",
    path: "/api/v3/klines",
    params: {
      symbol: "required, e.g. BTCUSDT",
      interval: "required: 1m,3m,5m,15m,30m,1h,2h,4h,6h,8h,12h,1d (a multiple of the replay's base interval)",
      startTime: "optional ms: first candle opening at or after it",
      endTime: "optional ms: last candle opening at or before it",
      limit: "default 500, max 1000",
    },
    response:
      '[[openTime,"open","high","low","close","volume",closeTime,"quoteVolume",trades,"takerBuyBase","takerBuyQuote","0"],...] oldest first; errors answer 400 {"code":-1121,"msg":"Invalid symbol."} and similar; request weight 2',
  },
  "binance-index": {
    method: "GET",
    path: "/fapi/v1/indexPriceKlines",
    params: {
      pair: "required, e.g. BTCUSDT",
      interval: "required: 1m,3m,5m,15m,30m,1h,2h,4h,6h,8h,12h,1d (a multiple of the replay's base interval)",
      startTime: "optional ms",
      endTime: "optional ms",
      limit: "default 500, max 1500; request weight 1 (<100), 2 (<500), 5 (≤1000), 10 (>1000)",
    },
    response:
      '[[openTime,"open","high","low","close","0",closeTime,"0",n,"0","0","0"],...] oldest first (an index price: no volume)',
  },
  coinbase: {
    method: "GET",
    path: "/products/{product_id}/candles",
    params: {
      granularity: "required seconds: one of 60,300,900,3600,21600,86400 (a multiple of the replay's base interval)",
      start: "optional ISO 8601 or unix seconds (with end)",
      end: "optional ISO 8601 or unix seconds (with start); at most 300 candles per request",
    },
    response:
      '[[time_s, low, high, open, close, volume],...] NEWEST FIRST; unknown products answer 404 {"message":"NotFound"}',
  },
};

function intervals(style: ApiStyle, baseMs: number): string[] {
  switch (style) {
    case "kraken":
      return KRAKEN_INTERVALS_MIN.filter((m) => (m * 60_000) % baseMs === 0).map(String);
    case "binance-spot":
    case "binance-index":
      return Object.entries(BINANCE_INTERVALS)
        .filter(([, ms]) => ms % baseMs === 0)
        .map(([k]) => k);
    case "coinbase":
      return COINBASE_GRANULARITIES.filter((g) => (g * 1000) % baseMs === 0).map(String);
    default: {
      const never: never = style;
      throw new Error(`unknown api style ${String(never)}`);
    }
  }
}

/**
 * What `get_exchange_docs()` returns: venues, paths, params, symbol maps, limits, the pinned
 * incident parameters (never the drawn trace) and the truth rule.
 */
export function exchangeDocs(env: PriceCheckEnv, now: number): Record<string, unknown> {
  const { params } = env;
  const setup = env.setupAt(now);
  const venues: Record<string, unknown> = {};
  for (const v of setup.venues) {
    const spec = VENUE_TABLE[v]!;
    const base = setup.baseInterval[v] ?? {};
    const symbols = Object.keys(base).sort();
    const baseMs = Math.max(...symbols.map((s) => base[s] as number));
    venues[v] = {
      api: spec.style,
      real_host: spec.host,
      endpoint: ENDPOINTS[spec.style],
      symbols: Object.fromEntries(symbols.map((s) => [s, pairNames(spec.style, s).request])),
      ...(spec.style === "kraken"
        ? { result_keys: Object.fromEntries(symbols.map((s) => [s, pairNames("kraken", s).resultKey])) }
        : {}),
      base_interval_ms: baseMs,
      intervals: intervals(spec.style, baseMs),
      rate_limit: {
        ...spec.limit,
        text: limitText(spec.limit),
        on_excess: "429 with a Retry-After header (seconds)",
        escalation: `calling again before Retry-After has passed (${spec.ban.ignored_before_ban} such call${spec.ban.ignored_before_ban === 1 ? "" : "s"}) bans this client for ${spec.ban.duration_minutes} minutes: status ${spec.ban.status} with Retry-After`,
      },
      latency_ms: { base: spec.latency.base_ms, jitter_up_to: spec.latency.jitter_ms },
      incidents: {
        outages: {
          ...spec.outage,
          behaviour: "5xx with a body, or (for the 'hang' share) no answer: status 0, error 'timeout' after timeout_s",
        },
        stale_feed: { ...spec.stale, behaviour: "200 answers whose data stop advancing at the episode's start" },
        spikes: {
          rate_per_day_per_symbol: spec.spike.rate_per_day,
          size: spec.spike.size,
          behaviour: "one candle's close multiplied by (1 ± size) in this venue's answers only",
        },
      },
    };
  }
  return {
    task: "price-check",
    incident_table: INCIDENT_TABLE_VERSION,
    symbols: setup.symbols,
    window: { start: new Date(env.sim_start).toISOString(), end: new Date(env.sim_end).toISOString() },
    truth: {
      interval_ms: setup.truthIntervalMs,
      rule: "the cross-venue median close of the last candle at interval_ms completed at or before your report's time, per venue from the venue's real (incident-free) data",
      venues: setup.truthVenues,
    },
    scoring: {
      unit: "symbol-hour (UTC hours); the last report/abstain inside an hour wins",
      ok_bps: params.ok_bps,
      bps_error: "|price / truth − 1| · 1e4",
      excess_bps: `min(bps_error − ${params.ok_bps}, ${params.excess_cap_bps}) for reports that are not ok`,
      abstain_constraint: params.abstain_constraint,
    },
    http_fetch: {
      price_usd: params.http_fetch_usd,
      max_timeout_s: params.max_timeout_s,
      notes: [
        "No real network: the venue's API is replayed at the current simulated time and only completed candles are served.",
        "http_fetch never moves the clock: elapsed_ms is simulated; waiting for a Retry-After means letting simulated time pass (see your instruction).",
        "Every call that passes argument checks is billed, whatever its status.",
        "A path may carry a query string; params are merged over it.",
      ],
    },
    venues,
  };
}
