import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseRunConfig } from "../../../src/run/config.js";
import { resolveRun } from "../../../src/run/resolve-run.js";
import { WorldBuilder } from "../../../src/world/world-builder.js";
import { options, run } from "../../run/helpers.js";
import { EXAMPLE_TASK, importExample } from "./example-world.js";

// The whole path a user takes: an imported log, `--world DIR`, the default episode (the example's
// window), `-p task_file=...`, a scripted policy through the real runner.
describe("event-response through the runner", () => {
  let world: string;
  beforeAll(async () => {
    world = await importExample();
  });

  it("poll-15m on the example: on_time_rate 0.8, 288 wakes, 4 missed deadlines, reaction times in diagnostics", async () => {
    const res = await run({
      task: "event-response",
      episode: "example-oncall-3d",
      world: { dir: world },
      task_params: { task_file: EXAMPLE_TASK },
      agent: { model: "scripted:poll-15m" },
    });
    const r = res.results;
    expect(r.performance.primary).toEqual({ name: "on_time_rate", value: 0.8, direction: "higher" });
    expect(r.resources.wakes).toBe(288);
    expect(r.diagnostics.missed).toBe(4);
    expect(r.diagnostics.reaction_h?.n).toBe(16);
    expect(r.not_scorable, JSON.stringify(r.not_scorable)).toEqual([
      { key: "event:A-212", reason: "settles after window" },
    ]);
  }, 900_000);

  it("oracle → 1 and silent → 0 through the runner", async () => {
    for (const [model, v] of [
      ["scripted:oracle", 1],
      ["scripted:silent", 0],
    ] as const) {
      const res = await run({
        task: "event-response",
        world: { dir: world },
        task_params: { task_file: EXAMPLE_TASK },
        agent: { model },
      });
      expect(res.results.performance.primary.value, model).toBe(v);
    }
  }, 900_000);

  it("the task file's sha256 is part of run identity", () => {
    const dir = mkdtempSync(join(tmpdir(), "relive-ev-id-"));
    const f = join(dir, "task.yaml");
    const id = (text: string) => {
      writeFileSync(f, text);
      const cfg = parseRunConfig({ task: "event-response", world: { dir: world }, task_params: { task_file: f } });
      return resolveRun(cfg, { ...options(), checkModel: false }).runId;
    };
    const a = id("respond:\n  alert: 30m\n");
    expect(id("respond:\n  alert: 30m\n")).toBe(a);
    expect(id("respond:\n  alert: 31m\n")).not.toBe(a);
  });

  it("refuses a world without an event stream, a bad task file, and a missing task_file", async () => {
    const empty = join(mkdtempSync(join(tmpdir(), "relive-ev-empty-")), "world");
    const b = WorldBuilder.create(empty, {
      name: "no-events",
      window: { start: Date.parse("2026-03-02T00:00:00Z"), end: Date.parse("2026-03-05T00:00:00Z") },
      builder: "test",
      builder_version: "1",
    });
    b.finish();
    await expect(
      run({ task: "event-response", world: { dir: empty }, task_params: { task_file: EXAMPLE_TASK } }),
    ).rejects.toThrow(/it has no event rows \(task event-response needs event/);
    const bad = join(mkdtempSync(join(tmpdir(), "relive-ev-bad-")), "task.yaml");
    writeFileSync(bad, "respond:\n  alert: soon\n");
    await expect(
      run({ task: "event-response", world: { dir: world }, task_params: { task_file: bad } }),
    ).rejects.toThrow(/task_params\.task_file: .*respond\.alert\.deadline: not a duration: "soon"/);
    await expect(run({ task: "event-response", world: { dir: world } })).rejects.toThrow(/task_params\.task_file/);
  }, 900_000);
});
