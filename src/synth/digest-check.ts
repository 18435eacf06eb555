import type { RedditCommentRow, RedditPostRow, RedditRevealRow } from "../world/types.js";
import { DAY, HOUR, isoDate, utcDayStart } from "./time.js";

/** daily-digest (tasks.md §4): each day needs this many qualifying candidates at 12:00 UTC */
export const DIGEST_MIN_CANDIDATES = 10;
export const DIGEST_TAIL = 50;

export interface DigestDayCount {
  /** YYYY-MM-DD of the day */
  day: string;
  /** the day's 12:00 UTC anchor */
  a: number;
  /** posts created in [a − 24 h, a) with ≥ 50 comments visible at a and a 24 h cascade ≥ 50 */
  count: number;
}

/**
 * Per window day (every a = 12:00 UTC with start ≤ a < end), the number of digest candidates
 * that are already past 50 visible comments at a and whose revealed 24 h cascade is ≥ 50.
 */
export function digestCandidateCounts(
  w: {
    reddit_post: readonly RedditPostRow[];
    reddit_comment: readonly RedditCommentRow[];
    reddit_reveal: readonly RedditRevealRow[];
  },
  start: number,
  end: number,
): DigestDayCount[] {
  // time at which each post reaches DIGEST_TAIL visible comments (the 50th-earliest visible_at)
  const times = new Map<string, number[]>();
  for (const c of w.reddit_comment) {
    let a = times.get(c.root);
    if (!a) {
      a = [];
      times.set(c.root, a);
    }
    a.push(c.visible_at);
  }
  const reachedAt = new Map<string, number>();
  for (const [root, ts] of times) {
    if (ts.length < DIGEST_TAIL) continue;
    ts.sort((x, y) => x - y);
    reachedAt.set(root, ts[DIGEST_TAIL - 1] as number);
  }
  const tail = new Set(w.reddit_reveal.filter((r) => r.descendants_24h >= DIGEST_TAIL).map((r) => r.post));
  const out: DigestDayCount[] = [];
  for (let d = utcDayStart(start); d < end; d += DAY) {
    const a = d + 12 * HOUR;
    if (a < start || a >= end) continue;
    let count = 0;
    for (const p of w.reddit_post) {
      if (p.created_utc < a - 24 * HOUR || p.created_utc >= a) continue;
      const t50 = reachedAt.get(p.id);
      if (t50 !== undefined && t50 <= a && tail.has(p.id)) count++;
    }
    out.push({ day: isoDate(d), a, count });
  }
  return out;
}

/** Throws a clear error naming every day of the window that has fewer than 10 candidates. */
export function assertDigestCandidates(counts: readonly DigestDayCount[]): void {
  const short = counts.filter((c) => c.count < DIGEST_MIN_CANDIDATES);
  if (short.length > 0) {
    throw new Error(
      `synthetic world violates the daily-digest requirement (≥ ${DIGEST_MIN_CANDIDATES} posts past ${DIGEST_TAIL} comments at 12:00 UTC with a 24 h cascade ≥ ${DIGEST_TAIL}): ${short
        .map((c) => `${c.day} has ${c.count}`)
        .join(", ")}`,
    );
  }
}
