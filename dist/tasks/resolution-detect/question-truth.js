import { isQuestion } from "./params.js";
class ResolutionTruth {
  questions;
  byId = /* @__PURE__ */ new Map();
  newsStmt;
  constructor(truth, world, p) {
    const det = /* @__PURE__ */ new Map();
    for (const l of truth.labels("t_det")) {
      const outcome = l.value.outcome;
      if (l.t !== null && typeof outcome === "string" && !det.has(l.key)) det.set(l.key, { t: l.t, outcome });
    }
    const res = /* @__PURE__ */ new Map();
    for (const r of world.db.prepare("SELECT market, closed_at, result, visible_at FROM market_resolution ORDER BY visible_at, rowid").all())
      if (!res.has(r.market)) res.set(r.market, { closed_at: r.closed_at, result: r.result, visible_at: r.visible_at });
    const rows = world.db.prepare("SELECT id, outcomes, visible_at FROM market ORDER BY id").all();
    this.questions = rows.filter((r) => isQuestion(r.id, p)).map((r) => {
      const d = det.get(r.id);
      const z = res.get(r.id);
      return {
        id: r.id,
        visible_at: r.visible_at,
        outcomes: JSON.parse(r.outcomes),
        t_det: d?.t ?? null,
        det_outcome: d?.outcome ?? null,
        closed_at: z?.closed_at ?? null,
        result: z?.result ?? null,
        resolution_visible_at: z?.visible_at ?? null
      };
    });
    for (const q of this.questions) this.byId.set(q.id, q);
    this.newsStmt = world.db.prepare("SELECT visible_at FROM news WHERE id = ?");
  }
  get(id) {
    return this.byId.get(id) ?? null;
  }
  /** the instant an article becomes visible, or null for an unknown id */
  newsVisibleAt(id) {
    return this.newsStmt.get(id)?.visible_at ?? null;
  }
}
export {
  ResolutionTruth
};
//# sourceMappingURL=question-truth.js.map
