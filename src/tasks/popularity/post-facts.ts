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
  private readonly commentTimesStmt: Database.Statement<[string, number], { c: number; v: number }>;

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
    this.commentTimesStmt = db.prepare(
      "SELECT created_utc AS c, visible_at AS v FROM reddit_comment WHERE root = ? AND created_utc < ?",
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

  /**
   * A post's feedback in one read of its comments created before `through`: for every `t` of
   * `before` (each ≤ `through`), how many comments of its tree were created strictly before `t`; and
   * when the comments created before `through` are all visible (the post's own visibility when there
   * is none): the earliest instant their counts are public.
   */
  feedback(id: string, before: readonly number[], through: number): { counts: number[]; visibleAt: number } {
    for (const t of before)
      if (t > through) throw new RangeError(`feedback: count bound ${t} is after the visibility bound ${through}`);
    const counts = before.map(() => 0);
    let v: number | null = null;
    for (const r of this.commentTimesStmt.iterate(id, through)) {
      if (v === null || r.v > v) v = r.v;
      for (let i = 0; i < before.length; i++) if (r.c < before[i]!) counts[i]!++;
    }
    return { counts, visibleAt: Math.max(this.byId.get(id)?.visible_at ?? 0, v ?? 0) };
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
