import type Database from "better-sqlite3";
import { lowerBound } from "../../common/sorted-search.js";

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

const FACT_COLS = `p.id AS id, p.subreddit AS subreddit, p.created_utc AS created_utc, p.visible_at AS visible_at,
  (SELECT count(*) FROM reddit_comment c WHERE c.root = p.id AND c.created_utc < p.created_utc + @h) AS cascade`;

/**
 * The tail posts (cascade ≥ @t), ascending by (created_utc, id). A post whose cascade reaches @t has
 * at least @t comments in all, so the cascade is counted only for those: the candidates come from one
 * pass over a (root, …) comment index grouped by root (no post row read), instead of one index seek
 * per post of the world.
 */
const TAILS_SQL = `SELECT * FROM (SELECT ${FACT_COLS} FROM reddit_post p
    WHERE p.id IN (SELECT root FROM reddit_comment GROUP BY root HAVING count(*) >= @t))
  WHERE cascade >= @t ORDER BY created_utc, id`;
const POST_SQL = `SELECT ${FACT_COLS} FROM reddit_post p WHERE p.id = @id`;
/**
 * A post's feedback row for `bounds` count bounds: `n<i>` = its comments created before `@b<i>`, each
 * counted over the (root, created_utc) index alone; `v` = the latest visibility among its comments
 * created before `@through` that become visible after `@floor` (`+created_utc`: the (root,
 * visible_at) index ranges over the comments visible after the floor, usually few, instead of the
 * (root, created_utc) one with a table read per counted comment). One statement per post: a
 * statement per count cost a third more.
 */
const feedbackSql = (bounds: number) =>
  `SELECT ${Array.from({ length: bounds }, (_, i) => `(SELECT count(*) FROM reddit_comment WHERE root = @id AND created_utc < @b${i}) AS n${i}, `).join("")}` +
  "(SELECT max(visible_at) FROM reddit_comment WHERE root = @id AND visible_at > @floor AND +created_utc < @through) AS v";

/**
 * Environment-side facts about the root posts of a world (scorer and oracle only; never reachable
 * from an agent tool): the cascade over the horizon is counted from the raw `reddit_comment` rows,
 * not read from the derived `reddit_reveal` rows. One instance per (database, horizon), cached, so
 * the anytime curve's fresh scorers share it; it reads only what a run asks for: the tail posts of
 * a threshold (once) and single posts by id (remembered).
 */
export class PostFacts {
  private readonly db: Database.Database;
  private readonly horizonMs: number;
  /** tail posts by threshold, ascending by (created_utc, id) */
  private readonly tailsByThreshold = new Map<number, PostFact[]>();
  /** posts read by id (null: not a post) */
  private readonly byId = new Map<string, PostFact | null>();
  /** the feedback statement by number of count bounds (prepared once each) */
  private readonly feedbackStmts = new Map<number, Database.Statement>();
  private postStmt: Database.Statement | undefined;
  /** feedback answers by (id, bounds): a pure function of the untouched world, shared by the run's scorers */
  private readonly feedbackMemo = new Map<string, Readonly<{ counts: readonly number[]; releasedAt: number }>>();

  private constructor(db: Database.Database, horizonMs: number) {
    this.db = db;
    this.horizonMs = horizonMs;
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

  /** a root post by id (undefined: not a post) */
  get(id: string): PostFact | undefined {
    let f = this.byId.get(id);
    if (f === undefined) {
      this.postStmt ??= this.db.prepare(POST_SQL);
      f = (this.postStmt.get({ id, h: this.horizonMs }) as PostFact | undefined) ?? null;
      this.byId.set(id, f);
    }
    return f ?? undefined;
  }

  /** the tail posts (cascade ≥ `threshold`) created in [from, to] (both inclusive), ascending by (created_utc, id) */
  tailsCreatedIn(threshold: number, from: number, to: number): PostFact[] {
    const tails = this.tails(threshold);
    const out: PostFact[] = [];
    for (let i = lowerBound(tails, from, createdUtc); i < tails.length; i++) {
      const p = tails[i]!;
      if (p.created_utc > to) break;
      out.push(p);
    }
    return out;
  }

  /**
   * A post's feedback: for every `t` of `before` (each ≤ `through`), how many comments of its tree were
   * created strictly before `t`; and `releasedAt`, the earliest instant at or after `floor` when the
   * post and its comments created before `through` are all visible. Counted by SQLite in one row (no
   * comment row crosses into JS; `feedbackSql`); remembered, since the run's scorer and its anytime
   * curve's scorer settle the same posts.
   */
  feedback(
    post: Pick<PostFact, "id" | "visible_at">,
    before: readonly number[],
    through: number,
    floor: number,
  ): { counts: number[]; releasedAt: number } {
    for (const t of before)
      if (t > through) throw new RangeError(`feedback: count bound ${t} is after the visibility bound ${through}`);
    const key = JSON.stringify([post.id, through, floor, before]);
    let fb = this.feedbackMemo.get(key);
    if (!fb) {
      const args: Record<string, number | string> = { id: post.id, floor, through };
      before.forEach((t, i) => {
        args[`b${i}`] = t;
      });
      const row = this.feedbackStmt(before.length).get(args) as Record<string, number | null>;
      fb = Object.freeze({
        counts: Object.freeze(before.map((_, i) => row[`n${i}`] ?? 0)),
        releasedAt: Math.max(floor, post.visible_at, row.v ?? floor),
      });
      this.feedbackMemo.set(key, fb);
    }
    return { counts: [...fb.counts], releasedAt: fb.releasedAt };
  }

  private tails(threshold: number): PostFact[] {
    // the candidates are posts with at least one comment: a threshold below 1 would also need the rest
    if (!(threshold >= 1)) throw new RangeError(`tail threshold ${threshold}: must be at least 1`);
    let t = this.tailsByThreshold.get(threshold);
    if (!t) {
      t = this.db.prepare(TAILS_SQL).all({ h: this.horizonMs, t: threshold }) as PostFact[];
      this.tailsByThreshold.set(threshold, t);
    }
    return t;
  }

  private feedbackStmt(bounds: number): Database.Statement {
    let st = this.feedbackStmts.get(bounds);
    if (!st) {
      st = this.db.prepare(feedbackSql(bounds));
      this.feedbackStmts.set(bounds, st);
    }
    return st;
  }
}

const createdUtc = (p: PostFact) => p.created_utc;
