class ScorerBase {
  /** time of the first `llm_rejected` event (the budget-exhaustion rule), null while the LLM cap holds */
  budgetExhaustedAt = null;
  onCommitment(_e) {
  }
  onToolCall(_e) {
  }
  onEvent(e) {
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
      case "run_end":
        return;
      default: {
        const never = e;
        throw new Error(`unhandled ledger event ${JSON.stringify(never)}`);
      }
    }
  }
}
export {
  ScorerBase
};
//# sourceMappingURL=scorer-base.js.map
