/**
 * Different futures (DESIGN invariant 2) for the Reddit tasks: the synthetic world of seed 1 and the
 * same world re-drawn after a cut T (`future: {seed: 99, from: T}`) give byte-identical results,
 * rejection texts and ledgers for random popularity and daily-digest calls at times ≤ T. Ids of
 * posts and comments visible before T must not depend on anything after it (a comment counter in
 * post order would: the next post's first comment id gives an earlier post's final count).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WorldStore } from "../../src/world/world-store.js";
import { checkDifferentFutures, probeTimes, synthFuturesPair } from "../support/different-futures.js";
import { type Probe, timeArg } from "../support/leakage.js";

const H = 3_600_000;
const D = 86_400_000;
const START = Date.parse("2026-03-01T00:00:00Z");
const END = Date.parse("2026-03-05T00:00:00Z");
const CUT = START + 2 * D + 13 * H + 17 * 60_000;
const TIMES = 4;
const CALLS = 250;

/** post ids of both worlds around the cut (visible in both before it, and each world's own after it) */
function postIds(dirs: string[]): string[] {
  const ids = new Set<string>();
  for (const dir of dirs) {
    const w = WorldStore.open(dir);
    for (const r of w.db
      .prepare("SELECT id FROM reddit_post WHERE created_utc BETWEEN ? AND ? ORDER BY created_utc")
      .all(CUT - 30 * H, CUT + 2 * H) as { id: string }[])
      ids.add(r.id);
    w.close();
  }
  return [...ids];
}

describe("different futures: Reddit tools at times ≤ T cannot tell two futures apart", () => {
  const { worldA, worldB } = synthFuturesPair({ seed: 1, futureSeed: 99, start: START, end: END, cut: CUT });
  const ids = postIds([worldA, worldB]);
  const id = fc.oneof({ arbitrary: fc.constantFrom(...ids), weight: 6 }, fc.string({ maxLength: 8 }));
  const lo = START - 9 * D;
  const listArgs = fc.record(
    {
      since: fc.option(timeArg(lo, END), { nil: undefined }),
      until: fc.option(timeArg(lo, END), { nil: undefined }),
      sort: fc.option(fc.constantFrom("new", "comments"), { nil: undefined }),
      offset: fc.option(fc.integer({ min: 0, max: 200 }), { nil: undefined }),
    },
    { requiredKeys: [] },
  );
  const cascade = fc
    .tuple(id, fc.option(fc.integer({ min: 0, max: 300 }), { nil: undefined }))
    .map(([x, offset]) => ["get_cascade", offset === undefined ? { id: x } : { id: x, offset }] as Probe);
  const times = probeTimes(CUT, 6 * H, TIMES, 5);

  it("popularity: list_posts, get_post, get_cascade, quota, recommend, recommendations", async () => {
    const calls: fc.Arbitrary<Probe> = fc.oneof(
      listArgs.map((a) => ["list_posts", a] as Probe),
      id.map((x) => ["get_post", { id: x }] as Probe),
      { arbitrary: cascade, weight: 4 },
      fc.constant(["quota", {}] as Probe),
      { arbitrary: id.map((x) => ["recommend", { root_id: x }] as Probe), weight: 2 },
      fc.constant(["recommendations", {}] as Probe),
    );
    const n = await checkDifferentFutures({
      taskId: "popularity",
      worldA,
      worldB,
      cut: CUT,
      times,
      calls,
      callsPerTime: CALLS,
      harness: { start: START, end: END },
    });
    expect(n.probes).toBe(TIMES * CALLS);
    expect(n.ok).toBeGreaterThan(0.4 * n.probes);
  }, 900_000);

  it("daily-digest: list_posts, get_post, get_cascade, quota, digest_status, digest", async () => {
    const calls: fc.Arbitrary<Probe> = fc.oneof(
      listArgs.map((a) => ["list_posts", a] as Probe),
      id.map((x) => ["get_post", { id: x }] as Probe),
      { arbitrary: cascade, weight: 4 },
      fc.constant(["quota", {}] as Probe),
      fc.constant(["digest_status", {}] as Probe),
      fc.array(id, { minLength: 0, maxLength: 12 }).map((root_ids) => ["digest", { root_ids }] as Probe),
    );
    const n = await checkDifferentFutures({
      taskId: "daily-digest",
      worldA,
      worldB,
      cut: CUT,
      times,
      calls,
      callsPerTime: CALLS,
      harness: { start: START, end: END },
    });
    expect(n.probes).toBe(TIMES * CALLS);
    expect(n.ok).toBeGreaterThan(0.4 * n.probes);
  }, 900_000);
});
