import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DAY_MS, MINUTE_MS } from "../../../src/common/time.js";
import type { RedditCommentRow, RedditPostRow, RedditRevealRow } from "../../../src/world/types.js";
import { WorldBuilder } from "../../../src/world/world-builder.js";

export const T = (iso: string) => Date.parse(iso);
export const START = T("2026-03-01T00:00:00Z");
export const END = T("2026-03-04T00:00:00Z");

interface PostSpec {
  id: string;
  created: number;
  /** comment instants as offsets from the post's creation */
  offsets: number[];
}

const minutes = (n: number) => Array.from({ length: n }, (_, k) => (k + 1) * MINUTE_MS);

/**
 * The hand-worked popularity world (UTC; run window 03-01 → 03-03, so posts created up to
 * 03-03 00:00 settle inside it):
 * - `pre` 02-28 20:00, 60 comments (tail, created before the run start);
 * - `a1` 03-01 01:00, 60 (tail); `a2` 03-01 02:00, 55 (tail); `a3` 03-01 03:00, 49 within 24 h and 5 after
 *   (not tail); `a4` 03-01 04:00, 50 with the 50th at +24 h − 1 ms (tail, exactly the threshold);
 * - `b1` 03-02 10:00, 70 (tail); `late` 03-03 00:00, 60 (tail; reveals exactly at sim_end);
 * - `after` 03-03 05:00, 60 (reveals after sim_end: out of scope);
 * - `q0`..`q11` 03-02 00:00 + i min, 1 comment each (not tail: cap fodder).
 * Tail posts by UTC day of creation: 03-01: 3 (a1, a2, a4), 03-02: 1 (b1), 03-03: 1 (late) → recall
 * denominator 5.
 */
export const TINY_POSTS: PostSpec[] = [
  { id: "pre", created: T("2026-02-28T20:00:00Z"), offsets: minutes(60) },
  { id: "a1", created: T("2026-03-01T01:00:00Z"), offsets: minutes(60) },
  { id: "a2", created: T("2026-03-01T02:00:00Z"), offsets: minutes(55) },
  {
    id: "a3",
    created: T("2026-03-01T03:00:00Z"),
    offsets: [...minutes(49), ...Array.from({ length: 5 }, (_, k) => DAY_MS + k * MINUTE_MS)],
  },
  { id: "a4", created: T("2026-03-01T04:00:00Z"), offsets: [...minutes(49), DAY_MS - 1] },
  { id: "b1", created: T("2026-03-02T10:00:00Z"), offsets: minutes(70) },
  { id: "late", created: T("2026-03-03T00:00:00Z"), offsets: minutes(60) },
  { id: "after", created: T("2026-03-03T05:00:00Z"), offsets: minutes(60) },
  ...Array.from({ length: 12 }, (_, i) => ({
    id: `q${i}`,
    created: T("2026-03-02T00:00:00Z") + i * MINUTE_MS,
    offsets: [30 * MINUTE_MS],
  })),
];

export function buildTinyRedditWorld(): string {
  const posts: RedditPostRow[] = [];
  const comments: RedditCommentRow[] = [];
  const reveals: RedditRevealRow[] = [];
  for (const p of TINY_POSTS) {
    posts.push({
      id: p.id,
      subreddit: "gamma",
      author: `u_${p.id}`,
      title: `Post ${p.id}`,
      body: `Body of ${p.id}`,
      created_utc: p.created,
      visible_at: p.created,
    });
    p.offsets.forEach((off, k) => {
      comments.push({
        id: `${p.id}_c${k}`,
        root: p.id,
        parent: p.id,
        created_utc: p.created + off,
        author: `c${k}`,
        body: `comment ${k}`,
        visible_at: p.created + off,
      });
    });
    reveals.push({
      post: p.id,
      descendants_24h: p.offsets.filter((o) => o < DAY_MS).length,
      visible_at: p.created + DAY_MS,
    });
  }
  const dir = join(mkdtempSync(join(tmpdir(), "relive-pop-")), "world");
  const b = WorldBuilder.create(dir, {
    name: "popularity-tiny",
    window: { start: T("2026-02-28T00:00:00Z"), end: T("2026-03-05T00:00:00Z") },
    builder: "test/popularity",
    builder_version: "1",
  });
  b.insert("reddit_post", posts);
  b.insert("reddit_comment", comments);
  b.insert("reddit_reveal", reveals);
  b.finish();
  return dir;
}
