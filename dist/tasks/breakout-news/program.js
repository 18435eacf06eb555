import { GET_ARTICLE_TOOL, SEARCH_NEWS_TOOL } from "../news-tools.js";
import { renderInstruction } from "./instruction.js";
import { COORDINATOR_ACTOR, isMonitored, marketActorId, perMarketActorMarkets } from "./markets.js";
import { GET_MARKETS_TOOL, GET_PRICES_TOOL, NOTIFY_TOOL } from "./tools.js";
function monitoredMarketIds(view, p) {
  return view.markets.list().map((m) => m.id).filter((id) => isMonitored(id, p)).sort();
}
function perMarketParams(marketIds) {
  return { actor_markets: perMarketActorMarkets(marketIds) };
}
const MARKET_TOOLS = [GET_MARKETS_TOOL, GET_PRICES_TOOL, SEARCH_NEWS_TOOL, GET_ARTICLE_TOOL, NOTIFY_TOOL];
const COORDINATOR_TOOLS = [GET_MARKETS_TOOL, GET_PRICES_TOOL, SEARCH_NEWS_TOOL, GET_ARTICLE_TOOL];
function breakoutActors(ctx) {
  const explicit = Object.entries(ctx.params.actor_markets);
  const entries = explicit.length > 0 ? explicit : monitoredMarketIds(ctx.view, ctx.params).map((id) => [marketActorId(id), [id]]);
  entries.sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
  const ids = /* @__PURE__ */ new Set([COORDINATOR_ACTOR]);
  for (const [id] of entries) {
    if (ids.has(id))
      throw new Error(`breakout-news: actor id "${id}" is used twice (the coordinator's, or two markets')`);
    ids.add(id);
  }
  const base = { params: ctx.params, sim_start: ctx.sim_start, sim_end: ctx.sim_end, budget_usd: ctx.budget_usd };
  return [
    {
      id: COORDINATOR_ACTOR,
      role: "coordinator",
      markets: null,
      tools: COORDINATOR_TOOLS,
      instruction: renderInstruction({ ...base, coordinator: true })
    },
    ...entries.map(([id, markets]) => ({
      id,
      role: "market",
      markets: [...markets],
      tools: MARKET_TOOLS,
      instruction: renderInstruction({ ...base, scope: markets })
    }))
  ];
}
export {
  breakoutActors,
  monitoredMarketIds,
  perMarketParams
};
//# sourceMappingURL=program.js.map
