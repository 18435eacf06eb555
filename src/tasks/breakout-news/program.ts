import type { AsOfView } from "../../world/as-of-view.js";
import { GET_ARTICLE_TOOL, SEARCH_NEWS_TOOL } from "../news-tools.js";
import type { ProgramActor, TaskRunContext } from "../task.js";
import { renderInstruction } from "./instruction.js";
import { COORDINATOR_ACTOR, isMonitored, marketActorId, perMarketActorMarkets } from "./markets.js";
import type { BreakoutNewsParams } from "./params.js";
import { GET_MARKETS_TOOL, GET_PRICES_TOOL, NOTIFY_TOOL } from "./tools.js";

/**
 * The spec's program shape "one agent per market plus a coordinator, all in one wait party"
 * (`TaskDefinition.program`, used by LLM runs unless `agent.program: single`). The task's tools
 * enforce the scopes themselves from the calling actor's id (see `markets.ts`), so one shared
 * tool runtime and one claim book serve every actor.
 */
export interface BreakoutActor extends ProgramActor {
  role: "coordinator" | "market";
  /** the markets the actor may list and notify (null: every monitored market) */
  markets: string[] | null;
}

/** Ids of the monitored markets visible now, sorted. */
export function monitoredMarketIds(view: AsOfView, p: BreakoutNewsParams): string[] {
  return view.markets
    .list()
    .map((m) => m.id)
    .filter((id) => isMonitored(id, p))
    .sort();
}

/** An explicit `task_params` patch for the per-market shape (the default derives the same from the world). */
export function perMarketParams(marketIds: readonly string[]): Pick<BreakoutNewsParams, "actor_markets"> {
  return { actor_markets: perMarketActorMarkets(marketIds) };
}

const MARKET_TOOLS = [GET_MARKETS_TOOL, GET_PRICES_TOOL, SEARCH_NEWS_TOOL, GET_ARTICLE_TOOL, NOTIFY_TOOL];
const COORDINATOR_TOOLS = [GET_MARKETS_TOOL, GET_PRICES_TOOL, SEARCH_NEWS_TOOL, GET_ARTICLE_TOOL];

/**
 * The actors: the coordinator (every monitored market visible, no `notify`) and one actor per
 * market, from `actor_markets` when set, else one `market-<id>` actor per monitored market
 * visible at the context's now (sim_start when the runner asks); markets added later are seen by
 * the coordinator only. Market actors come sorted by id (the kernel resumes waiters in id order).
 */
export function breakoutActors(ctx: TaskRunContext<BreakoutNewsParams>): BreakoutActor[] {
  const explicit = Object.entries(ctx.params.actor_markets);
  const entries =
    explicit.length > 0
      ? explicit
      : monitoredMarketIds(ctx.view, ctx.params).map((id) => [marketActorId(id), [id]] as [string, string[]]);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const ids = new Set<string>([COORDINATOR_ACTOR]);
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
      instruction: renderInstruction({ ...base, coordinator: true }),
    },
    ...entries.map(([id, markets]) => ({
      id,
      role: "market" as const,
      markets: [...markets],
      tools: MARKET_TOOLS,
      instruction: renderInstruction({ ...base, scope: markets }),
    })),
  ];
}
