import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Kernel } from "../../../src/kernel/kernel.js";
import { filingTrackerTask } from "../../../src/tasks/filing-tracker/index.js";
import type { TaskRunContext } from "../../../src/tasks/task.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { ACC, buildTinyWorld, END, START, utc } from "./tiny-world.js";

let dir: string;
let world: WorldStore;
beforeAll(() => {
  dir = buildTinyWorld();
  world = WorldStore.open(dir);
});
afterAll(() => {
  world.close();
  rmSync(dirname(dir), { recursive: true, force: true });
});

const iso = (t: number) => new Date(t).toISOString();

function open() {
  const clock = { t: START };
  const ctx: TaskRunContext<unknown> = {
    params: { portal_mode: "api" },
    feedback: "none",
    oracleFeedback: null,
    sim_start: START,
    sim_end: END,
    view: world.at(() => clock.t),
    kernel: new Kernel({ start: START, end: END }),
    budget_usd: 20,
    env_seed: 1,
    world,
  };
  const run = filingTrackerTask.open(ctx);
  const tools = new Map(run.tools().map((t) => [t.name, t]));
  const call = (name: string, args: unknown) => tools.get(name)!.invoke(args, { now: () => clock.t, actor: "agent" });
  return { clock, ctx, run, call };
}

const TITLE = "filings to record (visible, not yet saved in the portal)";

describe("filing-tracker run hooks (hand-built world)", () => {
  it("deadlines: the NYSE open after each duty filing visible now, never every open", async () => {
    const { clock, ctx, run } = open();
    // before AAA's 8-K is accepted: no duty is known, although three NYSE opens fall before the end
    clock.t = utc("2026-03-03T20:00:00Z");
    expect(run.deadlines(ctx.view, END)).toEqual([]);
    clock.t = utc("2026-03-03T22:00:00Z");
    expect(run.deadlines(ctx.view, END).map(iso)).toEqual(["2026-03-04T14:30:00.000Z"]);
    expect(run.deadlines(ctx.view, utc("2026-03-04T14:30:00Z"))).toEqual([]);
    // the 10-Q shares the 8-K's deadline (listed once); CCC's 8-K is no duty (dropped before it)
    clock.t = utc("2026-03-04T14:00:00Z");
    expect(run.deadlines(ctx.view, END).map(iso)).toEqual(["2026-03-04T14:30:00.000Z"]);
    // BBB's 10-K (BBB added 03-04): its open is known once the filing is visible; past deadlines are gone
    clock.t = utc("2026-03-06T00:00:00Z");
    expect(run.deadlines(ctx.view, utc("2026-03-10T00:00:00Z")).map(iso)).toEqual(["2026-03-06T14:30:00.000Z"]);
    await run.dispose();
  });

  it("state: visible duties not yet recorded, with their deadlines", async () => {
    const { clock, run, call } = open();
    clock.t = utc("2026-03-03T20:00:00Z");
    expect(run.state()).toEqual([{ title: TITLE, lines: [] }]);
    clock.t = utc("2026-03-03T22:00:00Z");
    expect(run.state()).toEqual([
      {
        title: TITLE,
        lines: [
          `AAA:${ACC.aaa8k} 8-K (items 2.02,9.01) accepted 2026-03-03T21:05:10.000Z, record before 2026-03-04T14:30:00.000Z`,
        ],
      },
    ]);
    const saved = await call("record_filing", {
      ticker: "AAA",
      accession: ACC.aaa8k,
      form: "8-K",
      accepted_at: "2026-03-03T21:05Z",
    });
    expect(saved.ok).toBe(true);
    expect(run.state()).toEqual([{ title: TITLE, lines: [] }]);
    clock.t = utc("2026-03-04T14:00:00Z");
    expect(run.state()[0]!.lines).toEqual([
      `AAA:${ACC.aaaQ} 10-Q accepted 2026-03-04T13:15:00.000Z, record before 2026-03-04T14:30:00.000Z`,
    ]);
    // once the deadline passed the duty is no longer open
    clock.t = utc("2026-03-06T00:00:00Z");
    expect(run.state()[0]!.lines).toEqual([
      `BBB:${ACC.bbbK} 10-K accepted 2026-03-05T23:40:00.000Z, record before 2026-03-06T14:30:00.000Z`,
    ]);
    await run.dispose();
  });

  it("observations: filings and blotter events visible in (since, now], nothing past the clock", async () => {
    const { clock, run } = open();
    clock.t = utc("2026-03-03T22:00:00Z");
    const expected = [
      { t: utc("2026-03-03T00:00:00Z"), kind: "holding", id: "bl-003", summary: "blotter: drop CCC" },
      {
        t: utc("2026-03-03T12:00:00Z"),
        kind: "filing",
        id: ACC.ccc8k,
        summary: "CCC 8-K (items 2.02) accepted 2026-03-03T12:00:00.000Z",
      },
      {
        t: utc("2026-03-03T21:05:10Z"),
        kind: "filing",
        id: ACC.aaa8k,
        summary: "AAA 8-K (items 2.02,9.01) accepted 2026-03-03T21:05:10.000Z",
      },
    ];
    expect(run.observations(START, clock.t)).toEqual(expected);
    expect(run.observations(START, END)).toEqual(expected);
    expect(run.observations(utc("2026-03-03T00:00:00Z"), clock.t).map((o) => o.id)).toEqual([ACC.ccc8k, ACC.aaa8k]);
    clock.t = utc("2026-03-04T00:00:00Z");
    expect(run.observations(utc("2026-03-03T22:00:00Z"), clock.t)).toEqual([
      { t: utc("2026-03-04T00:00:00Z"), kind: "holding", id: "bl-004", summary: "blotter: add BBB" },
    ]);
    await run.dispose();
  });
});
