/**
 * R1 for every popularity tool (list_posts, get_post, get_cascade, quota, recommend,
 * recommendations): at random cut times, on the full synthetic world and on a copy with every row
 * visible after the cut deleted, random call sequences give byte-identical results, rejection texts,
 * prices and ledgers (test/support/leakage.ts). A recommendation of a post created after the cut, or of
 * an unknown id, must be refused with the same text in both worlds.
 */
import { mkdirSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ensureSynthWorld } from "../../../src/synth/synth-world.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { checkLeakage, type Probe, timeArg } from "../../support/leakage.js";
import { testSynthCache } from "../../support/shared-synth-cache.js";

const START = Date.parse("2026-03-01T00:00:00Z");
const END = Date.parse("2026-03-08T00:00:00Z");
const CUTS = 3;
const CALLS_PER_CUT = 400;

describe("R1: popularity tools leak nothing visible after now", () => {
  it(`${CALLS_PER_CUT} probes at each of ${CUTS} cuts give identical results on the full and the truncated world`, async () => {
    const cache = testSynthCache();
    mkdirSync(cache, { recursive: true });
    const worldDir = ensureSynthWorld(cache, { seed: 1, start: START, end: END });
    const cuts = fc.sample(fc.integer({ min: START + 86_400_000, max: END - 1 }), { numRuns: CUTS, seed: 11 });
    const full = WorldStore.open(worldDir);
    const ids = new Set<string>();
    for (const cut of cuts) {
      // posts around each cut: just before it (recommendable), just after it (not yet posted)
      for (const r of full.db
        .prepare(
          "SELECT id FROM reddit_post WHERE created_utc BETWEEN ? AND ? AND rowid % 7 = 0 ORDER BY created_utc LIMIT 120",
        )
        .all(cut - 3 * 3_600_000, cut + 3 * 3_600_000) as { id: string }[])
        ids.add(r.id);
    }
    for (const r of full.db.prepare("SELECT id FROM reddit_post WHERE rowid % 500 = 0").all() as { id: string }[])
      ids.add(r.id);
    full.close();
    const id = fc.oneof(fc.constantFrom(...ids), fc.string({ maxLength: 8 }));
    const lo = START - 9 * 86_400_000;
    const calls: fc.Arbitrary<Probe> = fc.oneof(
      fc
        .record(
          {
            since: fc.option(timeArg(lo, END), { nil: undefined }),
            until: fc.option(timeArg(lo, END), { nil: undefined }),
            sort: fc.option(fc.constantFrom("new", "comments"), { nil: undefined }),
            offset: fc.option(fc.integer({ min: 0, max: 200 }), { nil: undefined }),
          },
          { requiredKeys: [] },
        )
        .map((a) => ["list_posts", a] as Probe),
      id.map((x) => ["get_post", { id: x }] as Probe),
      id.map((x) => ["get_cascade", { id: x }] as Probe),
      fc.constant(["quota", {}] as Probe),
      { arbitrary: id.map((x) => ["recommend", { root_id: x }] as Probe), weight: 4 },
      fc.constant(["recommendations", {}] as Probe),
    );
    const probes = await checkLeakage({
      taskId: "popularity",
      worldDir,
      calls,
      cuts,
      callsPerCut: CALLS_PER_CUT,
      harness: { start: START, end: END },
    });
    expect(probes).toBe(CUTS * CALLS_PER_CUT);
  }, 900_000);
});
