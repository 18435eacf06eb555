import { describe, expect, it } from "vitest";
import { configPaths, shortAxisNames, varyingAxes } from "../../src/report/config-axes.js";
import { groupExperiments } from "../../src/report/experiments.js";
import { ReportInputError } from "../../src/report/report-error.js";
import { fakeRun } from "./fake-runs.js";

describe("grouping runs into experiments", () => {
  it("refuses to pool runs whose task, scorer or harness versions differ, listing the versions", () => {
    const runs = [
      fakeRun({ seed: 0, scorer_version: "t-scorer/1" }),
      fakeRun({ seed: 1, scorer_version: "t-scorer/1" }),
      fakeRun({ seed: 2, scorer_version: "t-scorer/2", dir: "/runs/new-s2" }),
    ];
    let err: unknown;
    try {
      groupExperiments(runs);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ReportInputError);
    const msg = (err as Error).message;
    expect(msg).toContain("refusing to pool");
    expect(msg).toContain("scorer_version t-scorer/1: 2 run(s)");
    expect(msg).toContain("scorer_version t-scorer/2: 1 run(s), e.g. /runs/new-s2");
    expect(msg).toContain("--pool-versions");
    expect(msg).not.toContain("task_version");
  });

  it("pools differing versions when told to, and records them", () => {
    const [e] = groupExperiments(
      [fakeRun({ seed: 0, harness_version: "0.1.0" }), fakeRun({ seed: 1, harness_version: "0.2.0" })],
      { poolVersions: true },
    );
    expect(e!.versions.harness_version).toEqual(["0.1.0", "0.2.0"]);
    expect(e!.runs).toHaveLength(2);
  });

  it("keeps different tasks, episodes and windows apart", () => {
    const ex = groupExperiments([
      fakeRun({ task: "a" }),
      fakeRun({ task: "b" }),
      fakeRun({ task: "b", episode: "other" }),
    ]);
    expect(ex.map((e) => [e.task, e.episode])).toEqual([
      ["a", "e"],
      ["b", "e"],
      ["b", "other"],
    ]);
  });

  it("finds the ablation axes: varying config fields other than model, trigger and seed", () => {
    const runs = [
      fakeRun({ model: "m1", trigger: "sleep", seed: 0 }),
      fakeRun({ model: "m2", trigger: "cron", seed: 1, config: { feedback: "oracle" } }),
      fakeRun({ model: "m1", seed: 2, budget_usd: 5 }),
    ];
    const [e] = groupExperiments(runs);
    expect(e!.axes).toEqual([
      { path: "budget_usd", values: ["5", "20"] },
      { path: "feedback", values: ['"none"', '"oracle"'] },
    ]);
    expect(e!.runs.map((r) => r.axes)).toEqual([
      { budget_usd: "20", feedback: '"none"' },
      { budget_usd: "20", feedback: '"oracle"' },
      { budget_usd: "5", feedback: '"none"' },
    ]);
    expect(configPaths(runs[0]!)).toMatchObject({ "agent.deadline_guard": "false", "task_params.k": "1" });
    expect(varyingAxes([{ x: "1" }, {}])).toEqual([{ path: "x", values: ["1", "unset"] }]);
    expect(shortAxisNames(["agent.deadline_guard", "a.x", "b.x"])).toEqual(
      new Map([
        ["agent.deadline_guard", "deadline_guard"],
        ["a.x", "a.x"],
        ["b.x", "b.x"],
      ]),
    );
  });

  it("puts an outside app beside relive's harness on the same base model (its upstream model is its label, not an axis)", () => {
    const native = fakeRun({ model: "openai:m", seed: 0 });
    const app = fakeRun({
      model: "external:codex",
      seed: 0,
      config: {
        agent: { model: "external:codex", upstream_model: "openai:m", trigger: "sleep", deadline_guard: false },
      },
    });
    Object.assign(native.results, { harness: "relive-react" });
    Object.assign(app.results, { harness: "external:codex", upstream_model: "openai:m" });
    const [exp, ...rest] = groupExperiments([native, app]);
    expect(rest).toEqual([]);
    expect(exp!.axes).toEqual([]);
    expect(exp!.runs.map((r) => r.model)).toEqual(["openai:m", "external:codex · openai:m"]);
  });
});
