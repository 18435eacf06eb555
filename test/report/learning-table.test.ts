import { describe, expect, it } from "vitest";
import { aggregateCell, groupCells } from "../../src/report/cells.js";
import { shortAxisNames } from "../../src/report/config-axes.js";
import { groupExperiments } from "../../src/report/experiments.js";
import { learningRows } from "../../src/report/learning-table.js";
import { runFacts } from "../../src/report/run-facts.js";
import { fakeRun } from "./fake-runs.js";

const mem = (memory: string | undefined, trigger: "sleep" | "cron" = "sleep") => ({
  config: {
    feedback: "oracle",
    agent: { model: "scripted:a", trigger, deadline_guard: false, ...(memory !== undefined ? { memory } : {}) },
  },
  trigger,
});

describe("the learning table (paper's Table 1 shape)", () => {
  it("gives the primary with and without each method by model × trigger, with the cost multiplier", () => {
    const runs = [
      ...[0, 1].map((seed) => fakeRun({ seed, primary: 0.4 + 0.1 * seed, spent: 2, ...mem(undefined) })),
      ...[0, 1].map((seed) => fakeRun({ seed, primary: 0.6 + 0.1 * seed, spent: 3, ...mem("outcome") })),
      ...[0, 1].map((seed) => fakeRun({ seed, primary: 0.5, spent: 5, ...mem("reflection") })),
      ...[0, 1].map((seed) => fakeRun({ seed, primary: 0.2, spent: 1, ...mem("none", "cron") })),
      ...[0, 1].map((seed) => fakeRun({ seed, primary: 0.3, spent: 0.5, ...mem("outcome", "cron") })),
    ];
    const [e] = groupExperiments(runs);
    const facts = e!.runs.map((p) => runFacts(p, null));
    const axisNames = shortAxisNames(e!.axes.map((a) => a.path));
    const cells = groupCells(e!, facts).map((c) => aggregateCell(c, { binary: false, direction: "higher", axisNames }));
    const rows = learningRows(
      cells,
      e!.axes.map((a) => a.path),
    );
    expect(rows.map((r) => [r.trigger, r.without?.mean, r.methods.map((m) => m.method)])).toEqual([
      ["sleep", expect.closeTo(0.45, 12), ["outcome", "reflection"]],
      ["cron", 0.2, ["outcome"]],
    ]);
    const sleep = rows.find((r) => r.trigger === "sleep")!;
    expect(sleep.without!.sd).toBeCloseTo(Math.sqrt(0.005), 12);
    expect(sleep.methods[0]!.mean).toBeCloseTo(0.65, 12);
    expect(sleep.methods[0]!.cost_multiplier).toBeCloseTo(1.5, 12);
    expect(sleep.methods[1]!.cost_multiplier).toBeCloseTo(2.5, 12);
    expect(rows.find((r) => r.trigger === "cron")!.methods[0]!.cost_multiplier).toBeCloseTo(0.5, 12);
  });

  it("is empty when no learning axis varies", () => {
    const [e] = groupExperiments([0, 1].map((seed) => fakeRun({ seed })));
    expect(
      learningRows(
        [],
        e!.axes.map((a) => a.path),
      ),
    ).toEqual([]);
  });
});

const learn = (learning: Record<string, unknown> | undefined) => ({
  config: {
    feedback: "oracle",
    agent: { model: "scripted:a", trigger: "sleep", deadline_guard: false, ...(learning ? { learning } : {}) },
  },
  trigger: "sleep" as const,
});

describe("the learning table: agent.learning (Best-of-N) as one axis", () => {
  it("reads each agent.learning object as one axis value, with {method: none} (or unset) as the baseline", () => {
    const bon = { method: "best-of-n", n: 3, prune_days: [2, 7] };
    for (const base of [{ method: "none" }, undefined]) {
      const runs = [
        ...[0, 1].map((seed) => fakeRun({ seed, primary: 0.4 + 0.1 * seed, spent: 2, ...learn(base) })),
        ...[0, 1].map((seed) => fakeRun({ seed, primary: 0.5 + 0.1 * seed, spent: 3.22, ...learn(bon) })),
      ];
      const [e] = groupExperiments(runs);
      // one axis, not agent.learning.method / .n / .prune_days
      expect(e!.axes.map((a) => a.path)).toEqual(["agent.learning"]);
      const facts = e!.runs.map((p) => runFacts(p, null));
      const axisNames = shortAxisNames(e!.axes.map((a) => a.path));
      const cells = groupCells(e!, facts).map((c) =>
        aggregateCell(c, { binary: false, direction: "higher", axisNames }),
      );
      const rows = learningRows(
        cells,
        e!.axes.map((a) => a.path),
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.axis).toBe("agent.learning");
      expect(rows[0]!.without?.mean).toBeCloseTo(0.45, 12);
      expect(rows[0]!.methods.map((m) => m.method)).toEqual(["best-of-n (n 3, prune_days 2,7)"]);
      expect(rows[0]!.methods[0]!.mean).toBeCloseTo(0.55, 12);
      expect(rows[0]!.methods[0]!.cost_multiplier).toBeCloseTo(1.61, 12);
    }
  });
});

describe("the learning section of the HTML report", () => {
  it("renders the Table 1 shape when agent.memory varies", async () => {
    const { aggregate } = await import("../../src/report/aggregate.js");
    const { renderHtml } = await import("../../src/report/html.js");
    const runs = [
      ...[0, 1].map((seed) => fakeRun({ seed, primary: 0.4, spent: 2, ...mem("none") })),
      ...[0, 1].map((seed) => fakeRun({ seed, primary: 0.6, spent: 3, ...mem("outcome") })),
    ];
    const { data } = await aggregate({ runs, skipped: [] });
    expect(data.experiments[0]!.learning).toHaveLength(1);
    const html = renderHtml(data, [{ charts: [], missing: [] }]);
    expect(html).toContain("Learning: acc ×100 ± 1 SD with and without the method, by model × trigger (Table 1 shape)");
    expect(html).toContain("40.0 ± 0.0 (n 2)");
    expect(html).toContain("60.0 ± 0.0 (n 2)");
    expect(html).toContain("×1.50");
  });
});
