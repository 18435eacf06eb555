import type { TruthStore } from "../../world/truth-store.js";
import type { WorldStore } from "../../world/world-store.js";
import { isMonitored } from "./markets.js";
import { type BreakoutNewsParams, windowMs } from "./params.js";

export type Direction = "up" | "down";

export interface GoldArticle {
  news_id: string;
  published_at: number;
  confidence: number;
}

export interface GoldGroup {
  group: string;
  articles: GoldArticle[];
}

export interface Breakpoint {
  id: string;
  market: string;
  t_start: number;
  t_end: number;
  size: number;
  direction: Direction;
  /** attribution groups with at least one gold article (empty: not winnable) */
  gold: GoldGroup[];
  goldIds: ReadonlySet<string>;
  /** why the breakpoint is not winnable (null when it is) */
  reason: string | null;
}

/**
 * Scorer-side facts of breakout-news, read from the truth store and the untouched world (never
 * handed to an agent): the monitored markets' breakpoints with their gold articles, and article
 * and market visibility for re-checking claims.
 *
 * Gold articles of a breakpoint: articles cited by an attribution with confidence ≥
 * `gold_min_confidence` and published in [t_start − W, t_start). A breakpoint is winnable when it
 * has at least one. Direction: up when the first outcome's price rose (size > 0).
 */
export class BreakoutTruth {
  readonly breakpoints: Breakpoint[];
  private readonly byMarket = new Map<string, Breakpoint[]>();
  /** monitored markets of the world, by id */
  readonly markets: string[];
  private readonly newsStmt;
  private readonly marketStmt;
  private readonly lastPriceVisibleStmt;
  private readonly delayMs: number;

  constructor(truth: TruthStore, world: WorldStore, p: BreakoutNewsParams) {
    const W = windowMs(p);
    this.delayMs = p.price_delay_minutes * 60_000;
    this.newsStmt = world.db.prepare("SELECT published_at, visible_at FROM news WHERE id = ?");
    this.marketStmt = world.db.prepare("SELECT visible_at FROM market WHERE id = ?");
    this.lastPriceVisibleStmt = world.db.prepare(
      "SELECT MAX(visible_at) AS v FROM market_price WHERE market = ? AND t <= ?",
    );
    this.markets = (world.db.prepare("SELECT id FROM market ORDER BY id").all() as { id: string }[])
      .map((r) => r.id)
      .filter((id) => isMonitored(id, p));
    const attributions = truth.attributions();
    const byBp = new Map<string, typeof attributions>();
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
      const groups = new Map<string, GoldArticle[]>();
      for (const a of confident) {
        const n = this.news(a.news_id);
        if (!n || n.published_at < b.t_start - W || n.published_at >= b.t_start) continue;
        const list = groups.get(a.group_id) ?? [];
        if (!list.some((x) => x.news_id === a.news_id))
          list.push({ news_id: a.news_id, published_at: n.published_at, confidence: a.confidence });
        groups.set(a.group_id, list);
      }
      const gold = [...groups.entries()]
        .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
        .map(([group, articles]) => ({
          group,
          articles: articles.sort((x, y) => x.published_at - y.published_at || (x.news_id < y.news_id ? -1 : 1)),
        }));
      const reason =
        gold.length > 0
          ? null
          : attrs.length === 0
            ? "no attributed article"
            : confident.length === 0
              ? `no attribution with confidence ≥ ${p.gold_min_confidence}`
              : `no attributed article with confidence ≥ ${p.gold_min_confidence} published in [t_start − ${p.window_hours} h, t_start)`;
      const bp: Breakpoint = {
        id: b.id,
        market: b.market,
        t_start: b.t_start,
        t_end: b.t_end,
        size: b.size,
        direction: b.size > 0 ? "up" : "down",
        gold,
        goldIds: new Set(gold.flatMap((g) => g.articles.map((a) => a.news_id))),
        reason,
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
  ofMarket(market: string): readonly Breakpoint[] {
    return this.byMarket.get(market) ?? [];
  }

  news(id: string): { published_at: number; visible_at: number } | null {
    return (this.newsStmt.get(id) as { published_at: number; visible_at: number } | undefined) ?? null;
  }

  /**
   * The first instant an agent can know a market's prices up to `t`: `get_prices` shows a point at
   * t' once now ≥ t' + price_delay_minutes and its row is visible, so the level at `t` (and every
   * move before it) is known at max(t + delay, the latest visible_at of the market's points ≤ t).
   */
  pricesKnownAt(market: string, t: number): number {
    const v = (this.lastPriceVisibleStmt.get(market, t) as { v: number | null }).v;
    return Math.max(t + this.delayMs, v ?? t);
  }

  /**
   * When a breakpoint's facts (its start, direction and `size` = the move to its END price) are
   * visible: once the prices through `t_end` are, and every gold article of it is.
   */
  breakpointKnownAt(bp: Breakpoint): number {
    let at = this.pricesKnownAt(bp.market, bp.t_end);
    for (const id of bp.goldIds) at = Math.max(at, this.news(id)?.visible_at ?? at);
    return at;
  }

  /** the instant a market row becomes visible, or null for an unknown market */
  marketVisibleAt(id: string): number | null {
    return (this.marketStmt.get(id) as { visible_at: number } | undefined)?.visible_at ?? null;
  }
}
