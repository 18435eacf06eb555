import { describe, expect, it } from "vitest";
import { digestCandidateCounts } from "../../src/synth/digest-check.js";
import { generateRows } from "../../src/synth/generate.js";

const H = 3_600_000;
const D = 86_400_000;
const START = Date.parse("2026-03-01T00:00:00Z");
const END = START + 14 * D;

describe("reddit statistics over a 14-day window", () => {
  const w = generateRows({ seed: 11, start: START, end: END });
  const inWindow = w.reddit_post.filter((p) => p.created_utc >= START && p.created_utc < END);
  const reveal = new Map(w.reddit_reveal.map((r) => [r.post, r.descendants_24h]));
  const created = new Map(w.reddit_post.map((p) => [p.id, p.created_utc]));

  it("posts arrive at 60–120 per hour on average", () => {
    const perHour = inWindow.length / (14 * 24);
    expect(perHour).toBeGreaterThanOrEqual(60);
    expect(perHour).toBeLessThanOrEqual(120);
    expect(new Set(inWindow.map((p) => p.subreddit)).size).toBeGreaterThanOrEqual(4);
  });

  it("2.5%–5% of posts reach 50 comments within 24 h", () => {
    const tail = inWindow.filter((p) => (reveal.get(p.id) ?? 0) >= 50).length;
    const share = tail / inWindow.length;
    expect(share).toBeGreaterThanOrEqual(0.025);
    expect(share).toBeLessThanOrEqual(0.05);
  });

  it("comment arrival is front-loaded: median delay under 6 h", () => {
    const delays = w.reddit_comment.map((c) => c.created_utc - (created.get(c.root) as number)).sort((a, b) => a - b);
    expect(delays[delays.length >> 1]).toBeLessThan(6 * H);
  });

  it("early velocity predicts the tail", () => {
    const firstHour = new Map<string, number>();
    for (const c of w.reddit_comment) {
      if (c.created_utc <= (created.get(c.root) as number) + H) firstHour.set(c.root, (firstHour.get(c.root) ?? 0) + 1);
    }
    const rate = (pred: (n: number) => boolean) => {
      const g = inWindow.filter((p) => pred(firstHour.get(p.id) ?? 0));
      return g.filter((p) => (reveal.get(p.id) ?? 0) >= 50).length / Math.max(1, g.length);
    };
    expect(rate((n) => n >= 12)).toBeGreaterThan(0.5);
    expect(rate((n) => n <= 2)).toBeLessThan(0.01);
  });

  it("every day has ≥ 10 digest candidates past 50 comments at 12:00 UTC", () => {
    const counts = digestCandidateCounts(w, START, END);
    expect(counts).toHaveLength(14);
    expect(Math.min(...counts.map((c) => c.count))).toBeGreaterThanOrEqual(10);
  });
});
