import type { BreakoutNewsParams } from "./params.js";

/** Actor id of the coordinator in the "one agent per market plus a coordinator" program shape. */
export const COORDINATOR_ACTOR = "coordinator";

export const MARKET_ACTOR_PREFIX = "market-";

/**
 * Actor id of the agent watching one market in that program shape: `market-` + the market id
 * lowercased with every run of characters outside [a-z0-9_-] replaced by "-" (a valid actor id
 * for any market id up to 57 characters).
 */
export const marketActorId = (marketId: string) =>
  `${MARKET_ACTOR_PREFIX}${marketId
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .slice(0, 64 - MARKET_ACTOR_PREFIX.length)}`;

/** Whether the task monitors a market: listed in `markets`, else its id starts with `market_prefix`. */
export function isMonitored(id: string, p: BreakoutNewsParams): boolean {
  return p.markets ? p.markets.includes(id) : id.startsWith(p.market_prefix);
}

const hasExplicitScopes = (p: BreakoutNewsParams) => Object.keys(p.actor_markets).length > 0;

/**
 * Whether `actor` may list and notify `marketId` (which must be monitored). With `actor_markets`
 * set, a listed actor is limited to its markets and any other actor sees every market. Without it,
 * the per-market program shape's convention applies: an actor id `market-…` is limited to the
 * market whose `marketActorId` it is; every other actor (e.g. `agent`, `coordinator`) sees all.
 */
export function inScope(actor: string, marketId: string, p: BreakoutNewsParams): boolean {
  if (!isMonitored(marketId, p)) return false;
  if (hasExplicitScopes(p)) {
    const own = Object.hasOwn(p.actor_markets, actor) ? p.actor_markets[actor] : undefined;
    return own === undefined || own.includes(marketId);
  }
  return !actor.startsWith(MARKET_ACTOR_PREFIX) || marketActorId(marketId) === actor;
}

/** Whether an actor is limited to some markets (see `inScope`). */
export function isScoped(actor: string, p: BreakoutNewsParams): boolean {
  return hasExplicitScopes(p) ? Object.hasOwn(p.actor_markets, actor) : actor.startsWith(MARKET_ACTOR_PREFIX);
}

/** `actor_markets` for the per-market program shape: one actor per market id (the coordinator is unscoped). */
export function perMarketActorMarkets(marketIds: readonly string[]): Record<string, string[]> {
  return Object.fromEntries(marketIds.map((id) => [marketActorId(id), [id]]));
}
