import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureSynthWorld } from "../../../src/synth/synth-world.js";
import { popularityTask } from "../../../src/tasks/popularity/index.js";
import { oraclePolicy, silentPolicy, velocityPolicy } from "../../../src/tasks/popularity/reference-policies.js";
import { TruthStore } from "../../../src/world/truth-store.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { testSynthCache } from "../../support/shared-synth-cache.js";
import { driveTask } from "../../support/task-driver.js";

// Pinned anchors (tasks.md §3) on the synthetic world, seed 1, episode synth-7d (03-01 → 03-07): posts created
// 03-01 00:00 → 03-07 00:00 settle inside the window; 391 of them are tail posts, the cap-limited recall
// denominator is 6 days × 10 = 60.
describe("popularity anchors on synth-7d (seed 1)", () => {
  const ep = popularityTask.episodes.find((e) => e.name === "synth-7d")!;
  const { sim_start, sim_end } = ep;
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
  const go = (policy: typeof silentPolicy) =>
    driveTask({ task: popularityTask, world, truth, sim_start, sim_end, policy });

  it("silent → 0 (every tail post a miss)", async () => {
    const r = await go(silentPolicy);
    expect(r.report.primary.value).toBe(0);
    expect(r.report.metrics).toMatchObject({ tail_posts: 391, recall_denominator: 60, misses: 391, precision: 0 });
    expect(r.outcomes.every((o) => o.status === "miss")).toBe(true);
  });

  it("oracle (cap-limited, each tail post within a minute of its creation) → 0.9993467958250525", async () => {
    const r = await go(oraclePolicy);
    expect(r.report.primary.value).toBe(0.9993467958250525);
    expect(r.report.metrics).toMatchObject({ precision: 1, hits: 60, false_alarms: 0, cov_recall: 1 });
    expect(r.report.metrics.median_delay_hours).toBeLessThan(1 / 60);
  });

  it("the early-velocity forecaster (reference ceiling) → 0.8411140965161191 for $0.047", async () => {
    const r = await go(velocityPolicy);
    expect(r.report.primary.value).toBe(0.8411140965161191);
    expect(r.report.metrics).toMatchObject({ precision: 0.9, hits: 54, false_alarms: 6 });
    expect(r.spent_usd).toBeCloseTo(0.04704, 10);
    // it never reads anything but the agent-visible tools
    const tools = new Set(r.events.flatMap((e) => (e.type === "tool_call" ? [e.tool] : [])));
    expect([...tools].sort()).toEqual(["list_posts", "recommend", "recommendations"]);
  });
});
