import { isMonitored } from "./markets.js";
import { windowMs } from "./params.js";
class BreakoutTruth {
  breakpoints;
  byMarket = /* @__PURE__ */ new Map();
  /** monitored markets of the world, by id */
  markets;
  newsStmt;
  marketStmt;
  lastPriceVisibleStmt;
  delayMs;
  constructor(truth, world, p) {
    const W = windowMs(p);
    this.delayMs = p.price_delay_minutes * 6e4;
    this.newsStmt = world.db.prepare("SELECT published_at, visible_at FROM news WHERE id = ?");
    this.marketStmt = world.db.prepare("SELECT visible_at FROM market WHERE id = ?");
    this.lastPriceVisibleStmt = world.db.prepare(
      "SELECT MAX(visible_at) AS v FROM market_price WHERE market = ? AND t <= ?"
    );
    this.markets = world.db.prepare("SELECT id FROM market ORDER BY id").all().map((r) => r.id).filter((id) => isMonitored(id, p));
    const attributions = truth.attributions();
    const byBp = /* @__PURE__ */ new Map();
    for (const a of attributions) {
      const list = byBp.get(a.breakpoint) ?? [];
      list.push(a);
      byBp.set(a.breakpoint, list);
    }
    this.breakpoints = [];
    for (const b of truth.breakpoints()) {
      if (!isMonitored(b.market, p) || b.size === 0) continue;
      const attrs = byBp.get(b.id) ?? [];
      const confident = attrs.filter((a) => a.confidence >= p.gold_min_confidence);
      const groups = /* @__PURE__ */ new Map();
      for (const a of confident) {
        const n = this.news(a.news_id);
        if (!n || n.published_at < b.t_start - W || n.published_at >= b.t_start) continue;
        const list2 = groups.get(a.group_id) ?? [];
        if (!list2.some((x) => x.news_id === a.news_id))
          list2.push({ news_id: a.news_id, published_at: n.published_at, confidence: a.confidence });
        groups.set(a.group_id, list2);
      }
      const gold = [...groups.entries()].sort(([x], [y]) => x < y ? -1 : x > y ? 1 : 0).map(([group, articles]) => ({
        group,
        articles: articles.sort((x, y) => x.published_at - y.published_at || (x.news_id < y.news_id ? -1 : 1))
      }));
      const reason = gold.length > 0 ? null : attrs.length === 0 ? "no attributed article" : confident.length === 0 ? `no attribution with confidence \u2265 ${p.gold_min_confidence}` : `no attributed article with confidence \u2265 ${p.gold_min_confidence} published in [t_start \u2212 ${p.window_hours} h, t_start)`;
      const bp = {
        id: b.id,
        market: b.market,
        t_start: b.t_start,
        t_end: b.t_end,
        size: b.size,
        direction: b.size > 0 ? "up" : "down",
        gold,
        goldIds: new Set(gold.flatMap((g) => g.articles.map((a) => a.news_id))),
        reason
      };
      this.breakpoints.push(bp);
      const list = this.byMarket.get(b.market) ?? [];
      list.push(bp);
      this.byMarket.set(b.market, list);
    }
    this.breakpoints.sort((x, y) => x.t_start - y.t_start || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
    for (const list of this.byMarket.values()) list.sort((x, y) => x.t_start - y.t_start || (x.id < y.id ? -1 : 1));
  }
  /** breakpoints of one market by t_start */
  ofMarket(market) {
    return this.byMarket.get(market) ?? [];
  }
  news(id) {
    return this.newsStmt.get(id) ?? null;
  }
  /**
   * The first instant an agent can know a market's prices up to `t`: `get_prices` shows a point at
   * t' once now ≥ t' + price_delay_minutes and its row is visible, so the level at `t` (and every
   * move before it) is known at max(t + delay, the latest visible_at of the market's points ≤ t).
   */
  pricesKnownAt(market, t) {
    const v = this.lastPriceVisibleStmt.get(market, t).v;
    return Math.max(t + this.delayMs, v ?? t);
  }
  /**
   * When a breakpoint's facts (its start, direction and `size` = the move to its END price) are
   * visible: once the prices through `t_end` are, and every gold article of it is.
   */
  breakpointKnownAt(bp) {
    let at = this.pricesKnownAt(bp.market, bp.t_end);
    for (const id of bp.goldIds) at = Math.max(at, this.news(id)?.visible_at ?? at);
    return at;
  }
  /** the instant a market row becomes visible, or null for an unknown market */
  marketVisibleAt(id) {
    return this.marketStmt.get(id)?.visible_at ?? null;
  }
}
export {
  BreakoutTruth
};
//# sourceMappingURL=breakout-truth.js.map
