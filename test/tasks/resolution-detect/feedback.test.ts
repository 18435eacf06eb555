import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isoInstant } from "../../../src/common/time.js";
import { resolutionDetectTask } from "../../../src/tasks/resolution-detect/index.js";
import { TruthStore } from "../../../src/world/truth-store.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { driveTask } from "../../support/task-driver.js";
import { schedulePolicy } from "../breakout-news/schedule-policy.js";
import { buildResolutionTinyWorld, RESOLUTIONS, SIM_END, SIM_START, T } from "./tiny-world.js";

let dir: string;
let world: WorldStore;
let truth: TruthStore;

beforeAll(() => {
  dir = buildResolutionTinyWorld();
  world = WorldStore.open(dir);
  truth = TruthStore.open(dir);
});
afterAll(() => {
  world.close();
  truth.close();
  rmSync(dirname(dir), { recursive: true, force: true });
});

const MARKS = [
  { at: T("2026-03-02T00:00:00Z"), tool: "mark_outcome", args: { question_id: "ld-c", outcome: "Yes" } },
  { at: T("2026-03-02T18:00:00Z"), tool: "mark_outcome", args: { question_id: "ld-a", outcome: "Yes" } },
  { at: T("2026-03-02T18:00:00Z"), tool: "mark_outcome", args: { question_id: "ld-b", outcome: "No" } },
];
const ASK_AT = ["2026-03-02T17:59:59Z", "2026-03-02T18:00:00Z", "2026-03-02T23:59:59Z", "2026-03-04T23:00:00Z"];
const ASKS = ASK_AT.map((iso) => ({ at: T(iso), tool: "get_feedback", args: {} }));

describe("resolution-detect feedback conditions", () => {
  it("blind: no get_feedback tool and no feedback text anywhere in the tools", async () => {
    const r = await driveTask({
      task: resolutionDetectTask,
      world,
      truth,
      sim_start: SIM_START,
      sim_end: SIM_END,
      policy: schedulePolicy(MARKS),
    });
    expect(r.runtime.names()).not.toContain("get_feedback");
    expect(JSON.stringify(r.runtime.docs()).toLowerCase()).not.toContain("feedback");
  });

  it("oracle: own claims settled by now, with status and credit; misses are not released", async () => {
    const policy = schedulePolicy([...MARKS, ...ASKS]);
    const r = await driveTask({
      task: resolutionDetectTask,
      world,
      truth,
      sim_start: SIM_START,
      sim_end: SIM_END,
      policy,
      feedback: "oracle",
    });
    const items = policy.results
      .filter((x) => x.tool === "get_feedback")
      .map(
        (x) =>
          (x.result as { value: { items: { key: string; settled_at: string; status: string; credit: number }[] } })
            .value.items,
      );
    // a late claim settles at its own instant, ledgered when the clock next moves (as in the runner)
    // in release order: a verdict waits for its question's resolution (ld-c's at 03-03, ld-b's at 03-04)
    expect(items.map((list) => list.map((i) => i.key))).toEqual([[], [], ["q:ld-a"], ["q:ld-a", "q:ld-c", "q:ld-b"]]);
    for (const [k, list] of items.entries())
      for (const i of list) expect(Date.parse(i.settled_at)).toBeLessThanOrEqual(T(ASK_AT[k]!));
    expect(items[2]![0]).toMatchObject({
      status: "correct",
      credit: Math.exp(-1 / 8),
      t_det: "2026-03-02T12:00:00.000Z",
    });
    expect(items[3]![1]).toMatchObject({
      key: "q:ld-c",
      status: "wrong",
      credit: 0,
      resolved_outcome: "No",
      released_at: isoInstant(RESOLUTIONS.find((x) => x.market === "ld-c")!.visible_at),
    });
    // misses settle at sim_end as outcomes but are not claims: never in the payload
    expect(r.outcomes.filter((o) => o.status === "miss").map((o) => o.key)).toEqual(["q:ld-e", "q:ld-g"]);
  });
});
