import { NotVisibleError } from "../../world/as-of-view.js";
function isTaskMarket(m, prefix) {
  return m.id.startsWith(prefix) && m.outcomes.length === 2;
}
class AgentQuestions {
  constructor(view, prefix) {
    this.view = view;
    this.prefix = prefix;
  }
  view;
  prefix;
  list() {
    const now = this.view.now();
    const res = this.resolutions();
    return this.view.markets.list().filter((m) => isTaskMarket(m, this.prefix) && m.open <= now).map((m) => this.describe(m, res.get(m.id) ?? null, now));
  }
  get(id) {
    const now = this.view.now();
    let m;
    try {
      m = this.view.markets.get(id);
    } catch (err) {
      if (err instanceof NotVisibleError) throw new NotVisibleError("question", id);
      throw err;
    }
    if (!isTaskMarket(m, this.prefix) || m.open > now) throw new NotVisibleError("question", id);
    return this.describe(m, this.resolutions().get(id) ?? null, now);
  }
  resolutions() {
    const out = /* @__PURE__ */ new Map();
    for (const r of this.view.markets.resolutions()) if (!out.has(r.market)) out.set(r.market, r);
    return out;
  }
  describe(m, r, now) {
    const status = r ? "resolved" : now >= m.scheduled_end ? "closed" : "open";
    return {
      market: m,
      available_at: Math.max(m.open, m.visible_at),
      status,
      resolution: r ? { result: r.result, closed_at: r.closed_at } : null
    };
  }
}
export {
  AgentQuestions,
  isTaskMarket
};
//# sourceMappingURL=questions.js.map
