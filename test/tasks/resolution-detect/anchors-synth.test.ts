import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolutionDetectTask } from "../../../src/tasks/resolution-detect/index.js";
import {
  newsCuePolicy,
  oraclePolicy,
  priceCrossPolicy,
  silentPolicy,
  syncer6hPolicy,
  syncer24hPolicy,
} from "../../../src/tasks/resolution-detect/policies.js";
import type { ReferencePolicy } from "../../../src/tasks/task.js";
import { TruthStore } from "../../../src/world/truth-store.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { driveTask } from "../../support/task-driver.js";
import { synthWorldDir } from "../breakout-news/synth-cache.js";

function openEpisode(name: string) {
  const ep = resolutionDetectTask.episodes.find((e) => e.name === name)!;
  const dir = synthWorldDir(ep.sim_start, ep.sim_end);
  return { ep, world: WorldStore.open(dir), truth: TruthStore.open(dir) };
}

describe("resolution-detect anchors on synth-28d (seed 1), tasks.md §2", () => {
  let o: ReturnType<typeof openEpisode>;
  beforeAll(() => {
    o = openEpisode("synth-28d");
  });
  afterAll(() => {
    o.world.close();
    o.truth.close();
  });
  const drive = (policy: ReferencePolicy) =>
    driveTask({
      task: resolutionDetectTask,
      world: o.world,
      truth: o.truth,
      sim_start: o.ep.sim_start,
      sim_end: o.ep.sim_end,
      policy,
    });

  it("silent → 0 (9 winnable questions, all missed)", async () => {
    const r = await drive(silentPolicy);
    expect(r.report.primary.value).toBe(0);
    expect(r.report.metrics).toMatchObject({ questions: 20, winnable: 9, miss: 9, claims: 0 });
  });

  it("perfect (marks at t_det) → 1", async () => {
    const r = await drive(oraclePolicy);
    expect(r.report.primary.value).toBe(1);
    expect(r.report.metrics).toMatchObject({ cov_f1: 1, correct: 9, miss: 0, marks_rejected: 0 });
  });

  it("a syncer exactly 6 h late → exp(−1/8); 24 h late → exp(−1/2)", async () => {
    const six = await drive(syncer6hPolicy);
    expect(six.report.primary.value).toBeCloseTo(Math.exp(-1 / 8), 12);
    expect(six.outcomes.every((x) => x.credit === Math.exp(-1 / 8))).toBe(true);
    const day = await drive(syncer24hPolicy);
    expect(day.report.primary.value).toBeCloseTo(Math.exp(-1 / 2), 12);
    expect(day.report.metrics).toMatchObject({ claims: 9, correct: 9, claims_unsettled: 0 });
  });

  it("mark-when-price-crosses-0.99 → strictly between 0 and 1 (the false-band market costs precision)", async () => {
    const r = await drive(priceCrossPolicy);
    const v = r.report.primary.value!;
    expect(v).toBeGreaterThan(0);
    expect(v).toBeLessThan(1);
    expect(v).toBeCloseTo(18 / 19, 12);
    expect(r.report.metrics).toMatchObject({ correct: 9, no_determination: 1, recall: 1, precision: 0.9 });
    // the false-band market: its Yes price enters the 0.99 band, but it never resolves (ids are opaque)
    const falseBand = o.world.db
      .prepare(
        "SELECT DISTINCT market FROM market_price WHERE outcome = 'Yes' AND p >= 0.99" +
          " AND market NOT IN (SELECT market FROM market_resolution)",
      )
      .all() as { market: string }[];
    expect(falseBand).toHaveLength(1);
    expect(r.outcomes.find((x) => x.status === "no_determination")?.key).toBe(`q:${falseBand[0]!.market}`);
  });
});

describe("resolution-detect on synth-7d (seed 1)", () => {
  it("the news-cue heuristic, pinned; silent 0 and perfect 1", async () => {
    const o = openEpisode("synth-7d");
    try {
      const drive = (policy: ReferencePolicy) =>
        driveTask({
          task: resolutionDetectTask,
          world: o.world,
          truth: o.truth,
          sim_start: o.ep.sim_start,
          sim_end: o.ep.sim_end,
          policy,
        });
      expect((await drive(silentPolicy)).report.primary.value).toBe(0);
      expect((await drive(oraclePolicy)).report.primary.value).toBe(1);
      const h = await drive(newsCuePolicy);
      expect(h.report.primary.value).toBe(0.8417332387162572);
      expect(h.report.metrics).toMatchObject({ cov_f1: 1, winnable: 9, claims: 9, wrong: 0, no_determination: 0 });
      expect(h.spent_usd).toBeCloseTo(1.676, 9);
    } finally {
      o.world.close();
      o.truth.close();
    }
  });
});
