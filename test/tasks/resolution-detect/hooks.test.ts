import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOUR_MS } from "../../../src/common/time.js";
import { Kernel } from "../../../src/kernel/kernel.js";
import { resolutionDetectTask } from "../../../src/tasks/resolution-detect/index.js";
import type { TaskRunContext } from "../../../src/tasks/task.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { buildResolutionTinyWorld, SIM_END, SIM_START, T } from "./tiny-world.js";

let dir: string;
let world: WorldStore;
const clock = { t: SIM_START };

beforeAll(() => {
  dir = buildResolutionTinyWorld();
  world = WorldStore.open(dir);
});
afterAll(() => {
  world.close();
  rmSync(dirname(dir), { recursive: true, force: true });
});

function open() {
  const ctx: TaskRunContext<unknown> = {
    params: {},
    feedback: "none",
    oracleFeedback: null,
    sim_start: SIM_START,
    sim_end: SIM_END,
    view: world.at(() => clock.t),
    kernel: new Kernel({ start: SIM_START, end: SIM_END }),
    budget_usd: 70,
    env_seed: 0,
    world,
  };
  return { ctx, run: resolutionDetectTask.open(ctx) };
}

describe("resolution-detect contract hooks", () => {
  it("state(): the marks already made (one per question, ever), in acceptance order", async () => {
    const { ctx, run } = open();
    const mark = run.tools().find((t) => t.name === "mark_outcome")!;
    const call = (args: unknown) => mark.invoke(args, { now: () => clock.t, actor: "agent" });
    expect(run.state()).toEqual([{ title: "marks made (final: one per question)", open: 0, lines: [] }]);
    clock.t = T("2026-03-02T12:30:00Z");
    expect((await call({ question_id: "ld-a", outcome: "Yes", news_id: "n-a" })).ok).toBe(true);
    clock.t = T("2026-03-03T01:00:00Z");
    expect((await call({ question_id: "ld-c", outcome: "No" })).ok).toBe(true);
    // a second mark on a question is refused and changes nothing
    expect((await call({ question_id: "ld-a", outcome: "No" })).ok).toBe(false);
    expect(run.state()).toEqual([
      {
        title: "marks made (final: one per question)",
        open: 0,
        lines: ["ld-a: Yes, citing n-a, marked 2026-03-02T12:30:00.000Z", "ld-c: No, marked 2026-03-03T01:00:00.000Z"],
      },
    ]);
    expect(resolutionDetectTask.open(ctx).state()[0]!.lines).toEqual([]);
  });

  it("observations(since, now): articles and newly visible questions, never anything visible after now", () => {
    const { ctx, run } = open();
    clock.t = T("2026-03-03T00:00:00Z");
    expect(run.observations(T("2026-03-02T10:00:00Z"), clock.t)).toEqual([
      { t: T("2026-03-02T11:00:00Z"), kind: "news", id: "n-a", summary: "Article n-a" },
      {
        t: T("2026-03-03T00:00:00Z"),
        kind: "market",
        id: "ld-f",
        summary: "Will the ld-f thing happen by June 1, 2026?",
      },
    ]);
    // n-future (03-04) is not visible at 03-03 even when asked for
    expect(run.observations(T("2026-03-03T00:00:00Z"), SIM_END)).toEqual([]);
    for (let now = SIM_START + HOUR_MS; now <= SIM_END; now += HOUR_MS) {
      clock.t = now;
      for (const o of run.observations(SIM_START, SIM_END)) expect(o.t).toBeLessThanOrEqual(now);
    }
    clock.t = SIM_END;
    expect(run.observations(SIM_START, SIM_END).map((o) => o.id)).toEqual(["n-a", "ld-f", "n-future"]);
    expect(run.deadlines(ctx.view, SIM_END)).toEqual([]);
  });
});
