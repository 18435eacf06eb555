import { z } from "zod";

/** Default price of one `http_fetch` call (USD): $0.0001, i.e. 10,000 calls per dollar. */
export const DEFAULT_HTTP_FETCH_USD = 0.0001;

/**
 * price-check parameters (run config `task_params`). Defaults follow tasks.md §5. Where a field is
 * null, it is derived from the world: `truth_interval_ms` = the smallest candle interval the world
 * carries (synthetic worlds: 5 min; the hourly real-data recipes: 1 h); `symbols` / `venues` = every symbol / venue of
 * the world that the pinned venue table serves.
 */
export const PriceCheckParams = z
  .object({
    /** USD per http_fetch call (every call that passes argument validation, whatever its status) */
    http_fetch_usd: z.number().nonnegative().default(DEFAULT_HTTP_FETCH_USD),
    /** interval of the candles whose close defines the truth; null = the world's smallest interval */
    truth_interval_ms: z.number().int().positive().nullable().default(null),
    /** symbols scored each hour; null = every symbol of the world on a served venue */
    symbols: z.array(z.string().min(1)).min(1).nullable().default(null),
    /** venues served (and forming the truth); null = every venue of the world in the venue table */
    venues: z.array(z.string().min(1)).min(1).nullable().default(null),
    /** a report is `ok` when its error is at most this many basis points */
    ok_bps: z.number().nonnegative().default(5),
    /** cap of a priced report's excess error (bps above ok_bps) */
    excess_cap_bps: z.number().positive().default(250),
    /** abstain-rate constraint (reported, not penalized) */
    abstain_constraint: z.number().min(0).max(1).default(0.1),
    /** false disables the incident trace (clean replay; for calibration and tests) */
    incidents: z.boolean().default(true),
    /** the largest timeout_s http_fetch accepts */
    max_timeout_s: z.number().positive().max(30).default(30),
  })
  .strict();

export type PriceCheckParams = z.output<typeof PriceCheckParams>;

export const defaultPriceCheckParams = (): PriceCheckParams => PriceCheckParams.parse({});
