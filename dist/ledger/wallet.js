class Wallet {
  constructor(limits) {
    this.limits = limits;
  }
  limits;
  total = 0;
  byDomain = /* @__PURE__ */ new Map();
  byType = /* @__PURE__ */ new Map();
  apply(e) {
    switch (e.type) {
      case "tool_call":
        if (e.cost_usd > 0) this.book(e.domain, `tool:${e.tool}`, e.cost_usd);
        break;
      case "llm_call":
        if (e.cost_usd > 0) this.book("llm", "llm", e.cost_usd);
        break;
      case "run_start":
      case "wake":
      case "wait":
      case "commitment":
      case "outcome":
      case "daily_brief":
      case "llm_rejected":
      case "note":
      case "run_end":
        break;
      default: {
        const never = e;
        throw new Error(`unhandled ledger event ${JSON.stringify(never)}`);
      }
    }
  }
  book(domain, type, usd) {
    this.total += usd;
    this.byDomain.set(domain, (this.byDomain.get(domain) ?? 0) + usd);
    this.byType.set(type, (this.byType.get(type) ?? 0) + usd);
  }
  get spent() {
    return this.total;
  }
  spentIn(domain) {
    return this.byDomain.get(domain) ?? 0;
  }
  spendByType() {
    return Object.fromEntries([...this.byType.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }
  spendByDomain() {
    return Object.fromEntries([...this.byDomain.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }
  /** null when a call in `domain` may be made now, else the reason it is refused. */
  refusal(domain) {
    if (this.total >= this.limits.budget_usd)
      return `budget exhausted: spent $${this.total.toFixed(4)} of $${this.limits.budget_usd}`;
    const cap = this.limits.domain_caps[domain];
    if (cap !== void 0 && this.spentIn(domain) >= cap)
      return `${domain} budget exhausted: spent $${this.spentIn(domain).toFixed(4)} of $${cap}`;
    return null;
  }
  /** How far spend went past the budget (0 when within). */
  get overshoot() {
    return Math.max(0, this.total - this.limits.budget_usd);
  }
}
export {
  Wallet
};
//# sourceMappingURL=wallet.js.map
