import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { breakoutNewsTask } from "../../../src/tasks/breakout-news/index.js";
import { releasedAtOf } from "../../../src/tasks/task.js";
import { TruthStore } from "../../../src/world/truth-store.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { driveTask } from "../../support/task-driver.js";
import { schedulePolicy } from "./schedule-policy.js";
import { buildBreakoutTinyWorld, SIM_END, SIM_START, T } from "./tiny-world.js";

let dir: string;
let world: WorldStore;
let truth: TruthStore;

beforeAll(() => {
  dir = buildBreakoutTinyWorld();
  world = WorldStore.open(dir);
  truth = TruthStore.open(dir);
});
afterAll(() => {
  world.close();
  truth.close();
  rmSync(dirname(dir), { recursive: true, force: true });
});

const CLAIMS = [
  {
    at: T("2026-03-01T02:00:00Z"),
    tool: "notify",
    args: { market_id: "brk-b", news_id: "n-neutral", direction: "up" },
  },
  { at: T("2026-03-01T08:00:00Z"), tool: "notify", args: { market_id: "brk-a", news_id: "n-g1", direction: "up" } },
];
// A1 closes at its start (12:00) but its size is the move to its end price (13:00), visible at 13:10
const ASKS = [
  "2026-03-01T11:59:59Z",
  "2026-03-01T12:00:00Z",
  "2026-03-01T13:09:59Z",
  "2026-03-01T13:10:00Z",
  // the brk-b claim's window ends at 02:00; its verdict rests on the prices through then, visible at 02:10
  "2026-03-02T02:09:59Z",
  "2026-03-02T02:10:00Z",
  "2026-03-04T23:00:00Z",
].map((iso) => ({ at: T(iso), tool: "get_feedback", args: {} }));

describe("breakout-news feedback conditions", () => {
  it("blind: no get_feedback tool, and neither the instruction nor any tool text mentions feedback", async () => {
    const r = await driveTask({
      task: breakoutNewsTask,
      world,
      truth,
      sim_start: SIM_START,
      sim_end: SIM_END,
      policy: schedulePolicy([...CLAIMS, ...ASKS]),
    });
    expect(r.runtime.names()).not.toContain("get_feedback");
    expect(JSON.stringify(r.runtime.docs()).toLowerCase()).not.toContain("feedback");
    const calls = r.events.filter((e) => e.type === "tool_call" && e.tool === "get_feedback");
    expect(calls).toHaveLength(ASKS.length);
    expect(
      calls.every((e) => e.type === "tool_call" && e.status === "rejected" && e.error?.startsWith("unknown tool")),
    ).toBe(true);
  });

  it("oracle: get_feedback returns exactly the outcomes released by now (closed breakpoints once their end price is visible, resolved claims)", async () => {
    const policy = schedulePolicy([...CLAIMS, ...ASKS]);
    const r = await driveTask({
      task: breakoutNewsTask,
      world,
      truth,
      sim_start: SIM_START,
      sim_end: SIM_END,
      policy,
      feedback: "oracle",
    });
    const asked = policy.results.filter((x) => x.tool === "get_feedback");
    expect(asked).toHaveLength(ASKS.length);
    for (const a of asked) {
      expect(a.result.ok).toBe(true);
      const items = (a.result as { value: { items: { key: string; settled_at: string; released_at: string }[] } }).value
        .items;
      expect(items.every((i) => Date.parse(i.released_at) <= a.at)).toBe(true);
      expect(items.every((i) => Date.parse(i.settled_at) <= Date.parse(i.released_at))).toBe(true);
      expect(items.map((i) => i.key)).toEqual(
        r.outcomes
          .filter((o) => releasedAtOf(o) <= a.at)
          .sort((x, y) => releasedAtOf(x) - releasedAtOf(y))
          .map((o) => o.key),
      );
    }
    const keys = (i: number) =>
      (asked[i]!.result as { value: { items: { key: string }[] } }).value.items.map((x) => x.key);
    // B1 (10:00 → 11:00) is released at 11:10
    expect(keys(0)).toEqual(["bp:B1"]);
    // A1 settles at 12:00 for scoring, but feedback waits for its end price
    expect(keys(1)).toEqual(["bp:B1"]);
    expect(keys(2)).toEqual(["bp:B1"]);
    expect(keys(3)).toEqual(["bp:B1", "bp:A1"]);
    expect(keys(4)).toEqual(["bp:B1", "bp:A1"]);
    expect(keys(5)).toEqual(["bp:B1", "bp:A1", "claim:brk-b@2026-03-01T02:00:00.000Z"]);
    const a1 = (asked[6]!.result as { value: { items: Record<string, unknown>[] } }).value.items[1];
    expect(a1).toMatchObject({
      key: "bp:A1",
      settled_at: "2026-03-01T12:00:00.000Z",
      released_at: "2026-03-01T13:10:00.000Z",
      status: "covered_news",
      winnable: true,
      claim: { news_id: "n-g1" },
    });
  });
});
