import type { EventOf, LedgerEvent } from "../ledger/events.js";
import type { Outcome, ScoreReport, Scorer } from "./task.js";

export type CommitmentEvent = EventOf<"commitment">;
export type ToolCallEvent = EventOf<"tool_call">;

/**
 * The one place that switches over ledger event types for scorers. A scorer sees only what scoring
 * needs: accepted commitments, the calls of the tools it declares in `watchedTools` (any status:
 * evidence reads, rejected commitments), and the first budget exhaustion (`llm_rejected`). Adding
 * a ledger event type touches the ledger and this switch only.
 */
export abstract class ScorerBase implements Scorer {
  /** tools whose `tool_call` lines (every status) reach `onToolCall` */
  protected abstract readonly watchedTools: ReadonlySet<string>;
  /** time of the first `llm_rejected` event (the budget-exhaustion rule), null while the LLM cap holds */
  protected budgetExhaustedAt: number | null = null;

  protected onCommitment(_e: CommitmentEvent): void {}
  protected onToolCall(_e: ToolCallEvent): void {}

  onEvent(e: LedgerEvent): void {
    switch (e.type) {
      case "commitment":
        this.onCommitment(e);
        return;
      case "tool_call":
        if (this.watchedTools.has(e.tool)) this.onToolCall(e);
        return;
      case "llm_rejected":
        if (this.budgetExhaustedAt === null) this.budgetExhaustedAt = e.t;
        return;
      case "run_start":
      case "wake":
      case "wait":
      case "outcome":
      case "daily_brief":
      case "llm_call":
      case "note":
      case "prune":
      case "run_end":
        return;
      default: {
        const never: never = e;
        throw new Error(`unhandled ledger event ${JSON.stringify(never)}`);
      }
    }
  }

  abstract settle(t: number): Outcome[];
  abstract report(): ScoreReport;
}
