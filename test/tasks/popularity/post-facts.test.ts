import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { createRng } from "../../../src/common/random.js";
import { HOUR_MS, MINUTE_MS } from "../../../src/common/time.js";
import { type PostFact, PostFacts } from "../../../src/tasks/popularity/post-facts.js";

/**
 * `PostFacts` reads only what a run asks for: it must equal the straightforward definitions over the
 * raw tables. Tail posts: the correlated count of every post's comments created before creation +
 * horizon, filtered by the threshold (not only the posts with enough comments in all); a post by id:
 * the same count; feedback: the count of comments created before each bound, released at the latest
 * of the floor, the post's visibility and the visibility of every comment created before the last
 * bound (not only those visible after the floor).
 */
const T0 = Date.UTC(2026, 2, 1);

function world() {
  const db = new Database(":memory:");
  db.exec(`CREATE TABLE reddit_post (id TEXT PRIMARY KEY, subreddit TEXT NOT NULL, author TEXT NOT NULL,
      title TEXT NOT NULL, body TEXT NOT NULL, created_utc INTEGER NOT NULL, visible_at INTEGER NOT NULL);
    CREATE TABLE reddit_comment (id TEXT PRIMARY KEY, root TEXT NOT NULL, parent TEXT NOT NULL,
      created_utc INTEGER NOT NULL, author TEXT NOT NULL, body TEXT NOT NULL, visible_at INTEGER NOT NULL);
    CREATE INDEX reddit_comment_root_created ON reddit_comment (root, created_utc);
    CREATE INDEX reddit_comment_root ON reddit_comment (root, visible_at);`);
  const post = db.prepare("INSERT INTO reddit_post VALUES (?, 's', 'u', 't', 'b', ?, ?)");
  const comment = db.prepare("INSERT INTO reddit_comment VALUES (?, ?, ?, ?, 'u', 'b', ?)");
  const rng = createRng(5);
  db.transaction(() => {
    for (let i = 0; i < 120; i++) {
      const created = T0 + rng.int(48) * HOUR_MS + rng.int(60) * MINUTE_MS;
      post.run(`p${i}`, created, created + rng.int(3) * MINUTE_MS);
      // none, a few, or a long tail reaching past 24 h; some comments become visible hours late
      const n = rng.pick([0, 1, 5, 40, 200]);
      for (let k = 0; k < n; k++) {
        const c = created + Math.floor(rng.exp(1 / (6 * HOUR_MS)));
        comment.run(`p${i}c${k}`, `p${i}`, `p${i}`, c, c + (rng.chance(0.1) ? rng.int(10) * HOUR_MS : 0));
      }
      // comments exactly on the count bounds (1 h, 6 h, 24 h after posting) are not counted there
      if (i % 4 === 0)
        for (const h of [1, 6, 24])
          comment.run(`p${i}e${h}`, `p${i}`, `p${i}`, created + h * HOUR_MS, created + h * HOUR_MS);
    }
  })();
  return db;
}

const db = world();
afterAll(() => db.close());

const FACT_SQL = `SELECT p.id AS id, p.subreddit AS subreddit, p.created_utc AS created_utc, p.visible_at AS visible_at,
    (SELECT count(*) FROM reddit_comment c WHERE c.root = p.id AND c.created_utc < p.created_utc + @h) AS cascade
   FROM reddit_post p`;

describe("PostFacts tail posts and posts by id", () => {
  it("equal the correlated count over every post, for every threshold, horizon and window", () => {
    const rng = createRng(11);
    let tails = 0;
    for (const hours of [1, 6, 24, 30]) {
      const h = hours * HOUR_MS;
      const all = db.prepare(`${FACT_SQL} ORDER BY p.created_utc, p.id`).all({ h }) as PostFact[];
      const facts = PostFacts.of(db, h);
      for (const threshold of [1, 5, 6, 40, 41, 50, 200, 201]) {
        for (let k = 0; k < 20; k++) {
          const from = T0 - HOUR_MS + rng.int(50) * HOUR_MS;
          const to = k === 0 ? Number.MAX_SAFE_INTEGER : from + rng.int(30) * HOUR_MS;
          const want = all.filter((p) => p.cascade >= threshold && p.created_utc >= from && p.created_utc <= to);
          expect(facts.tailsCreatedIn(threshold, from, to)).toEqual(want);
          tails += want.length;
        }
      }
      for (const p of all) expect(facts.get(p.id)).toEqual(p);
      expect(facts.get("missing")).toBeUndefined();
    }
    expect(tails).toBeGreaterThan(500);
  });

  it("refuses a threshold below 1 (posts without comments are never candidates)", () => {
    expect(() => PostFacts.of(db, HOUR_MS).tailsCreatedIn(0, T0, T0 + HOUR_MS)).toThrow(/must be at least 1/);
  });
});

describe("PostFacts.feedback", () => {
  it("equals the count and max-visibility statements for every post, bound and floor", () => {
    const facts = PostFacts.of(db, 24 * HOUR_MS);
    const count = db.prepare("SELECT count(*) AS n FROM reddit_comment WHERE root = ? AND created_utc < ?");
    const lastVisible = db.prepare(
      "SELECT MAX(visible_at) AS v FROM reddit_comment WHERE root = ? AND created_utc < ?",
    );
    const posts = db.prepare("SELECT id, created_utc, visible_at FROM reddit_post ORDER BY id").all() as {
      id: string;
      created_utc: number;
      visible_at: number;
    }[];
    const ages = [1, 6, 24].map((h) => h * HOUR_MS);
    let nonTrivial = 0;
    let late = 0;
    for (const p of [...posts, { id: "missing", created_utc: T0, visible_at: 0 }]) {
      const before = ages.map((a) => p.created_utc + a);
      for (const [through, floor] of [
        [p.created_utc + 24 * HOUR_MS, p.created_utc + 24 * HOUR_MS],
        [p.created_utc + 30 * HOUR_MS, p.created_utc + 24 * HOUR_MS],
        [p.created_utc + 24 * HOUR_MS, p.created_utc + 2 * HOUR_MS],
        [p.created_utc + 24 * HOUR_MS, 0],
      ] as const) {
        const got = facts.feedback(p, before, through, floor);
        const v = (lastVisible.get(p.id, through) as { v: number | null }).v;
        expect(got).toEqual({
          counts: before.map((t) => (count.get(p.id, t) as { n: number }).n),
          releasedAt: Math.max(floor, p.visible_at, v ?? 0),
        });
        if (got.releasedAt > Math.max(floor, p.visible_at)) late++;
      }
      const got = facts.feedback(p, before, p.created_utc + 24 * HOUR_MS, p.created_utc + 24 * HOUR_MS);
      if (got.counts[0]! > 0 && got.counts[0]! < got.counts[2]!) nonTrivial++;
    }
    expect(nonTrivial).toBeGreaterThan(10);
    expect(late).toBeGreaterThan(10);
  });

  it("refuses a count bound after the visibility bound", () => {
    const p = { id: "p0", visible_at: T0 };
    expect(() => PostFacts.of(db, 24 * HOUR_MS).feedback(p, [T0 + 2 * HOUR_MS], T0 + HOUR_MS, T0)).toThrow(
      /after the visibility bound/,
    );
  });
});
