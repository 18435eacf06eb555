import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { LedgerEvent } from "../../src/ledger/events.js";
import { readLedgerLines } from "../../src/ledger/ledger-reader.js";
import { replayTriggers, replayTriggersOnWorld } from "../../src/run/replay-triggers.js";
import { EXAMPLE_TASK, importExample } from "../tasks/event-response/example-world.js";
import { options, run } from "./helpers.js";

const wakeTimes = (runDir: string) =>
  readLedgerLines(join(runDir, "ledger.jsonl"))
    .map((l) => JSON.parse(l) as LedgerEvent)
    .flatMap((e) => (e.type === "wake" ? [e.t] : []));

// Issue 15 §4: counterfactual trigger replay without an LLM.
describe("relive replay-triggers", () => {
  let world: string;
  beforeAll(async () => {
    world = await importExample();
  });
  const ev = (agent: Record<string, unknown>) =>
    run({ task: "event-response", world: { dir: world }, task_params: { task_file: EXAMPLE_TASK }, agent }, options());

  it("replaying interval:15m over a recorded run reproduces the wakes and misses of actually running it", async () => {
    // recorded: the silent policy under sleep (one wake); the counterfactual: a 15-minute poller
    const silent = await ev({ model: "scripted:silent" });
    const actual = await ev({ model: "scripted:poll-15m", trigger: "policy", trigger_policy: "interval:15m" });
    const rep = await replayTriggers(silent.runDir, ["interval:15m", "interval:1h", "keyword:^page$"], options());
    const [q, h, k] = rep.policies;
    expect(q!.wake_times).toEqual(wakeTimes(actual.runDir));
    expect(q!.wakes).toBe(actual.results.resources.wakes);
    expect(q!.wakes).toBe(288);
    // the deadlines the poller actually missed (4 pages whose next quarter hour is 10 min or more away)
    expect(q!.deadlines).toBe(20);
    expect(q!.deadlines_missed).toBe(actual.results.diagnostics.missed);
    expect(q!.deadlines_missed).toBe(4);
    // hourly polling misses more, and costs a quarter as many wakes
    expect(h!.wakes).toBe(72);
    expect(h!.deadlines_missed).toBeGreaterThan(4);
    expect(k!.wakes).toBeLessThan(q!.wakes);
    // the recorded run's mean cost per wake prices the counterfactual wakes (silent: $0)
    expect(rep.recorded).toMatchObject({ trigger: "sleep", wakes: silent.results.resources.wakes, spent_usd: 0 });
    expect(q!.cost_usd).toBe(0);
    const priced = await replayTriggers(silent.runDir, ["interval:15m"], { ...options(), costPerWakeUsd: 0.01 });
    expect(priced.policies[0]!.cost_usd).toBeCloseTo(2.88, 12);
    // reaction times: every event is seen within 15 minutes of becoming visible
    expect(q!.reaction_min!.max).toBeLessThanOrEqual(15);
    // the one event after the last quarter hour (A-212 at 03-04 23:50) is seen by no wake
    expect(q!.events_missed).toBe(1);
  }, 900_000);

  it("refuses bad input with a clear error", async () => {
    const silent = await ev({ model: "scripted:silent" });
    await expect(replayTriggers(silent.runDir, [], options())).rejects.toThrow(/at least one --trigger/);
    await expect(replayTriggers(silent.runDir, ["every:5m"], options())).rejects.toThrow(/--trigger "every:5m"/);
    await expect(replayTriggers(silent.runDir, ["interval:0m"], options())).rejects.toThrow(/cannot read the interval/);
    await expect(replayTriggers("/nonexistent", ["interval:1h"], options())).rejects.toThrow(/not a run directory/);
  }, 900_000);

  it("--world replays a bare imported log (no recorded run) and gives what replaying a run over it gives", async () => {
    const silent = await ev({ model: "scripted:silent" });
    const triggers = ["interval:15m", "interval:1h", "keyword:^page$"];
    const fromRun = await replayTriggers(silent.runDir, triggers, { ...options(), costPerWakeUsd: 0.01 });
    const bare = await replayTriggersOnWorld(world, triggers, {
      ...options(),
      costPerWakeUsd: 0.01,
      taskParams: { task_file: EXAMPLE_TASK },
    });
    expect(bare).toMatchObject({ run_dir: null, recorded: null, task: "event-response", cost_per_wake_usd: 0.01 });
    // the world's own window (whole UTC days around the log) is the example episode's
    expect([bare.sim_start, bare.sim_end]).toEqual(["2026-03-02T00:00:00.000Z", "2026-03-05T00:00:00.000Z"]);
    expect(bare.policies).toEqual(fromRun.policies);
    const q = bare.policies[0]!;
    // 28 of the log's 29 events: D-101 at sim_start itself is not an arrival in (sim_start, sim_end]
    expect([q.wakes, q.events, q.events_missed, q.deadlines, q.deadlines_missed]).toEqual([288, 28, 1, 20, 4]);
    expect(q.cost_usd).toBeCloseTo(2.88, 12);
    expect(q.reaction_min).toMatchObject({ n: 27 });
    // a narrower window (one day)
    const day = await replayTriggersOnWorld(world, ["interval:15m"], {
      ...options(),
      costPerWakeUsd: 0.01,
      taskParams: { task_file: EXAMPLE_TASK },
      simStart: "2026-03-02T00:00:00Z",
      simEnd: "2026-03-03T00:00:00Z",
    });
    expect(day.policies[0]!.wakes).toBe(96);
    expect(day.policies[0]!.cost_usd).toBeCloseTo(0.96, 12);
  }, 900_000);

  it("--world refuses bad input with a clear error", async () => {
    const o = { ...options(), costPerWakeUsd: 0.01, taskParams: { task_file: EXAMPLE_TASK } };
    await expect(replayTriggersOnWorld("/nonexistent", ["interval:1h"], o)).rejects.toThrow(/not a world directory/);
    await expect(replayTriggersOnWorld(world, [], o)).rejects.toThrow(/at least one --trigger/);
    await expect(replayTriggersOnWorld(world, ["interval:1h"], { ...o, costPerWakeUsd: -1 })).rejects.toThrow(
      /--cost-per-wake: not a non-negative number: -1/,
    );
    await expect(replayTriggersOnWorld(world, ["interval:1h"], { ...options(), costPerWakeUsd: 0.01 })).rejects.toThrow(
      /task_file/,
    );
  }, 900_000);
});
