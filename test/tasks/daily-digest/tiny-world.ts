import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "../../../src/common/time.js";
import type { RedditCommentRow, RedditPostRow, RedditRevealRow } from "../../../src/world/types.js";
import { WorldBuilder } from "../../../src/world/world-builder.js";

export const T = (iso: string) => Date.parse(iso);

interface PostSpec {
  id: string;
  created: number;
  /** comment instants as offsets from the post's creation */
  commentOffsets: number[];
  subreddit?: string;
}

const spread = (n: number) => Array.from({ length: n }, (_, k) => (k + 1) * MINUTE_MS);

/**
 * The hand-worked world of the scorer tests (all UTC):
 * - day 2026-03-01 (window 03-01 12:00, candidates [02-28 12:00, 03-01 12:00)): d0..d9, 60 comments each;
 * - day 2026-03-02 (candidates [03-01 12:00, 03-02 12:00)): h0..h9 created 03-01 12:00 + i h with 50 + i
 *   comments (h0 exactly at the candidate window's start); `below` 49 comments within 24 h and 10 more at
 *   and after +24 h; `exact` 50 with the 50th at +24 h − 1 ms; `old` (80 comments) created 1 ms before the
 *   candidate window; `fresh` (80) created exactly at the window opening 03-02 12:00.
 */
export const TINY_POSTS: PostSpec[] = [
  ...Array.from({ length: 10 }, (_, i) => ({
    id: `d${i}`,
    created: T("2026-02-28T13:00:00Z") + i * HOUR_MS,
    commentOffsets: spread(60),
  })),
  ...Array.from({ length: 10 }, (_, i) => ({
    id: `h${i}`,
    created: T("2026-03-01T12:00:00Z") + i * HOUR_MS,
    commentOffsets: spread(50 + i),
    subreddit: i % 2 === 0 ? "alpha" : "beta",
  })),
  {
    id: "below",
    created: T("2026-03-01T20:00:00Z"),
    commentOffsets: [...spread(49), DAY_MS, ...Array.from({ length: 9 }, (_, k) => DAY_MS + (k + 1) * MINUTE_MS)],
  },
  { id: "exact", created: T("2026-03-01T21:00:00Z"), commentOffsets: [...spread(49), DAY_MS - 1] },
  { id: "old", created: T("2026-03-01T11:59:59.999Z"), commentOffsets: spread(80) },
  { id: "fresh", created: T("2026-03-02T12:00:00Z"), commentOffsets: spread(80) },
];

export function tinyRows() {
  const posts: RedditPostRow[] = [];
  const comments: RedditCommentRow[] = [];
  const reveals: RedditRevealRow[] = [];
  for (const p of TINY_POSTS) {
    posts.push({
      id: p.id,
      subreddit: p.subreddit ?? "gamma",
      author: `u_${p.id}`,
      title: `Post ${p.id}`,
      body: `Body of ${p.id} `.repeat(40),
      created_utc: p.created,
      visible_at: p.created,
    });
    p.commentOffsets.forEach((off, k) => {
      comments.push({
        id: `${p.id}_c${k}`,
        root: p.id,
        parent: k === 0 ? p.id : `${p.id}_c${k - 1}`,
        created_utc: p.created + off,
        author: `c${k}`,
        body: `comment ${k}`,
        visible_at: p.created + off,
      });
    });
    reveals.push({
      post: p.id,
      descendants_24h: p.commentOffsets.filter((o) => o < DAY_MS).length,
      visible_at: p.created + DAY_MS,
    });
  }
  return { posts, comments, reveals };
}

/** Builds the tiny world in a fresh temp dir and returns the world dir. */
export function buildTinyWorld(): string {
  const dir = join(mkdtempSync(join(tmpdir(), "relive-dd-")), "world");
  const b = WorldBuilder.create(dir, {
    name: "daily-digest-tiny",
    window: { start: T("2026-02-28T00:00:00Z"), end: T("2026-03-05T00:00:00Z") },
    builder: "test/daily-digest",
    builder_version: "1",
  });
  const { posts, comments, reveals } = tinyRows();
  b.insert("reddit_post", posts);
  b.insert("reddit_comment", comments);
  b.insert("reddit_reveal", reveals);
  b.finish();
  return dir;
}
