import { isoDay } from "../../common/time.js";
import type { BreakoutNewsParams } from "./params.js";

export interface InstructionInput {
  params: BreakoutNewsParams;
  sim_start: number;
  sim_end: number;
  budget_usd: number;
  /** per-market program shape: the markets this actor watches (null: every monitored market) */
  scope?: readonly string[] | null;
  /** the coordinator of the per-market program shape */
  coordinator?: boolean;
}

/** The agent's task text, rendered with the run's real budget, prices, window and scope. */
export function renderInstruction(o: InstructionInput): string {
  const p = o.params;
  const W = `${p.window_hours} hours`;
  const scope = o.scope ?? null;
  const who =
    scope !== null
      ? `You watch ${scope.length === 1 ? `market ${scope[0]}` : `markets ${scope.join(", ")}`} (other agents watch the ` +
        "other markets; a coordinator may send you notes: read them with `read_messages`)."
      : o.coordinator
        ? "You coordinate the agents that each watch one market: every monitored market is visible to you, including " +
          "markets added after the start that no market agent watches. You make no claims yourself (you have no " +
          "`notify`): the market agents make them, each for its own market. Tell them what you find with " +
          "`send_message`; they read it at their next wake."
        : "You watch every market that `get_markets` lists.";
  const claimer = o.coordinator ? "the market agents say so with `notify`" : "say so with `notify`";
  return [
    "# Breakout news detection",
    "",
    `You run from ${isoDay(o.sim_start)} to ${isoDay(o.sim_end - 1)} (UTC, inclusive) over a replay of prediction markets ` +
      `and a news corpus. Your job: spot the news that will move a market before the move happens, and ${claimer}.`,
    who,
    "",
    "## What a claim means",
    `- \`notify(market_id, news_id, direction)\` claims that a breakout (a large, fast move) of the market's first-outcome ` +
      `price in \`direction\` ("up" or "down") starts within ${W} after your claim. Cite the published article that ` +
      "motivates it.",
    `- One pending claim per market: a claim stays pending for ${W} after you make it, whatever happens in the market.`,
    "- Rejected (free; nothing is used up): a direction other than up/down, a market you do not monitor, an unknown or " +
      "unpublished article, a claim already pending on that market.",
    "",
    "## Scoring",
    `- A breakout is covered by your earliest pending same-direction claim made before it starts and at most ${W} ` +
      "earlier. A breakout with no such claim is missed.",
    "- A claim that covered nothing counts against your precision when its window ends (a claim in the wrong direction " +
      "is not counted against you when the breakout it missed was missed anyway).",
    "- Main score: F1 of precision (covering claims / resolved claims) and coverage (covered breakouts / all breakouts). " +
      "Also reported: a time-credited F1 where a cover that cites an article the move is later attributed to earns " +
      "more the sooner after that article you claimed, and a cover without such an article earns " +
      `${p.timing_credit}.`,
    "- Claims whose window ends after the run are not scored.",
    "",
    "## Tools and costs",
    "- `get_markets()` and `get_prices(market_id, start, end, grid_minutes?)` are free. Prices are sparse (a point only " +
      `when the price changes); a price at time t becomes visible at t + ${p.price_delay_minutes} minutes, and ` +
      "`get_prices` says up to when prices are visible (`visible_until`).",
    `- \`search_news(q, date_from?, date_to?, offset?)\` costs $${p.search_usd} per page of 10 hits; ` +
      `\`get_article(news_id)\` costs $${p.article_usd}. You only ever see articles published up to now.`,
    o.coordinator ? "- You have no `notify`; the market agents' `notify` is free." : "- `notify` is free.",
    scope !== null || o.coordinator
      ? `- The total budget is $${o.budget_usd.toFixed(2)} for everything (model calls included), shared by all agents of ` +
        "the run; so is the one pending claim per market."
      : `- Your total budget is $${o.budget_usd.toFixed(2)} for everything (model calls included).`,
  ].join("\n");
}
