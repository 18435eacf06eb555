import { isTaskMarket } from "./questions.js";
class MarketFacts {
  markets;
  resolutionByMarket = /* @__PURE__ */ new Map();
  priceStmt;
  priceAtStmt;
  newsStmt;
  constructor(db, prefix) {
    this.markets = db.prepare("SELECT * FROM market ORDER BY open, id").all().map((r) => ({ ...r, outcomes: JSON.parse(r.outcomes) })).filter((m) => isTaskMarket(m, prefix));
    const rows = db.prepare(
      "SELECT market, closed_at, result, visible_at FROM market_resolution ORDER BY closed_at, market, visible_at, rowid"
    ).all();
    for (const r of rows) if (!this.resolutionByMarket.has(r.market)) this.resolutionByMarket.set(r.market, r);
    this.priceStmt = db.prepare(
      "SELECT t, p, visible_at FROM market_price WHERE market = ? AND outcome = ? ORDER BY visible_at, t, rowid"
    );
    this.priceAtStmt = db.prepare(
      "SELECT p FROM market_price WHERE market = ? AND outcome = ? AND visible_at <= ? ORDER BY t DESC, visible_at DESC, rowid DESC LIMIT 1"
    );
    this.newsStmt = db.prepare("SELECT visible_at FROM news WHERE id = ?");
  }
  market(id) {
    return this.markets.find((m) => m.id === id);
  }
  resolution(id) {
    return this.resolutionByMarket.get(id) ?? null;
  }
  /** every price point of one outcome, by visibility */
  prices(market, outcome) {
    return this.priceStmt.all(market, outcome);
  }
  /** the price of `outcome` standing for an observer at `now`: the latest point (by t) visible at now */
  priceAt(market, outcome, now) {
    return this.priceAtStmt.get(market, outcome, now)?.p ?? null;
  }
  /** when an article became visible (null: no such article) */
  newsVisibleAt(id) {
    return this.newsStmt.get(id)?.visible_at ?? null;
  }
}
export {
  MarketFacts
};
//# sourceMappingURL=market-facts.js.map
