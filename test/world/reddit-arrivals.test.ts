import { rmSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { AsOfView } from "../../src/world/as-of-view.js";
import { WorldStore } from "../../src/world/world-store.js";
import { buildWorld, emptyRows, prng, randomWorld, truncate, type WorldRows, workDir } from "./world-fixtures.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const post = (id: string, created_utc: number, visible_at: number, subreddit = "wsb") => ({
  id,
  subreddit,
  author: "u1",
  title: `Title ${id}`,
  body: `Body ${id}.`,
  created_utc,
  visible_at,
});

/** randomWorld's posts, each made visible a random lag (0–200) after its creation */
function laggedPosts(seed: number): WorldRows {
  const rows = randomWorld(seed, true);
  const r = prng(seed ^ 0x5eed);
  rows.reddit_post = rows.reddit_post.map((p) => ({
    ...p,
    visible_at: p.created_utc + (r.next() < 0.5 ? 0 : r.int(0, 200)),
  }));
  return rows;
}

/** what `reddit.arrivals` replaces: every visible post, paged newest first, kept when it became visible in (after, min(until, now)] */
function scanned(v: AsOfView, after: number, until: number) {
  const out: { id: string; subreddit: string; title: string; visible_at: number }[] = [];
  for (let offset = 0; ; offset += 3) {
    const page = v.reddit.listPosts({ sort: "new", order: "desc", offset, limit: 3 });
    for (const p of page.posts)
      if (p.visible_at > after && p.visible_at <= until)
        out.push({ id: p.id, subreddit: p.subreddit, title: p.title, visible_at: p.visible_at });
    if (page.posts.length < 3) break;
  }
  return out.sort((a, b) => a.visible_at - b.visible_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

describe("AsOfView.reddit.arrivals(after, until): root posts that became visible in (after, min(until, now)]", () => {
  it("exact values: by visible time then id (not creation time); both bounds and the view's now apply", () => {
    const work = workDir();
    dirs.push(work);
    const rows = emptyRows();
    rows.reddit_post = [post("b", 10, 100), post("a", 90, 100, "stocks"), post("c", 20, 150), post("d", 300, 400)];
    buildWorld(join(work, "w"), rows);
    const w = WorldStore.open(join(work, "w"));
    try {
      const at = (now: number) => w.at(() => now).reddit;
      expect(at(1000).arrivals(0, 1000)).toEqual([
        { id: "a", subreddit: "stocks", title: "Title a", visible_at: 100 },
        { id: "b", subreddit: "wsb", title: "Title b", visible_at: 100 },
        { id: "c", subreddit: "wsb", title: "Title c", visible_at: 150 },
        { id: "d", subreddit: "wsb", title: "Title d", visible_at: 400 },
      ]);
      expect(
        at(1000)
          .arrivals(100, 400)
          .map((p) => p.id),
      ).toEqual(["c", "d"]);
      expect(
        at(1000)
          .arrivals(99, 149)
          .map((p) => p.id),
      ).toEqual(["a", "b"]);
      // the view's now bounds it whatever `until` asks
      expect(
        at(399)
          .arrivals(0, 1000)
          .map((p) => p.id),
      ).toEqual(["a", "b", "c"]);
      expect(() => at(10).arrivals(5, Number.POSITIVE_INFINITY)).toThrow(/until must be a finite epoch-ms number/);
    } finally {
      w.close();
    }
  });

  it("property (R1): the same on the full world and on its copy truncated at now, and equal to the paged scan of every visible post", () => {
    const work = workDir();
    dirs.push(work);
    let n = 0;
    let nonEmpty = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: -10, max: 1300 }), (seed, now) => {
        const rows = laggedPosts(seed);
        const fullDir = join(work, `f${n}`);
        const cutDir = join(work, `c${n++}`);
        buildWorld(fullDir, rows, { start: 0, end: 1300 });
        buildWorld(cutDir, truncate(rows, now), { start: 0, end: 1300 });
        const full = WorldStore.open(fullDir);
        const cut = WorldStore.open(cutDir);
        try {
          const r = prng(seed ^ now);
          for (let i = 0; i < 20; i++) {
            const after = r.int(-50, 1300);
            const until = r.int(-50, 1300);
            const label = `seed ${seed} now ${now} (${after}, ${until}]`;
            const got = full.at(() => now).reddit.arrivals(after, until);
            expect(got, label).toEqual(cut.at(() => now).reddit.arrivals(after, until));
            expect(got, label).toEqual(
              scanned(
                full.at(() => now),
                after,
                Math.min(until, now),
              ),
            );
            if (got.length > 0) nonEmpty++;
          }
        } finally {
          full.close();
          cut.close();
          rmSync(fullDir, { recursive: true, force: true });
          rmSync(cutDir, { recursive: true, force: true });
        }
      }),
      { seed: 43, numRuns: 25 },
    );
    expect(nonEmpty).toBeGreaterThan(50);
  });
});
