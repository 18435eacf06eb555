import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/run/config.js";
import { expandGrid } from "../../../src/run/grid/expand-grid.js";
import { loadGridConfig, parseGridConfig } from "../../../src/run/grid/grid-config.js";

const BASE = { task: "daily-digest", sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-04T00:00:00Z" };

const expand = (raw: unknown) => expandGrid(parseGridConfig(raw, "test"), "test");

describe("grid expansion", () => {
  it("takes agent.learning as an axis of whole method objects (none vs best-of-n), each cell validated", () => {
    const cells = expand({
      base: { ...BASE, task: "popularity", feedback: "oracle", agent: { model: "scripted:velocity" } },
      axes: {
        "agent.learning": [{ method: "none" }, { method: "best-of-n", n: 3, prune_days: [1, 2] }],
      },
    });
    expect(cells.map((c) => c.config.agent.learning)).toEqual([
      { method: "none" },
      { method: "best-of-n", n: 3, prune_days: [1, 2] },
    ]);
    expect(cells[1]!.label).toBe('agent.learning={"method":"best-of-n","n":3,"prune_days":[1,2]}');
    expect(() =>
      expand({ base: BASE, axes: { "agent.learning": [{ method: "best-of-n", n: 1, prune_days: [1] }] } }),
    ).toThrow(/agent\.learning\.n: best-of-n needs at least 2 branches/);
  });

  it("is the full cross product in a fixed order: named axes first, dotted paths in file order, seeds fastest", () => {
    const cells = expand({
      base: BASE,
      axes: {
        seeds: [0, 1],
        "agent.deadline_guard": [false, true],
        models: ["scripted:top-comments", "scripted:silent"],
        triggers: ["sleep", "cron"],
      },
    });
    expect(cells).toHaveLength(16);
    expect(cells.map((c) => c.index)).toEqual([...Array(16).keys()]);
    expect(cells.slice(0, 5).map((c) => c.label)).toEqual([
      "models=scripted:top-comments triggers=sleep agent.deadline_guard=false seeds=0",
      "models=scripted:top-comments triggers=sleep agent.deadline_guard=false seeds=1",
      "models=scripted:top-comments triggers=sleep agent.deadline_guard=true seeds=0",
      "models=scripted:top-comments triggers=sleep agent.deadline_guard=true seeds=1",
      "models=scripted:top-comments triggers=cron agent.deadline_guard=false seeds=0",
    ]);
    expect(cells[15]!.label).toBe("models=scripted:silent triggers=cron agent.deadline_guard=true seeds=1");
    const last = cells[15]!.config;
    expect(last.agent.model).toBe("scripted:silent");
    expect(last.agent.trigger).toBe("cron");
    expect(last.agent.deadline_guard).toBe(true);
    expect(last.seed).toBe(1);
    expect(last.sim_start).toBe(Date.parse(BASE.sim_start));
    // every combination exactly once
    const keys = new Set(
      cells.map(
        (c) => `${c.config.agent.model}|${c.config.agent.trigger}|${c.config.agent.deadline_guard}|${c.config.seed}`,
      ),
    );
    expect(keys.size).toBe(16);
    // deterministic: the same file expands the same way
    expect(
      expand({
        base: BASE,
        axes: {
          seeds: [0, 1],
          "agent.deadline_guard": [false, true],
          models: ["scripted:top-comments", "scripted:silent"],
          triggers: ["sleep", "cron"],
        },
      }).map((c) => c.label),
    ).toEqual(cells.map((c) => c.label));
  });

  it("sets dotted paths inside nested fields and keeps the base's other fields", () => {
    const cells = expand({
      base: { ...BASE, agent: { model: "scripted:top-comments", trigger: "cron" }, task_params: { keep: 1 } },
      axes: { "agent.context_tokens": [30_000, 90_000], "task_params.x": [1, 2], "world.seed": [7] },
    });
    expect(cells.map((c) => [c.config.agent.context_tokens, c.config.task_params, c.config.world])).toEqual([
      [30_000, { keep: 1, x: 1 }, { seed: 7 }],
      [30_000, { keep: 1, x: 2 }, { seed: 7 }],
      [90_000, { keep: 1, x: 1 }, { seed: 7 }],
      [90_000, { keep: 1, x: 2 }, { seed: 7 }],
    ]);
    for (const c of cells) {
      expect(c.config.agent.trigger).toBe("cron");
      expect(c.config.agent.model).toBe("scripted:top-comments");
    }
    expect(cells[1]!.values).toEqual({ "agent.context_tokens": 30_000, "task_params.x": 2, "world.seed": 7 });
  });

  it("takes `seeds: N` as 0..N-1 and a grid without axes as its base", () => {
    expect(expand({ base: BASE, axes: { seeds: 3 } }).map((c) => c.config.seed)).toEqual([0, 1, 2]);
    const one = expand({ base: { ...BASE, seed: 4 } });
    expect(one).toHaveLength(1);
    expect(one[0]!.label).toBe("");
    expect(one[0]!.config.seed).toBe(4);
  });

  it("names the cell, its axis values and the field of an invalid cell", () => {
    const bad = () =>
      expand({ base: BASE, axes: { triggers: ["sleep", "hourly"], "agent.context_tokens": [1000, -5] } });
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow(/cell 2 of 4 \(triggers=sleep agent\.context_tokens=-5\)/);
    expect(bad).toThrow(/agent\.context_tokens:/);
    try {
      expand({ base: BASE, axes: { triggers: ["sleep", "hourly"] } });
      expect.unreachable();
    } catch (err) {
      expect((err as Error).message).toMatch(/cell 2 of 2 \(triggers=hourly\)/);
      expect((err as Error).message).toMatch(/agent\.trigger:/);
    }
    expect(() => expand({ base: {}, axes: { seeds: [0] } })).toThrow(/cell 1 of 1 \(seeds=0\)[\s\S]*task:/);
    expect(() => expand({ base: BASE, axes: { "agent.bogus": [1] } })).toThrow(/cell 1 of 1[\s\S]*agent/);
  });

  it("refuses bad axes before expanding", () => {
    expect(() => expand({ base: BASE, axes: { colour: [1] } })).toThrow(
      /axes\.colour: "colour" is not a run-config field/,
    );
    expect(() => expand({ base: BASE, axes: { seeds: [0], seed: [1] } })).toThrow(/"seeds" and "seed" both set seed/);
    expect(() => expand({ base: BASE, axes: { agent: [{}], "agent.trigger": ["cron"] } })).toThrow(/both set agent/);
    expect(() => expand({ base: BASE, axes: { models: [] } })).toThrow(
      /axes\.models: an axis needs at least one value/,
    );
    expect(() => expand({ base: BASE, axes: { seeds: [1, 1] } })).toThrow(/axes\.seeds: value 1 is listed twice/);
    expect(() => expand({ base: BASE, axes: { triggers: 2 } })).toThrow(/only `seeds` may be a count/);
    expect(() => expand({ base: BASE, axes: {}, extra: 1 })).toThrow(/invalid grid config in test/);
    expect(() => expand({ base: BASE, concurrency: { openai: 0 } })).toThrow(/concurrency\.openai/);
    expect(() => expand({ base: { ...BASE, agent: 3 }, axes: { "agent.trigger": ["cron"] } })).toThrow(
      /cannot set agent\.trigger: agent in the base config is not an object/,
    );
  });

  it("reads YAML and JSON grid files", () => {
    const dir = mkdtempSync(join(tmpdir(), "relive-grid-file-"));
    const yaml = join(dir, "g.yaml");
    writeFileSync(
      yaml,
      `name: demo\nbase: { task: daily-digest, sim_start: 2026-03-01T00:00:00Z, sim_end: 2026-03-04T00:00:00Z }\naxes:\n  models: [scripted:top-comments, scripted:silent]\n  seeds: 2\nconcurrency: { openai: 4, anthropic: 2 }\n`,
    );
    const g = loadGridConfig(yaml);
    expect(g.concurrency).toEqual({ openai: 4, anthropic: 2 });
    expect(expandGrid(g, yaml).map((c) => c.label)).toEqual([
      "models=scripted:top-comments seeds=0",
      "models=scripted:top-comments seeds=1",
      "models=scripted:silent seeds=0",
      "models=scripted:silent seeds=1",
    ]);
    const json = join(dir, "g.json");
    writeFileSync(json, JSON.stringify({ base: BASE, axes: { seeds: 1 } }));
    expect(expandGrid(loadGridConfig(json)).length).toBe(1);
    writeFileSync(json, "{ not json");
    expect(() => loadGridConfig(json)).toThrow(/is not valid JSON/);
    expect(() => loadGridConfig(join(dir, "missing.yaml"))).toThrow(/cannot read grid config/);
  });
});
