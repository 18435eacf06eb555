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
  private readonly db: Database.Database;
  /** the feedback aggregate by number of count bounds (prepared once each) */
  private readonly feedbackStmts = new Map<number, Database.Statement>();
  /** feedback answers by (id, bounds): a pure function of the untouched world, shared by the run's scorers */
  private readonly feedbackMemo = new Map<string, Readonly<{ counts: readonly number[]; visibleAt: number }>>();

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
    this.db = db;
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
   * is none): the earliest instant their counts are public. Counted by SQLite in one aggregate row
   * (no comment row crosses into JS) and remembered: the run's scorer and its anytime curve's
   * scorer settle the same posts.
   */
  feedback(id: string, before: readonly number[], through: number): { counts: number[]; visibleAt: number } {
    for (const t of before)
      if (t > through) throw new RangeError(`feedback: count bound ${t} is after the visibility bound ${through}`);
    const key = JSON.stringify([id, through, before]);
    let fb = this.feedbackMemo.get(key);
    if (!fb) {
      const row = this.feedbackStmt(before.length).get(...before, id, through) as Record<string, number | null>;
      fb = Object.freeze({
        counts: Object.freeze(before.map((_, i) => row[`n${i}`] ?? 0)),
        visibleAt: Math.max(this.byId.get(id)?.visible_at ?? 0, row.v ?? 0),
      });
      this.feedbackMemo.set(key, fb);
    }
    return { counts: [...fb.counts], visibleAt: fb.visibleAt };
  }

  private feedbackStmt(bounds: number): Database.Statement {
    let st = this.feedbackStmts.get(bounds);
    if (!st) {
      const sums = Array.from({ length: bounds }, (_, i) => `sum(created_utc < ?) AS n${i}, `).join("");
      st = this.db.prepare(`SELECT ${sums}max(visible_at) AS v FROM reddit_comment WHERE root = ? AND created_utc < ?`);
      this.feedbackStmts.set(bounds, st);
    }
    return st;
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
