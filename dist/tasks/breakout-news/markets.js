const COORDINATOR_ACTOR = "coordinator";
const MARKET_ACTOR_PREFIX = "market-";
const marketActorId = (marketId) => `${MARKET_ACTOR_PREFIX}${marketId.toLowerCase().replace(/[^a-z0-9_-]+/g, "-").slice(0, 64 - MARKET_ACTOR_PREFIX.length)}`;
function isMonitored(id, p) {
  return p.markets ? p.markets.includes(id) : id.startsWith(p.market_prefix);
}
const hasExplicitScopes = (p) => Object.keys(p.actor_markets).length > 0;
function inScope(actor, marketId, p) {
  if (!isMonitored(marketId, p)) return false;
  if (hasExplicitScopes(p)) {
    const own = Object.hasOwn(p.actor_markets, actor) ? p.actor_markets[actor] : void 0;
    return own === void 0 || own.includes(marketId);
  }
  return !actor.startsWith(MARKET_ACTOR_PREFIX) || marketActorId(marketId) === actor;
}
function isScoped(actor, p) {
  return hasExplicitScopes(p) ? Object.hasOwn(p.actor_markets, actor) : actor.startsWith(MARKET_ACTOR_PREFIX);
}
function perMarketActorMarkets(marketIds) {
  return Object.fromEntries(marketIds.map((id) => [marketActorId(id), [id]]));
}
export {
  COORDINATOR_ACTOR,
  MARKET_ACTOR_PREFIX,
  inScope,
  isMonitored,
  isScoped,
  marketActorId,
  perMarketActorMarkets
};
//# sourceMappingURL=markets.js.map
