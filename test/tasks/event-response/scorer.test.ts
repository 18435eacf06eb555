import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventResponseTask } from "../../../src/tasks/event-response/index.js";
import { TruthStore } from "../../../src/world/truth-store.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { driveTask } from "../../support/task-driver.js";
import { eventWorld, stepsPolicy, T, TINY_TASK, taskFile } from "./tiny-world.js";

// Hand-worked cases (tasks.md §11): window [00:00, 06:00) on 2026-03-02; alerts 30 min with the
// action by severity (critical → escalate, warning → ack), pages 10 min with any action, deploys need none.
describe("event-response scorer, hand-worked", () => {
  let world: WorldStore;
  let truth: TruthStore;
  const params = { task_file: taskFile(TINY_TASK) };
  beforeAll(() => {
    const dir = eventWorld([
      { id: "a1", kind: "alert", t: T("01:00"), payload: { severity: "critical" } },
      { id: "a2", kind: "alert", t: T("02:00"), payload: { severity: "warning" } },
      { id: "p1", kind: "page", t: T("03:00"), payload: {} },
      { id: "p2", kind: "page", t: T("04:00"), payload: {} },
      { id: "d1", kind: "deploy", t: T("01:00"), payload: { version: "v1" } },
      { id: "a3", kind: "alert", t: T("05:50"), payload: { severity: "critical" } },
    ]);
    world = WorldStore.open(dir);
    truth = TruthStore.open(dir);
  });
  afterAll(() => {
    world.close();
    truth.close();
  });

  it("ok, wrong_action, late, miss, noise, not_scorable and the rejections", async () => {
    const results: { tool: string; args: unknown; ok: boolean; error?: string }[] = [];
    const policy = stepsPolicy(
      [
        { at: T("01:10"), tool: "respond", args: { event_id: "a1", action: "escalate" } }, // ok, 10 min
        { at: T("01:10"), tool: "respond", args: { event_id: "d1", action: "ack" } }, // needs none: noise
        { at: T("01:20"), tool: "respond", args: { event_id: "a1", action: "ack" } }, // second: rejected
        { at: T("02:05"), tool: "respond", args: { event_id: "a2", action: "escalate" } }, // wrong_action, 5 min
        { at: T("03:20"), tool: "respond", args: { event_id: "p1", action: "ack" } }, // after 03:10: late
        { at: T("03:30"), tool: "respond", args: { event_id: "p2", action: "ack" } }, // not yet visible
        { at: T("03:30"), tool: "respond", args: { event_id: "zz", action: "ack" } }, // unknown
        { at: T("03:30"), tool: "get_event", args: { id: "p2" } }, // not yet visible
      ],
      results,
    );
    const r = await driveTask({
      task: eventResponseTask,
      world,
      truth,
      sim_start: T("00:00"),
      sim_end: T("06:00"),
      policy,
      params,
    });
    expect(results.map((x) => x.ok)).toEqual([true, false, false, true, true, false, false, false]);
    expect(results[1]!.error).toBe('respond rejected: event d1 is of kind "deploy", which needs no response');
    expect(results[2]!.error).toBe("respond rejected: event a1 already has a response (at 2026-03-02T01:10:00.000Z)");
    // not yet visible and unknown ids: the view's one error text (depends only on the id)
    expect(results[5]!.error).toBe('unknown event id: "p2"');
    expect(results[6]!.error).toBe('unknown event id: "zz"');
    expect(results[7]!.error).toBe('unknown event id: "p2"');

    expect(r.outcomes.map((o) => [o.key, o.status, o.credit, o.t])).toEqual([
      ["event:a1", "ok", 1, T("01:30")],
      ["event:a2", "wrong_action", 0, T("02:30")],
      ["event:p1", "miss", 0, T("03:10")],
      ["event:p2", "miss", 0, T("04:10")],
    ]);
    expect(r.outcomes[0]!.detail).toEqual({
      event_id: "a1",
      kind: "alert",
      event_t: T("01:00"),
      due: T("01:30"),
      expected_action: "escalate",
      action: "escalate",
      responded_at: T("01:10"),
      reaction_h: 1 / 6,
    });
    expect(r.outcomes[2]!.detail).toMatchObject({ responded_at: null, expected_action: null });
    expect(r.report.primary).toEqual({ name: "on_time_rate", value: 0.25, direction: "higher" });
    expect(r.report.metrics).toEqual({
      on_time_rate: 0.25,
      needing_response: 4,
      ok: 1,
      wrong_action: 1,
      late: 1,
      miss: 1,
      missed_deadlines: 2,
      noise: 1,
      responses: 3,
      responses_unscored: 0,
      responds_rejected: 4, // d1, the second a1, p2 (not yet visible), zz
      commitments_ignored: 0,
      // reactions of a2 (5 min), a1 (10 min), p1 (20 min): type-7 quantiles
      reaction_h_p50: 1 / 6,
      reaction_h_p90: 1 / 6 + 0.8 * (1 / 3 - 1 / 6),
      reaction_h_max: 1 / 3,
    });
    expect(r.report.not_scorable).toEqual([{ key: "event:a3", reason: "settles after window" }]);
  });

  it("on_time_rate is not_scorable when no event needing a response settles in the window", async () => {
    const r = await driveTask({
      task: eventResponseTask,
      world,
      truth,
      sim_start: T("05:00"),
      sim_end: T("06:00"),
      policy: stepsPolicy([], []),
      params,
    });
    expect(r.report.primary.value).toBeNull();
    expect(r.report.not_scorable).toEqual([
      { key: "event:a3", reason: "settles after window" },
      { key: "on_time_rate", reason: "no event needing a response settles inside the window" },
    ]);
  });
});
