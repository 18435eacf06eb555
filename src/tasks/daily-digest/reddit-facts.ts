import type Database from "better-sqlite3";
import { DAY_MS } from "../../common/time.js";

/**
 * Environment-side facts about Reddit posts, computed from the raw world tables (never from what
 * the agent reports). The 24 h cascade of a post is the number of comments of its tree with
 * `created_utc < post.created_utc + 24 h`: the raw comments are the fact, `reddit_reveal` is a
 * derived column and is not consulted. Used by the scorer and the oracle policy only.
 */
export class RedditFacts {
  private readonly postStmt: Database.Statement<[string], { id: string; created_utc: number }>;
  private readonly cascadeStmt: Database.Statement<[string, number], { n: number }>;
  private readonly visibleStmt: Database.Statement<[string, number, string], { v: number | null }>;
  private readonly topStmt: Database.Statement<
    [number, number, number],
    { id: string; created_utc: number; n: number }
  >;

  constructor(db: Database.Database) {
    this.postStmt = db.prepare("SELECT id, created_utc FROM reddit_post WHERE id = ?");
    this.cascadeStmt = db.prepare("SELECT COUNT(*) AS n FROM reddit_comment WHERE root = ? AND created_utc < ?");
    this.visibleStmt = db.prepare(
      `SELECT MAX(v) AS v FROM (SELECT MAX(visible_at) AS v FROM reddit_comment WHERE root = ? AND created_utc < ?
                               UNION ALL SELECT visible_at AS v FROM reddit_post WHERE id = ?)`,
    );
    this.topStmt = db.prepare(
      `SELECT p.id AS id, p.created_utc AS created_utc,
              (SELECT COUNT(*) FROM reddit_comment c
                WHERE c.root = p.id AND c.created_utc < p.created_utc + ${DAY_MS}) AS n
         FROM reddit_post p
        WHERE p.created_utc >= ? AND p.created_utc < ?
        ORDER BY n DESC, p.created_utc ASC, p.id ASC
        LIMIT ?`,
    );
  }

  /** creation instant of a root post, or null for an id that is not a post */
  createdAt(id: string): number | null {
    return this.postStmt.get(id)?.created_utc ?? null;
  }

  /** comments within 24 h of posting */
  cascade24h(id: string, createdUtc: number): number {
    return this.cascadeStmt.get(id, createdUtc + DAY_MS)?.n ?? 0;
  }

  /**
   * When a post and the comments of its 24 h cascade are all visible in the world (null: not a post):
   * the earliest instant its creation time and cascade are public.
   */
  visibleAt(id: string, createdUtc: number): number | null {
    return this.visibleStmt.get(id, createdUtc + DAY_MS, id)?.v ?? null;
  }

  /** the posts created in [from, to) with the largest 24 h cascades (ties: older first, then id) */
  topByCascade(from: number, to: number, limit: number): { id: string; created_utc: number; cascade_24h: number }[] {
    return this.topStmt.all(from, to, limit).map((r) => ({ id: r.id, created_utc: r.created_utc, cascade_24h: r.n }));
  }
}
