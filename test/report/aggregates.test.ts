import { describe, expect, it } from "vitest";
import { aggregateCell } from "../../src/report/cells.js";
import { groupExperiments } from "../../src/report/experiments.js";
import { baselineOf, pairedDeltas } from "../../src/report/paired-deltas.js";
import { pooledSeedSd } from "../../src/report/pooled-sd.js";
import { rankConsistency } from "../../src/report/rank-consistency.js";
import type { ExperimentData } from "../../src/report/report-data.js";
import { runFacts } from "../../src/report/run-facts.js";
import { fakeRun } from "./fake-runs.js";

const facts = (runs: Parameters<typeof fakeRun>[0][]) => {
  const [e] = groupExperiments(runs.map(fakeRun));
  return { e: e!, facts: e!.runs.map((p) => runFacts(p, null)) };
};

describe("paired deltas along an ablation axis", () => {
  it("pairs seed-matched runs that differ only in the axis, with CI and cost multiplier", () => {
    const { e, facts: f } = facts([
      ...[0, 1, 2].map((seed) => ({ seed, primary: 0.5, spent: 1 })),
      ...[0, 1, 2].map((seed) => ({ seed, primary: 0.5 + 0.1 * (seed + 1), spent: 3, config: { feedback: "oracle" } })),
      // no partner at the baseline level: not a pair
      { seed: 9, primary: 1, spent: 100, config: { feedback: "oracle" } },
      // another model: pairs only with its own baseline runs (none)
      { model: "m2", seed: 0, primary: 0, spent: 1, config: { feedback: "oracle" } },
    ]);
    const axis = e.axes.find((a) => a.path === "feedback")!;
    const base = baselineOf(axis, f, {});
    expect(base).toBe('"oracle"'); // most runs
    const forced = baselineOf(axis, f, { feedback: "none" });
    expect(forced).toBe('"none"');
    expect(() => baselineOf(axis, f, { feedback: "self" })).toThrow(/values found: none, oracle/);
    const [d] = pairedDeltas(axis, forced, f);
    expect(d).toMatchObject({ axis: "feedback", baseline: "none", level: "oracle", pairs: 3 });
    expect(d!.mean_delta).toBeCloseTo(0.2, 12);
    expect(d!.cost_multiplier).toBeCloseTo(3, 12);
    expect(d!.ci95!.lo).toBeCloseTo(0.1, 12);
    expect(d!.ci95!.hi).toBeCloseTo(0.3, 12);
  });
});

describe("cells", () => {
  it("aggregates n, mean, SD, pass^k and mean spend, leaving not-scorable runs out", () => {
    const { facts: f } = facts([
      { seed: 0, primary: 1, spent: 2, reaction_h: 1 },
      { seed: 1, primary: 0, spent: 4, reaction_h: 4 },
      { seed: 2, primary: 1, spent: 6 },
      { seed: 3, primary: null, spent: 0 },
    ]);
    const c = aggregateCell(f, { binary: true, direction: "higher", axisNames: new Map() });
    expect(c).toMatchObject({ runs: 4, n: 3, not_scorable: 1, seeds: [0, 1, 2, 3], spend_mean_usd: 3 });
    expect(c.mean).toBeCloseTo(2 / 3, 14);
    expect(c.sd).toBeCloseTo(Math.sqrt(1 / 3), 14);
    expect(c.pass_k!.map((p) => p.value)).toEqual([2 / 3, 1 / 3, 0]);
    expect(c.score_per_usd).toBeCloseTo(2 / 9, 14);
    // runs without reactions are left out of the mean of the runs' median reaction times
    expect(c.diagnostics).toMatchObject({ reaction_h_p50_mean: 2.5, reactions: 2 });
  });

  it("pools the within-cell seed SD by trigger, weighting by degrees of freedom", () => {
    const cell = (trigger: string, n: number, sd: number | null) =>
      ({ trigger, n, sd }) as unknown as ExperimentData["cells"][number];
    // sleep: (2·0.1² + 4·0.2²) / 6 = 0.18/6 = 0.03; cron: a single seed contributes nothing
    const [sleep, cron] = pooledSeedSd([cell("sleep", 3, 0.1), cell("sleep", 5, 0.2), cell("cron", 1, null)]);
    expect(sleep!.sd).toBeCloseTo(Math.sqrt(0.03), 14);
    expect(sleep).toMatchObject({ trigger: "sleep", df: 6, cells: 2 });
    expect(cron).toMatchObject({ trigger: "cron", sd: null, df: 0, cells: 0 });
  });
});

describe("rank consistency across experiments", () => {
  const exp = (task: string, direction: "higher" | "lower", means: Record<string, number>) =>
    ({
      task,
      episode: "e",
      primary: { name: "x", direction },
      cells: Object.entries(means).map(([model, mean]) => ({ model, mean })),
    }) as unknown as ExperimentData;

  it("ranks by each primary's direction and leaves out models missing from an experiment", () => {
    const r = rankConsistency([
      exp("a", "higher", { m1: 0.9, m2: 0.5, m3: 0.1, only_a: 1 }),
      exp("b", "lower", { m1: 1, m2: 5, m3: 9 }),
    ]);
    expect(r.models).toEqual(["m1", "m2", "m3"]);
    expect(r.excluded_models).toEqual(["only_a"]);
    expect(r.ranks).toEqual([
      [1, 2, 3],
      [1, 2, 3],
    ]);
    expect(r.w).toBeCloseTo(1, 14);
    expect(r.note).toBeNull();
  });

  it("says why W is unavailable", () => {
    expect(rankConsistency([exp("a", "higher", { m1: 1, m2: 0 })]).note).toMatch(/at least two/);
    expect(rankConsistency([exp("a", "higher", { m1: 1 }), exp("b", "higher", { m1: 0 })]).note).toMatch(/two models/);
  });
});
