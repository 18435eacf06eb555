import { describe, expect, it } from "vitest";
import { capabilitySlices } from "../../src/report/capability-slices.js";
import { aggregateCell } from "../../src/report/cells.js";
import { paretoFrontier } from "../../src/report/charts.js";
import { groupExperiments } from "../../src/report/experiments.js";
import { fStat, num, pValue, sig, ss } from "../../src/report/format.js";
import { triggerBaseline, triggerDeltas } from "../../src/report/paired-deltas.js";
import type { CellData, ExperimentData } from "../../src/report/report-data.js";
import { runFacts } from "../../src/report/run-facts.js";
import { type FakeRun, fakeRun } from "./fake-runs.js";

const facts = (runs: FakeRun[]) => {
  const [e] = groupExperiments(runs.map(fakeRun));
  return { e: e!, facts: e!.runs.map((p) => runFacts(p, null)) };
};

describe("world seeds are replicates, never axes", () => {
  it("a grid over world seeds [1, 2, 3] gives one cell with n = 3 and a CI", () => {
    const { e, facts: f } = facts([1, 2, 3].map((w) => ({ primary: 0.1 * w, config: { world: { seed: w } } })));
    expect(e.axes).toEqual([]);
    const c = aggregateCell(f, { binary: false, direction: "higher", axisNames: new Map() });
    expect(c).toMatchObject({ runs: 3, n: 3, seeds: [0, 0, 0], world_seeds: [1, 2, 3] });
    expect(c.ci95).not.toBeNull();
    expect(c.mean).toBeCloseTo(0.2, 14);
  });
});

describe("headline trigger deltas", () => {
  it("pairs runs identical in model, seed, world seed and axes; sleep is the baseline", () => {
    const runs: FakeRun[] = [];
    for (const w of [1, 2, 3]) {
      runs.push({ trigger: "sleep", primary: 0.5, spent: 1, config: { world: { seed: w } } });
      runs.push({ trigger: "cron", primary: 0.5 + 0.1 * w, spent: 2, config: { world: { seed: w } } });
    }
    // a cron run with no sleep partner (another world seed): not a pair
    runs.push({ trigger: "cron", primary: 1, spent: 9, config: { world: { seed: 4 } } });
    const { facts: f } = facts(runs);
    expect(triggerBaseline(f)).toBe("sleep");
    const [d] = triggerDeltas(f);
    expect(d).toMatchObject({ axis: "trigger", baseline: "sleep", level: "cron", pairs: 3 });
    expect(d!.mean_delta).toBeCloseTo(0.2, 12);
    expect(d!.cost_multiplier).toBeCloseTo(2, 12);
    expect(d!.ci95!.lo).toBeCloseTo(0.1, 12);
    expect(d!.ci95!.hi).toBeCloseTo(0.3, 12);
  });

  it("without sleep the baseline is the trigger with most runs", () => {
    const { facts: f } = facts([{ trigger: "cron" }, { trigger: "cron", seed: 1 }, { trigger: "watcher" }]);
    expect(triggerBaseline(f)).toBe("cron");
    expect(triggerDeltas(f).map((d) => [d.level, d.pairs])).toEqual([["watcher", 1]]);
  });
});

const cell = (model: string, spend: number, mean: number | null) =>
  ({ model, spend_mean_usd: spend, mean }) as CellData;

describe("score-versus-spend Pareto frontier", () => {
  it("keeps the cells no other cell dominates, by spend", () => {
    const cells = [
      cell("a", 1, 0.5),
      cell("b", 2, 0.4),
      cell("c", 2, 0.7),
      cell("d", 3, 0.7),
      cell("e", 0, 0.1),
      cell("f", 5, null),
    ];
    expect(paretoFrontier(cells, "higher").map((c) => c.model)).toEqual(["e", "a", "c"]);
    // lower is better: the cheapest lowest scores
    expect(paretoFrontier(cells, "lower").map((c) => c.model)).toEqual(["e"]);
  });
});

describe("capability slices", () => {
  const exp = (
    task: string,
    axes: Record<string, string>,
    direction: "higher" | "lower",
    means: Record<string, number>,
  ) =>
    ({
      task,
      episode: "e",
      primary: { name: "m", direction },
      task_axes: axes,
      cells: Object.entries(means).map(([trigger, mean]) => ({ trigger, mean, n: 2 })),
      trigger_deltas: Object.entries(means)
        .filter(([t]) => t !== "sleep")
        .map(([level, m]) => ({ level, mean_delta: m - means.sleep! })),
    }) as unknown as ExperimentData;

  it("averages each trigger's mean over the slice's higher-is-better experiments and lists the others", () => {
    const slices = capabilitySlices([
      exp("x", { time_sensitivity: "high", reasoning: "low", recurrence: "daily" }, "higher", {
        sleep: 0.4,
        cron: 0.6,
      }),
      exp("y", { time_sensitivity: "high", reasoning: "high", recurrence: "daily" }, "higher", {
        sleep: 0.8,
        cron: 0.7,
      }),
      exp("z", { time_sensitivity: "high", reasoning: "high", recurrence: "event" }, "lower", { sleep: 0.1 }),
    ]);
    const high = slices.find((s) => s.axis === "time_sensitivity" && s.value === "high")!;
    expect(high.tasks).toEqual(["x", "y", "z"]);
    expect(high.excluded).toEqual(["z · e"]);
    const [sleep, cron] = high.by_trigger;
    expect(sleep).toMatchObject({ trigger: "sleep", experiments: 2 });
    expect(sleep!.mean_primary).toBeCloseTo(0.6, 12);
    expect(cron!.mean_primary).toBeCloseTo(0.65, 12);
    expect(cron!.mean_delta).toBeCloseTo(0.05, 12);
    expect(slices.map((s) => `${s.axis}=${s.value}`)).toEqual([
      "time_sensitivity=high",
      "reasoning=high",
      "reasoning=low",
      "recurrence=daily",
      "recurrence=event",
    ]);
  });
});

describe("numbers are never in scientific notation", () => {
  it("formats tiny and huge values positionally", () => {
    for (const s of [
      sig(1.2e-7, 6),
      ss(3.4e21),
      ss(1.5e-9),
      fStat(2.5e-8),
      fStat(7e22),
      num(1e21),
      num(1.23e-9, 2),
      pValue(1e-12),
    ])
      expect(s).not.toMatch(/e[+-]?\d/i);
    expect(sig(1.2e-7, 6)).toBe("0.00000012");
    expect(ss(123456789)).toBe("123457000");
    expect(pValue(1e-12)).toBe("< 0.0001");
  });
});
