import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { createRng } from "../../../src/common/random.js";
import { HOUR_MS, MINUTE_MS } from "../../../src/common/time.js";
import { PostFacts } from "../../../src/tasks/popularity/post-facts.js";

/**
 * `PostFacts.feedback` reads a post's comments once for every feedback count and the instant they
 * are all visible: it must equal the per-count statements (count of comments created before t;
 * max visible_at of those created before the last bound, at least the post's own visibility).
 */
const T0 = Date.UTC(2026, 2, 1);

function world() {
  const db = new Database(":memory:");
  db.exec(`CREATE TABLE reddit_post (id TEXT PRIMARY KEY, subreddit TEXT NOT NULL, author TEXT NOT NULL,
      title TEXT NOT NULL, body TEXT NOT NULL, created_utc INTEGER NOT NULL, visible_at INTEGER NOT NULL);
    CREATE TABLE reddit_comment (id TEXT PRIMARY KEY, root TEXT NOT NULL, parent TEXT NOT NULL,
      created_utc INTEGER NOT NULL, author TEXT NOT NULL, body TEXT NOT NULL, visible_at INTEGER NOT NULL);
    CREATE INDEX reddit_comment_root_created ON reddit_comment (root, created_utc);`);
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

describe("PostFacts.feedback", () => {
  it("equals the count and max-visibility statements for every post and bound", () => {
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
    for (const p of [...posts, { id: "missing", created_utc: T0, visible_at: 0 }]) {
      const before = ages.map((a) => p.created_utc + a);
      const through = p.created_utc + 30 * HOUR_MS;
      const got = facts.feedback(p.id, before, through);
      const v = (lastVisible.get(p.id, through) as { v: number | null }).v;
      expect(got).toEqual({
        counts: before.map((t) => (count.get(p.id, t) as { n: number }).n),
        visibleAt: Math.max(facts.get(p.id)?.visible_at ?? 0, v ?? 0),
      });
      if (got.counts[0]! > 0 && got.counts[0]! < got.counts[2]!) nonTrivial++;
    }
    expect(nonTrivial).toBeGreaterThan(10);
  });

  it("refuses a count bound after the visibility bound", () => {
    expect(() => PostFacts.of(db, 24 * HOUR_MS).feedback("p0", [T0 + 2 * HOUR_MS], T0 + HOUR_MS)).toThrow(
      /after the visibility bound/,
    );
  });
});
