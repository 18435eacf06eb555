import type Database from "better-sqlite3";
import type { MarketResolutionRow, MarketRow } from "../../world/types.js";
import { isTaskMarket } from "./questions.js";

/** A point of a market's price series of one outcome, with its visibility instant. */
export interface PricePoint {
  t: number;
  p: number;
  visible_at: number;
}

type MarketDbRow = Omit<MarketRow, "outcomes"> & { outcomes: string };

/**
 * Environment-side facts about the task's markets, read from the raw world (scorer, anchors and
 * oracle policies only; never reachable from an agent tool): the market rows, their first
 * resolution row, and price series (the prices are scorer-side only in this task).
 */
export class MarketFacts {
  readonly markets: MarketRow[];
  private readonly resolutionByMarket = new Map<string, MarketResolutionRow>();
  private readonly priceStmt: Database.Statement<[string, string], PricePoint>;
  private readonly priceAtStmt: Database.Statement<[string, string, number], { p: number }>;
  private readonly newsStmt: Database.Statement<[string], { visible_at: number }>;

  constructor(db: Database.Database, prefix: string) {
    this.markets = (db.prepare("SELECT * FROM market ORDER BY open, id").all() as MarketDbRow[])
      .map((r) => ({ ...r, outcomes: JSON.parse(r.outcomes) as string[] }))
      .filter((m) => isTaskMarket(m, prefix));
    const rows = db
      .prepare(
        "SELECT market, closed_at, result, visible_at FROM market_resolution ORDER BY closed_at, market, visible_at, rowid",
      )
      .all() as MarketResolutionRow[];
    for (const r of rows) if (!this.resolutionByMarket.has(r.market)) this.resolutionByMarket.set(r.market, r);
    this.priceStmt = db.prepare(
      "SELECT t, p, visible_at FROM market_price WHERE market = ? AND outcome = ? ORDER BY visible_at, t, rowid",
    );
    this.priceAtStmt = db.prepare(
      "SELECT p FROM market_price WHERE market = ? AND outcome = ? AND visible_at <= ? ORDER BY t DESC, visible_at DESC, rowid DESC LIMIT 1",
    );
    this.newsStmt = db.prepare("SELECT visible_at FROM news WHERE id = ?");
  }

  market(id: string): MarketRow | undefined {
    return this.markets.find((m) => m.id === id);
  }

  resolution(id: string): MarketResolutionRow | null {
    return this.resolutionByMarket.get(id) ?? null;
  }

  /** every price point of one outcome, by visibility */
  prices(market: string, outcome: string): PricePoint[] {
    return this.priceStmt.all(market, outcome);
  }

  /** the price of `outcome` standing for an observer at `now`: the latest point (by t) visible at now */
  priceAt(market: string, outcome: string, now: number): number | null {
    return this.priceAtStmt.get(market, outcome, now)?.p ?? null;
  }

  /** when an article became visible (null: no such article) */
  newsVisibleAt(id: string): number | null {
    return this.newsStmt.get(id)?.visible_at ?? null;
  }
}
