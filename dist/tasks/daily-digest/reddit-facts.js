import { DAY_MS } from "../../kernel/day.js";
class RedditFacts {
  postStmt;
  cascadeStmt;
  visibleStmt;
  topStmt;
  constructor(db) {
    this.postStmt = db.prepare("SELECT id, created_utc FROM reddit_post WHERE id = ?");
    this.cascadeStmt = db.prepare("SELECT COUNT(*) AS n FROM reddit_comment WHERE root = ? AND created_utc < ?");
    this.visibleStmt = db.prepare(
      `SELECT MAX(v) AS v FROM (SELECT MAX(visible_at) AS v FROM reddit_comment WHERE root = ? AND created_utc < ?
                               UNION ALL SELECT visible_at AS v FROM reddit_post WHERE id = ?)`
    );
    this.topStmt = db.prepare(
      `SELECT p.id AS id, p.created_utc AS created_utc,
              (SELECT COUNT(*) FROM reddit_comment c
                WHERE c.root = p.id AND c.created_utc < p.created_utc + ${DAY_MS}) AS n
         FROM reddit_post p
        WHERE p.created_utc >= ? AND p.created_utc < ?
        ORDER BY n DESC, p.created_utc ASC, p.id ASC
        LIMIT ?`
    );
  }
  /** creation instant of a root post, or null for an id that is not a post */
  createdAt(id) {
    return this.postStmt.get(id)?.created_utc ?? null;
  }
  /** comments within 24 h of posting */
  cascade24h(id, createdUtc) {
    return this.cascadeStmt.get(id, createdUtc + DAY_MS)?.n ?? 0;
  }
  /**
   * When a post and the comments of its 24 h cascade are all visible in the world (null: not a post):
   * the earliest instant its creation time and cascade are public.
   */
  visibleAt(id, createdUtc) {
    return this.visibleStmt.get(id, createdUtc + DAY_MS, id)?.v ?? null;
  }
  /** the posts created in [from, to) with the largest 24 h cascades (ties: older first, then id) */
  topByCascade(from, to, limit) {
    return this.topStmt.all(from, to, limit).map((r) => ({ id: r.id, created_utc: r.created_utc, cascade_24h: r.n }));
  }
}
export {
  RedditFacts
};
//# sourceMappingURL=reddit-facts.js.map
