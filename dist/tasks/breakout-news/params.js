import { z } from "zod";
import { NEWS_DEFAULT_ARTICLE_USD, NEWS_DEFAULT_SEARCH_USD } from "../news-tools.js";
const BreakoutNewsParams = z.object({
  /** USD per `search_news` page of 10 */
  search_usd: z.number().nonnegative().default(NEWS_DEFAULT_SEARCH_USD),
  /** USD per `get_article` */
  article_usd: z.number().nonnegative().default(NEWS_DEFAULT_ARTICLE_USD),
  /** W: a claim covers a breakout starting in (τ, τ + W]; gold articles are published in [t_start − W, t_start) */
  window_hours: z.number().positive().max(24 * 30).default(24),
  /** attributions with at least this confidence make gold articles */
  gold_min_confidence: z.number().min(0).max(1).default(0.6),
  /** credit of a covering claim that cites no gold article (`covered_timing`) */
  timing_credit: z.number().min(0).max(1).default(0.7),
  /** monitored markets: every market whose id starts with this prefix (ignored when `markets` is set) */
  market_prefix: z.string().default("brk-"),
  /** monitored markets by id (overrides `market_prefix`) */
  markets: z.array(z.string().min(1)).min(1).optional(),
  /**
   * Program shape "one agent per market": actor id → the markets that actor may list and notify.
   * Actors not listed see every monitored market. Prices and news stay readable by every actor.
   */
  actor_markets: z.record(z.string().min(1), z.array(z.string().min(1)).min(1)).default({}),
  /** a price point at t is visible at t + this (the world's delay; `visible_until` = now − this) */
  price_delay_minutes: z.number().int().min(0).max(24 * 60).default(10),
  /** most points one `get_prices` answer may hold (changes or grid points); more is a free rejection */
  max_price_points: z.number().int().positive().default(2e3),
  /** `self` labels: a durable move is at least this far (absolute first-outcome price) from the level at the claim */
  self_move_threshold: z.number().positive().max(1).default(0.05),
  /** `self` labels: ... and stays that far for this many minutes */
  self_hold_minutes: z.number().int().min(0).max(7 * 24 * 60).default(120)
}).strict();
const windowMs = (p) => Math.round(p.window_hours * 36e5);
export {
  BreakoutNewsParams,
  windowMs
};
//# sourceMappingURL=params.js.map
