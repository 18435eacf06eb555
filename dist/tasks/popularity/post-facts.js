const cache = /* @__PURE__ */ new WeakMap();
class PostFacts {
  posts;
  byId;
  countStmt;
  lastVisibleStmt;
  constructor(db, horizonMs) {
    this.posts = db.prepare(
      `SELECT p.id AS id, p.subreddit AS subreddit, p.created_utc AS created_utc, p.visible_at AS visible_at,
                (SELECT count(*) FROM reddit_comment c
                  WHERE c.root = p.id AND c.created_utc < p.created_utc + @h) AS cascade
           FROM reddit_post p ORDER BY p.created_utc, p.id`
    ).all({ h: horizonMs });
    this.byId = new Map(this.posts.map((p) => [p.id, p]));
    this.countStmt = db.prepare("SELECT count(*) AS n FROM reddit_comment WHERE root = ? AND created_utc < ?");
    this.lastVisibleStmt = db.prepare(
      "SELECT MAX(visible_at) AS v FROM reddit_comment WHERE root = ? AND created_utc < ?"
    );
  }
  static of(db, horizonMs) {
    let m = cache.get(db);
    if (!m) {
      m = /* @__PURE__ */ new Map();
      cache.set(db, m);
    }
    let f = m.get(horizonMs);
    if (!f) {
      f = new PostFacts(db, horizonMs);
      m.set(horizonMs, f);
    }
    return f;
  }
  get(id) {
    return this.byId.get(id);
  }
  /** posts created in [from, to] (both inclusive), ascending by (created_utc, id) */
  createdIn(from, to) {
    const lo = this.lowerBound(from);
    const out = [];
    for (let i = lo; i < this.posts.length; i++) {
      const p = this.posts[i];
      if (p.created_utc > to) break;
      out.push(p);
    }
    return out;
  }
  /** comments of the post's tree created strictly before `t` */
  commentsBefore(id, t) {
    return this.countStmt.get(id, t)?.n ?? 0;
  }
  /**
   * When the comments of the post's tree created strictly before `t` are all visible (the post's
   * own visibility when there is none): the earliest instant a count of them is public.
   */
  commentsVisibleAt(id, t) {
    const post = this.byId.get(id);
    const v = this.lastVisibleStmt.get(id, t)?.v ?? null;
    return Math.max(post?.visible_at ?? 0, v ?? 0);
  }
  lowerBound(t) {
    let lo = 0;
    let hi = this.posts.length;
    while (lo < hi) {
      const mid = lo + hi >>> 1;
      if (this.posts[mid].created_utc < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
export {
  PostFacts
};
//# sourceMappingURL=post-facts.js.map
