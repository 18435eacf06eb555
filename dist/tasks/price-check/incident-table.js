const INCIDENT_TABLE_VERSION = "price-check-incidents/1";
const VENUE_TABLE = {
  kraken: {
    venue: "kraken",
    style: "kraken",
    host: "api.kraken.com",
    latency: { base_ms: 180, jitter_ms: 120 },
    outage: { rate_per_day: 0.25, mean_minutes: 40, min_minutes: 5, max_minutes: 180, hang_share: 0.3 },
    stale: { rate_per_day: 0.5, mean_minutes: 30, min_minutes: 10, max_minutes: 120 },
    spike: { rate_per_day: 0.5, size: 0.015 },
    limit: { kind: "token-bucket", capacity: 15, refill_per_sec: 0.33 },
    ban: { ignored_before_ban: 1, duration_minutes: 15, status: 403 }
  },
  binance: {
    venue: "binance",
    style: "binance-spot",
    host: "api.binance.com",
    latency: { base_ms: 60, jitter_ms: 60 },
    outage: { rate_per_day: 0.2, mean_minutes: 20, min_minutes: 5, max_minutes: 120, hang_share: 0.5 },
    stale: { rate_per_day: 0.3, mean_minutes: 20, min_minutes: 10, max_minutes: 90 },
    spike: { rate_per_day: 0.5, size: 0.02 },
    limit: { kind: "sliding-window", limit: 1200, window_ms: 6e4 },
    ban: { ignored_before_ban: 1, duration_minutes: 30, status: 418 }
  },
  binanceus: {
    venue: "binanceus",
    style: "binance-spot",
    host: "api.binance.us",
    latency: { base_ms: 90, jitter_ms: 80 },
    outage: { rate_per_day: 0.3, mean_minutes: 30, min_minutes: 5, max_minutes: 150, hang_share: 0.3 },
    stale: { rate_per_day: 0.6, mean_minutes: 40, min_minutes: 10, max_minutes: 150 },
    spike: { rate_per_day: 0.8, size: 0.02 },
    limit: { kind: "sliding-window", limit: 1200, window_ms: 6e4 },
    ban: { ignored_before_ban: 1, duration_minutes: 30, status: 418 }
  },
  coinbase: {
    venue: "coinbase",
    style: "coinbase",
    host: "api.exchange.coinbase.com",
    latency: { base_ms: 120, jitter_ms: 100 },
    outage: { rate_per_day: 0.25, mean_minutes: 25, min_minutes: 5, max_minutes: 120, hang_share: 0.2 },
    stale: { rate_per_day: 0.4, mean_minutes: 25, min_minutes: 10, max_minutes: 120 },
    spike: { rate_per_day: 0.6, size: 0.025 },
    limit: { kind: "fixed-window", limit: 10, window_ms: 1e3 },
    ban: { ignored_before_ban: 1, duration_minutes: 10, status: 403 }
  },
  "binance-index": {
    venue: "binance-index",
    style: "binance-index",
    host: "fapi.binance.com",
    latency: { base_ms: 70, jitter_ms: 50 },
    outage: { rate_per_day: 0.1, mean_minutes: 15, min_minutes: 5, max_minutes: 60, hang_share: 0.5 },
    stale: { rate_per_day: 0.2, mean_minutes: 20, min_minutes: 10, max_minutes: 60 },
    spike: { rate_per_day: 0.3, size: 0.01 },
    limit: { kind: "sliding-window", limit: 2400, window_ms: 6e4 },
    ban: { ignored_before_ban: 1, duration_minutes: 30, status: 418 }
  }
};
const OUTAGE_STATUSES = [500, 502, 503, 504];
export {
  INCIDENT_TABLE_VERSION,
  OUTAGE_STATUSES,
  VENUE_TABLE
};
//# sourceMappingURL=incident-table.js.map
