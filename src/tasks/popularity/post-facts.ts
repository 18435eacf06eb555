import type Database from "better-sqlite3";

/** One root post with its cascade over the task's horizon, computed from the raw comments. */
export interface PostFact {
  id: string;
  subreddit: string;
  created_utc: number;
  visible_at: number;
  /** comments of its tree with `created_utc < created_utc + horizon` */
  cascade: number;
}

const cache = new WeakMap<Database.Database, Map<number, PostFacts>>();

/**
 * Environment-side facts about every root post of a world (scorer and oracle only; never reachable
 * from an agent tool): the cascade over the horizon is counted from the raw `reddit_comment` rows,
 * not read from the derived `reddit_reveal` rows. Built once per (database, horizon) and cached, so
 * the anytime curve's fresh scorers share it.
 */
export class PostFacts {
  private readonly posts: PostFact[];
  private readonly byId: Map<string, PostFact>;
  private readonly countStmt: Database.Statement<[string, number], { n: number }>;
  private readonly lastVisibleStmt: Database.Statement<[string, number], { v: number | null }>;

  private constructor(db: Database.Database, horizonMs: number) {
    this.posts = db
      .prepare(
        `SELECT p.id AS id, p.subreddit AS subreddit, p.created_utc AS created_utc, p.visible_at AS visible_at,
                (SELECT count(*) FROM reddit_comment c
                  WHERE c.root = p.id AND c.created_utc < p.created_utc + @h) AS cascade
           FROM reddit_post p ORDER BY p.created_utc, p.id`,
      )
      .all({ h: horizonMs }) as PostFact[];
    this.byId = new Map(this.posts.map((p) => [p.id, p]));
    this.countStmt = db.prepare("SELECT count(*) AS n FROM reddit_comment WHERE root = ? AND created_utc < ?");
    this.lastVisibleStmt = db.prepare(
      "SELECT MAX(visible_at) AS v FROM reddit_comment WHERE root = ? AND created_utc < ?",
    );
  }

  static of(db: Database.Database, horizonMs: number): PostFacts {
    let m = cache.get(db);
    if (!m) {
      m = new Map();
      cache.set(db, m);
    }
    let f = m.get(horizonMs);
    if (!f) {
      f = new PostFacts(db, horizonMs);
      m.set(horizonMs, f);
    }
    return f;
  }

  get(id: string): PostFact | undefined {
    return this.byId.get(id);
  }

  /** posts created in [from, to] (both inclusive), ascending by (created_utc, id) */
  createdIn(from: number, to: number): PostFact[] {
    const lo = this.lowerBound(from);
    const out: PostFact[] = [];
    for (let i = lo; i < this.posts.length; i++) {
      const p = this.posts[i]!;
      if (p.created_utc > to) break;
      out.push(p);
    }
    return out;
  }

  /** comments of the post's tree created strictly before `t` */
  commentsBefore(id: string, t: number): number {
    return this.countStmt.get(id, t)?.n ?? 0;
  }

  /**
   * When the comments of the post's tree created strictly before `t` are all visible (the post's
   * own visibility when there is none): the earliest instant a count of them is public.
   */
  commentsVisibleAt(id: string, t: number): number {
    const post = this.byId.get(id);
    const v = this.lastVisibleStmt.get(id, t)?.v ?? null;
    return Math.max(post?.visible_at ?? 0, v ?? 0);
  }

  private lowerBound(t: number): number {
    let lo = 0;
    let hi = this.posts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.posts[mid]!.created_utc < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
