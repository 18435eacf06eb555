/**
 * The PINNED per-venue parameter table of price-check (tasks.md §5): API style, simulated latency,
 * incident rates and durations (outages, stale feeds, spikes), request-weight limits and the
 * 429-then-ban escalation. `drawIncidentTrace` turns it into a concrete trace from the environment
 * seed; `get_exchange_docs()` documents these parameters to the agent (never the draws).
 * Changing any value changes the environment: bump INCIDENT_TABLE_VERSION (it is part of the task
 * version).
 */

export const INCIDENT_TABLE_VERSION = "price-check-incidents/1";

/** How a venue's public HTTP API looks (paths, params and payload shapes). */
export type ApiStyle = "kraken" | "binance-spot" | "binance-index" | "coinbase";

export type VenueLimit =
  | { kind: "token-bucket"; capacity: number; refill_per_sec: number }
  | { kind: "sliding-window"; limit: number; window_ms: number }
  | { kind: "fixed-window"; limit: number; window_ms: number };

export interface VenueSpec {
  venue: string;
  style: ApiStyle;
  /** the real API's host, for the docs only (nothing opens a socket) */
  host: string;
  /** simulated elapsed time of a call: base_ms + floor(jitter_ms · u), u keyed by (env seed, venue, call index) */
  latency: { base_ms: number; jitter_ms: number };
  /**
   * Outages: a Poisson process (rate per day); duration exponential with the mean, clamped to
   * [min, max] minutes; a share of them are "hang" outages (the call times out after timeout_s,
   * status 0), the rest answer 5xx with a body.
   */
  outage: { rate_per_day: number; mean_minutes: number; min_minutes: number; max_minutes: number; hang_share: number };
  /** Stale-feed episodes: the served data stops advancing at the episode's start until its end. */
  stale: { rate_per_day: number; mean_minutes: number; min_minutes: number; max_minutes: number };
  /** Spikes: per symbol, a Poisson process; one candle's close is multiplied by (1 ± size) in the served data. */
  spike: { rate_per_day: number; size: number };
  /** request-weight limit (simulated time) */
  limit: VenueLimit;
  /**
   * Escalation: a call made while a Retry-After is still running counts as ignoring it; after
   * `ignored_before_ban` such calls the venue bans for `duration_minutes` (answering `status`).
   */
  ban: { ignored_before_ban: number; duration_minutes: number; status: number };
}

/** The pinned table. Venues present in a world but absent here are not served. */
export const VENUE_TABLE: Readonly<Record<string, VenueSpec>> = {
  kraken: {
    venue: "kraken",
    style: "kraken",
    host: "api.kraken.com",
    latency: { base_ms: 180, jitter_ms: 120 },
    outage: { rate_per_day: 0.25, mean_minutes: 40, min_minutes: 5, max_minutes: 180, hang_share: 0.3 },
    stale: { rate_per_day: 0.5, mean_minutes: 30, min_minutes: 10, max_minutes: 120 },
    spike: { rate_per_day: 0.5, size: 0.015 },
    limit: { kind: "token-bucket", capacity: 15, refill_per_sec: 0.33 },
    ban: { ignored_before_ban: 1, duration_minutes: 15, status: 403 },
  },
  binance: {
    venue: "binance",
    style: "binance-spot",
    host: "api.binance.com",
    latency: { base_ms: 60, jitter_ms: 60 },
    outage: { rate_per_day: 0.2, mean_minutes: 20, min_minutes: 5, max_minutes: 120, hang_share: 0.5 },
    stale: { rate_per_day: 0.3, mean_minutes: 20, min_minutes: 10, max_minutes: 90 },
    spike: { rate_per_day: 0.5, size: 0.02 },
    limit: { kind: "sliding-window", limit: 1200, window_ms: 60_000 },
    ban: { ignored_before_ban: 1, duration_minutes: 30, status: 418 },
  },
  binanceus: {
    venue: "binanceus",
    style: "binance-spot",
    host: "api.binance.us",
    latency: { base_ms: 90, jitter_ms: 80 },
    outage: { rate_per_day: 0.3, mean_minutes: 30, min_minutes: 5, max_minutes: 150, hang_share: 0.3 },
    stale: { rate_per_day: 0.6, mean_minutes: 40, min_minutes: 10, max_minutes: 150 },
    spike: { rate_per_day: 0.8, size: 0.02 },
    limit: { kind: "sliding-window", limit: 1200, window_ms: 60_000 },
    ban: { ignored_before_ban: 1, duration_minutes: 30, status: 418 },
  },
  coinbase: {
    venue: "coinbase",
    style: "coinbase",
    host: "api.exchange.coinbase.com",
    latency: { base_ms: 120, jitter_ms: 100 },
    outage: { rate_per_day: 0.25, mean_minutes: 25, min_minutes: 5, max_minutes: 120, hang_share: 0.2 },
    stale: { rate_per_day: 0.4, mean_minutes: 25, min_minutes: 10, max_minutes: 120 },
    spike: { rate_per_day: 0.6, size: 0.025 },
    limit: { kind: "fixed-window", limit: 10, window_ms: 1_000 },
    ban: { ignored_before_ban: 1, duration_minutes: 10, status: 403 },
  },
  "binance-index": {
    venue: "binance-index",
    style: "binance-index",
    host: "fapi.binance.com",
    latency: { base_ms: 70, jitter_ms: 50 },
    outage: { rate_per_day: 0.1, mean_minutes: 15, min_minutes: 5, max_minutes: 60, hang_share: 0.5 },
    stale: { rate_per_day: 0.2, mean_minutes: 20, min_minutes: 10, max_minutes: 60 },
    spike: { rate_per_day: 0.3, size: 0.01 },
    limit: { kind: "sliding-window", limit: 2400, window_ms: 60_000 },
    ban: { ignored_before_ban: 1, duration_minutes: 30, status: 418 },
  },
};

/** 5xx statuses an error-type outage answers with (drawn per outage). */
export const OUTAGE_STATUSES = [500, 502, 503, 504] as const;
