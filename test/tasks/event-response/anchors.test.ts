import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventResponseTask } from "../../../src/tasks/event-response/index.js";
import { oraclePolicy, pollEvery15mPolicy, silentPolicy } from "../../../src/tasks/event-response/policies.js";
import { TruthStore } from "../../../src/world/truth-store.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { driveTask } from "../../support/task-driver.js";
import { EXAMPLE_TASK, importExample } from "./example-world.js";

// Pinned anchors (tasks.md §11) on the shipped example (examples/event-log: 29 events over
// 2026-03-02 → 03-04; 11 alerts (30 min) and 9 pages (10 min) settle inside the window, the last
// alert's deadline (03-05 00:20) falls after it).
describe("event-response anchors on examples/event-log", () => {
  const episode = eventResponseTask.episodes[0]!;
  const { sim_start, sim_end } = episode;
  const params = { task_file: EXAMPLE_TASK };
  let world: WorldStore;
  let truth: TruthStore;
  beforeAll(async () => {
    const dir = await importExample();
    world = WorldStore.open(dir);
    truth = TruthStore.open(dir);
  });
  afterAll(() => {
    world.close();
    truth.close();
  });
  const drive = (policy: typeof silentPolicy) =>
    driveTask({ task: eventResponseTask, world, truth, sim_start, sim_end, policy, params });

  it("silent → 0 (every one of the 20 events missed)", async () => {
    const r = await drive(silentPolicy);
    expect(r.report.primary).toEqual({ name: "on_time_rate", value: 0, direction: "higher" });
    expect(r.report.metrics).toMatchObject({ needing_response: 20, ok: 0, miss: 20, late: 0, missed_deadlines: 20 });
    expect(r.report.not_scorable).toEqual([{ key: "event:A-212", reason: "settles after window" }]);
    expect(r.outcomes.map((o) => o.status)).toEqual(Array(20).fill("miss"));
  });

  it("poll-15m → 0.8: every alert (30 min) in time with its labelled action; 4 of the 9 pages (10 min) late", async () => {
    const r = await drive(pollEvery15mPolicy);
    expect(r.report.primary.value).toBe(0.8);
    // the pages whose next quarter hour is 10 min or more away: P-401 03:02:10 → 03:15, P-404 01:05 → 01:15
    // (exactly 10 min: the deadline is exclusive), P-406 16:16 → 16:30, P-409 15:50 → 16:00
    const missed = r.outcomes.filter((o) => o.status !== "ok").map((o) => o.key);
    expect(missed.sort()).toEqual(["event:P-401", "event:P-404", "event:P-406", "event:P-409"]);
    expect(r.report.metrics).toMatchObject({
      needing_response: 20,
      ok: 16,
      wrong_action: 0,
      late: 4,
      miss: 0,
      missed_deadlines: 4,
      noise: 0,
      responses: 20,
    });
    // 3 days of quarter hours, one list_events call each
    expect(r.wakes).toBe(288);
    expect(r.spent_usd).toBeCloseTo(288 * 0.00024, 12);
    const p401 = r.outcomes.find((o) => o.key === "event:P-401")!;
    expect(p401.detail).toMatchObject({ responded_at: null, action: null, expected_action: "ack" });
    const a201 = r.outcomes.find((o) => o.key === "event:A-201")!;
    expect(a201.detail).toMatchObject({ action: "escalate", expected_action: "escalate" });
    expect(a201.detail.reaction_h).toBeCloseTo(93 / 3600, 12); // 02:13:27 → 02:15:00
  });

  it("oracle → 1 (responds the instant each event is visible)", async () => {
    const r = await drive(oraclePolicy);
    expect(r.report.primary.value).toBe(1);
    expect(r.report.metrics).toMatchObject({ ok: 20, miss: 0, late: 0, reaction_h_max: 0, responses_unscored: 1 });
  });
});
