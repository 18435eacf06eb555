import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureSynthWorld } from "../../../src/synth/synth-world.js";
import { dailyDigestTask } from "../../../src/tasks/daily-digest/index.js";
import { DailyDigestParams } from "../../../src/tasks/daily-digest/params.js";
import {
  oraclePolicy,
  silentPolicy,
  topCommentsPolicyAt1230,
  topCommentsPolicyAt1330,
} from "../../../src/tasks/daily-digest/reference-policies.js";
import { daysOpeningIn } from "../../../src/tasks/daily-digest/schedule.js";
import { TruthStore } from "../../../src/world/truth-store.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { testSynthCache } from "../../support/shared-synth-cache.js";
import { drive } from "./mini-driver.js";

// Pinned anchors (tasks.md §4) on the synthetic world, seed 1: the quick synth-7d (6 scored days) and the
// default synth-28d (27 scored days; generating it takes ~15 s, once per test run: test/support/shared-synth-cache.ts).
describe.each([
  { name: "synth-7d", scored: 6, last: "day:2026-03-07" },
  { name: "synth-28d", scored: 27, last: "day:2026-03-28" },
])("daily-digest anchors on $name (seed 1)", ({ name, scored, last }) => {
  const episode = dailyDigestTask.episodes.find((e) => e.name === name)!;
  const { sim_start, sim_end } = episode;
  let world: WorldStore;
  let truth: TruthStore;

  beforeAll(() => {
    const cache = testSynthCache();
    mkdirSync(cache, { recursive: true });
    const dir = ensureSynthWorld(cache, { seed: 1, start: sim_start, end: sim_end });
    world = WorldStore.open(dir);
    truth = TruthStore.open(dir);
  });
  afterAll(() => {
    world.close();
    truth.close();
  });

  it("the world gives every scored day ≥ 10 candidates already past 50 comments at the window opening", () => {
    const p = DailyDigestParams.parse({});
    const days = daysOpeningIn(sim_start, sim_end, p).filter((d) => d.settles <= sim_end);
    expect(days).toHaveLength(scored);
    for (const d of days) {
      const view = world.at(() => d.opens);
      const { posts } = view.reddit.listPosts({
        since: d.candidatesFrom,
        until: d.opens - 1,
        sort: "comments",
        limit: 10,
      });
      expect(posts, d.key).toHaveLength(10);
      expect(posts[9]!.num_comments, d.key).toBeGreaterThanOrEqual(50);
    }
  });

  it("silent → 0", async () => {
    const r = await drive({ world, truth, sim_start, sim_end, policy: silentPolicy });
    expect(r.report.primary.value).toBe(0);
    expect(r.report.metrics.days_scored).toBe(scored);
    expect(r.report.not_scorable).toEqual([{ key: last, reason: "settles after window" }]);
  });

  it("top 10 of list_posts(sort = comments) delivered at 12:30 → 1.0", async () => {
    const r = await drive({ world, truth, sim_start, sim_end, policy: topCommentsPolicyAt1230 });
    expect(r.report.primary.value).toBe(1);
    expect(r.report.metrics.days_delivered).toBe(scored);
  });

  it("the same at 13:30 (window closed) → 0.0", async () => {
    const r = await drive({ world, truth, sim_start, sim_end, policy: topCommentsPolicyAt1330 });
    expect(r.report.primary.value).toBe(0);
    expect(r.report.metrics.days_delivered).toBe(0);
    expect(r.report.metrics.digests_rejected).toBe(scored + 1);
  });

  it("oracle → 1.0", async () => {
    const r = await drive({ world, truth, sim_start, sim_end, policy: oraclePolicy });
    expect(r.report.primary.value).toBe(1);
  });
});
