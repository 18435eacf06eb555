import { type AsOfView, NotVisibleError } from "../../world/as-of-view.js";
import type { MarketResolutionRow, MarketRow } from "../../world/types.js";

export type QuestionStatus = "open" | "closed" | "resolved";

/** A question as the agent may know it at `now`. */
export interface AgentQuestion {
  market: MarketRow;
  /** the instant the question became forecastable: max(open, visible_at) */
  available_at: number;
  status: QuestionStatus;
  /** the market's result, only once its resolution row is visible */
  resolution: { result: string; closed_at: number } | null;
}

/** The markets that are questions of this task: the id starts with the prefix and there are two outcomes. */
export function isTaskMarket(m: Pick<MarketRow, "id" | "outcomes">, prefix: string): boolean {
  return m.id.startsWith(prefix) && m.outcomes.length === 2;
}

/**
 * Agent-side reading of the questions, through the as-of view only: a question is listed once its
 * market row is visible and open (`open ≤ now`); before that, like any id that is not a question of
 * this task, it gives the view's `NotVisibleError("question", id)`, so unknown and unactivated ids
 * are indistinguishable. `resolved` is known only from a visible `market_resolution` row; `closed`
 * means the scheduled end (public from the start) has passed without a visible resolution.
 */
export class AgentQuestions {
  constructor(
    private readonly view: AsOfView,
    private readonly prefix: string,
  ) {}

  list(): AgentQuestion[] {
    const now = this.view.now();
    const res = this.resolutions();
    return this.view.markets
      .list()
      .filter((m) => isTaskMarket(m, this.prefix) && m.open <= now)
      .map((m) => this.describe(m, res.get(m.id) ?? null, now));
  }

  get(id: string): AgentQuestion {
    const now = this.view.now();
    let m: MarketRow;
    try {
      m = this.view.markets.get(id);
    } catch (err) {
      if (err instanceof NotVisibleError) throw new NotVisibleError("question", id);
      throw err;
    }
    if (!isTaskMarket(m, this.prefix) || m.open > now) throw new NotVisibleError("question", id);
    return this.describe(m, this.resolutions().get(id) ?? null, now);
  }

  private resolutions(): Map<string, MarketResolutionRow> {
    const out = new Map<string, MarketResolutionRow>();
    for (const r of this.view.markets.resolutions()) if (!out.has(r.market)) out.set(r.market, r);
    return out;
  }

  private describe(m: MarketRow, r: MarketResolutionRow | null, now: number): AgentQuestion {
    const status: QuestionStatus = r ? "resolved" : now >= m.scheduled_end ? "closed" : "open";
    return {
      market: m,
      available_at: Math.max(m.open, m.visible_at),
      status,
      resolution: r ? { result: r.result, closed_at: r.closed_at } : null,
    };
  }
}
