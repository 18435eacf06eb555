import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { ImportRefusedError } from "../../src/ingest/import-report.js";
import { importRedditDumps, REVEAL_DELAY_MS } from "../../src/ingest/reddit-ndjson.js";
import { WorldStore } from "../../src/world/world-store.js";

const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const rawDir = process.env.RELIVE_RAW_DIR ?? resolve(repoRoot, "../shared/data/raw");
const sample = join(rawDir, "reddit-arcticshift-pushshift-importer");
const present = existsSync(sample);
if (!present) console.warn(`reddit sample test skipped: ${sample} not found`);
const hasZstd = (() => {
  try {
    execFileSync("zstd", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
if (!hasZstd) console.warn("reddit .zst test skipped: no zstd CLI");

const root = mkdtempSync(join(tmpdir(), "reddit-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const S = 1_700_000_000; // epoch seconds
const H = 3600;

/** A thread fixture (the real sample has no comment belonging to a submission in it). */
function threadLines(): string[] {
  const post = (id: string, t: number | string) =>
    JSON.stringify({
      id,
      subreddit: "test",
      author: "op",
      created_utc: t,
      title: `post ${id}`,
      selftext: "body",
      score: 9,
    });
  const com = (id: string, link: string, parent: string, t: number | string) =>
    JSON.stringify({ id, link_id: `t3_${link}`, parent_id: parent, author: "u", created_utc: t, body: `c ${id}` });
  return [
    post("p1", S),
    post("p2", `${S + 60}`), // string era
    com("c1", "p1", "t3_p1", S + 60),
    com("c2", "p1", "t1_c1", S + 120.5), // float era
    com("c3", "p1", "t1_c2", S + 24 * H), // exactly at 24 h: counted
    com("c4", "p1", "t3_p1", S + 24 * H + 1), // after 24 h: not counted
    com("c5", "p1", "t1_gone", S + 200), // parent missing: kept, dangling
    com("c6", "zz", "t3_zz", S + 10), // orphan: rejected
    com("c7", "p2", "t3_p2", S), // before its post: rejected
    com("c1", "p1", "t3_p1", S + 61), // duplicate id
    "{not json",
    JSON.stringify({ hello: 1 }),
  ];
}

describe("Reddit dumps (fixture with a thread)", () => {
  it("rebuilds the trees, counts 24 h cascades and reports rejects with file:line", async () => {
    const f = join(root, "mix.ndjson");
    writeFileSync(f, `${threadLines().join("\n")}\n`);
    const out = join(root, "w1");
    const r = await importRedditDumps([f], out, { name: "r" });
    expect(r.counts).toMatchObject({ posts: 2, comments: 5, reveals: 2, duplicates: 1, dangling_parents: 1 });
    expect(r.rejected.map((x) => [x.line, x.reason.split(":")[0]])).toEqual([
      [10, "duplicate comment id c1 (the first is kept)"],
      [11, "invalid JSON"],
      [12, "neither a submission (no `title`) nor a comment (no `link_id`)"],
      [8, "comment c6"],
      [9, "comment c7"],
    ]);
    const w = WorldStore.open(out);
    expect(w.db.prepare("SELECT id, root, parent, created_utc FROM reddit_comment ORDER BY created_utc").all()).toEqual(
      [
        { id: "c1", root: "p1", parent: "p1", created_utc: (S + 60) * 1000 },
        { id: "c2", root: "p1", parent: "c1", created_utc: (S + 120.5) * 1000 },
        { id: "c5", root: "p1", parent: "gone", created_utc: (S + 200) * 1000 },
        { id: "c3", root: "p1", parent: "c2", created_utc: (S + 24 * H) * 1000 },
        { id: "c4", root: "p1", parent: "p1", created_utc: (S + 24 * H + 1) * 1000 },
      ],
    );
    expect(w.db.prepare("SELECT post, descendants_24h, visible_at FROM reddit_reveal ORDER BY post").all()).toEqual([
      { post: "p1", descendants_24h: 4, visible_at: S * 1000 + REVEAL_DELAY_MS },
      { post: "p2", descendants_24h: 0, visible_at: (S + 60) * 1000 + REVEAL_DELAY_MS },
    ]);
    expect(w.manifest.window).toEqual({ start: S * 1000, end: (S + 60) * 1000 + REVEAL_DELAY_MS });
    w.close();
  });

  it.skipIf(!hasZstd)("streams a .zst dump through zstd -dc --long=31", async () => {
    const plain = join(root, "z.ndjson");
    writeFileSync(plain, `${threadLines().slice(0, 5).join("\n")}\n`);
    execFileSync("zstd", ["-q", "--long=31", "-f", plain, "-o", `${plain}.zst`]);
    const r = await importRedditDumps([`${plain}.zst`], join(root, "wz"), { name: "z" });
    expect(r.counts).toMatchObject({ posts: 2, comments: 3 });
    expect(r.rejected).toEqual([]);
  });

  it.skipIf(!hasZstd)("a corrupt .zst fails with zstd's message and leaves no world", async () => {
    const bad = join(root, "bad.ndjson.zst");
    writeFileSync(bad, "this is not zstd");
    const out = join(root, "wbad");
    await expect(importRedditDumps([bad], out, { name: "b" })).rejects.toThrow(/zstd -dc --long=31 .* failed/);
    expect(existsSync(out)).toBe(false);
  });

  it("reports the days that have daily-digest's 10 candidates past 50 comments at 12:00", async () => {
    const day = Date.UTC(2024, 0, 10) / 1000;
    const lines = (posts: number) =>
      Array.from({ length: posts }, (_, i) => {
        const t = day + i * 1800;
        return [
          JSON.stringify({ id: `q${i}`, subreddit: "s", author: "a", created_utc: t, title: "t", selftext: "" }),
          ...Array.from({ length: 50 }, (_, k) =>
            JSON.stringify({
              id: `k${i}x${k}`,
              link_id: `t3_q${i}`,
              parent_id: `t3_q${i}`,
              author: "u",
              created_utc: t + 60 + k,
              body: "",
            }),
          ),
        ];
      }).flat();
    for (const [n, ready] of [
      [10, 1],
      [9, 0],
    ] as const) {
      const f = join(root, `digest${n}.ndjson`);
      writeFileSync(f, `${lines(n).join("\n")}\n`);
      const r = await importRedditDumps([f], join(root, `wd${n}`), { name: "d" });
      expect(r.counts).toMatchObject({
        posts: n,
        comments: 50 * n,
        posts_reaching_50: n,
        digest_days: 1,
        digest_days_ready: ready,
      });
    }
  });

  it("refuses an empty input", async () => {
    const f = join(root, "empty.ndjson");
    writeFileSync(f, "\n\n");
    await expect(importRedditDumps([f], join(root, "we"), { name: "e" })).rejects.toThrow(
      /nothing to import: the input holds no submissions/,
    );
  });
});

describe.skipIf(!present)("Reddit dumps: the real Arctic Shift / Pushshift sample", () => {
  it("reads every era's created_utc and rejects the comments (none of their submissions is in the file)", async () => {
    const files = ["test_submissions.json", "test_comments.json"].map((f) => join(sample, f));
    const r = await importRedditDumps(files, join(root, "real"), { name: "real" });
    expect(r.read).toBe(58);
    expect(r.counts).toMatchObject({ posts: 31, comments: 0, reveals: 31, duplicates: 0 });
    expect(r.rejected).toHaveLength(27);
    expect(r.rejected.every((x) => /its submission t3_\w+ is not in the import/.test(x.reason))).toBe(true);
    const w = WorldStore.open(join(root, "real"));
    const t = w.db.prepare("SELECT created_utc FROM reddit_post WHERE id = ?");
    expect(t.get("87")).toEqual({ created_utc: 1119552233000 }); // int era
    expect(t.get("2f4i96")).toEqual({ created_utc: 1409529600000 }); // string era
    expect(t.get("1afwvv8")).toEqual({ created_utc: 1706745600000 }); // float era (Arctic Shift)
    w.close();
  });

  it("comments alone are refused: every row rejected", async () => {
    const out = join(root, "only-comments");
    const e = await importRedditDumps([join(sample, "test_comments.json")], out, { name: "c" }).catch((x) => x);
    expect(e).toBeInstanceOf(ImportRefusedError);
    expect((e as ImportRefusedError).rejected).toHaveLength(27);
    expect(existsSync(out)).toBe(false);
  });
});
