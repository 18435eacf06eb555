import { rmSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { WorldStore } from "../../src/world/world-store.js";
import { buildWorld, emptyRows, randomWorld, truncate, workDir } from "./world-fixtures.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const article = (id: string, published_at: number, visible_at: number) => ({
  id,
  url: `https://n.test/${id}`,
  domain: "n.test",
  title: `Title ${id}`,
  text: `Text ${id}.`,
  published_at,
  visible_at,
});

describe("AsOfView.news.arrivals(after, until): articles that became visible in (after, min(until, now)]", () => {
  it("exact values: by visible time then id; both bounds and the view's now apply", () => {
    const work = workDir();
    dirs.push(work);
    const rows = emptyRows();
    rows.news = [article("b", 10, 100), article("a", 90, 100), article("c", 200, 150), article("d", 300, 400)];
    buildWorld(join(work, "w"), rows);
    const w = WorldStore.open(join(work, "w"));
    try {
      const at = (now: number) => w.at(() => now).news;
      expect(at(1000).arrivals(0, 1000)).toEqual([
        { id: "a", title: "Title a", published_at: 90, visible_at: 100 },
        { id: "b", title: "Title b", published_at: 10, visible_at: 100 },
        { id: "c", title: "Title c", published_at: 200, visible_at: 150 },
        { id: "d", title: "Title d", published_at: 300, visible_at: 400 },
      ]);
      expect(
        at(1000)
          .arrivals(100, 400)
          .map((n) => n.id),
      ).toEqual(["c", "d"]);
      expect(
        at(1000)
          .arrivals(99, 149)
          .map((n) => n.id),
      ).toEqual(["a", "b"]);
      // the view's now bounds it whatever `until` asks
      expect(
        at(399)
          .arrivals(0, 1000)
          .map((n) => n.id),
      ).toEqual(["a", "b", "c"]);
      expect(() => at(10).arrivals(Number.NaN, 5)).toThrow(/after must be a finite epoch-ms number/);
    } finally {
      w.close();
    }
  });

  it("property (R1): the same on the full world and on its copy truncated at now", () => {
    const work = workDir();
    dirs.push(work);
    let n = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: -10, max: 1100 }),
        fc.integer({ min: -50, max: 1100 }),
        fc.integer({ min: -50, max: 1200 }),
        (seed, now, after, until) => {
          const rows = randomWorld(seed, true);
          const fullDir = join(work, `f${n}`);
          const cutDir = join(work, `c${n++}`);
          buildWorld(fullDir, rows);
          buildWorld(cutDir, truncate(rows, now));
          const full = WorldStore.open(fullDir);
          const cut = WorldStore.open(cutDir);
          try {
            const got = full.at(() => now).news.arrivals(after, until);
            expect(got).toEqual(cut.at(() => now).news.arrivals(after, until));
            const want = rows.news.filter((r) => r.visible_at > after && r.visible_at <= Math.min(until, now));
            expect(got).toHaveLength(want.length);
          } finally {
            full.close();
            cut.close();
          }
        },
      ),
      { seed: 42, numRuns: 25 },
    );
  });
});
