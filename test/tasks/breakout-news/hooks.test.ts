import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOUR_MS } from "../../../src/common/time.js";
import { Kernel } from "../../../src/kernel/kernel.js";
import { breakoutNewsTask } from "../../../src/tasks/breakout-news/index.js";
import type { Observation, TaskRunContext } from "../../../src/tasks/task.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { buildBreakoutTinyWorld, NEWS, PRICES, SIM_END, SIM_START, T } from "./tiny-world.js";

let dir: string;
let world: WorldStore;
const clock = { t: SIM_START };

beforeAll(() => {
  dir = buildBreakoutTinyWorld();
  world = WorldStore.open(dir);
});
afterAll(() => {
  world.close();
  rmSync(dirname(dir), { recursive: true, force: true });
});

function open(params: unknown = {}) {
  const ctx: TaskRunContext<unknown> = {
    params,
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
  return { ctx, run: breakoutNewsTask.open(ctx) };
}

describe("breakout-news contract hooks", () => {
  it("state(): the pending claim per monitored market visible now, with its expiry", async () => {
    const { ctx, run } = open();
    const notify = run.tools().find((t) => t.name === "notify")!;
    clock.t = T("2026-03-01T08:00:00Z");
    expect(run.state()).toEqual([
      { title: "pending claims", open: 0, lines: ["brk-a: none", "brk-b: none", "brk-c: none"] },
    ]);
    const r = await notify.invoke(
      { market_id: "brk-a", news_id: "n-g1", direction: "up" },
      { now: () => clock.t, actor: "agent" },
    );
    expect(r.ok).toBe(true);
    clock.t = T("2026-03-01T09:00:00Z");
    expect(run.state()).toEqual([
      {
        title: "pending claims",
        open: 1,
        lines: [
          "brk-a: up, citing n-g1, claimed 2026-03-01T08:00:00.000Z, pending until 2026-03-02T08:00:00.000Z",
          "brk-b: none",
          "brk-c: none",
        ],
      },
    ]);
    // expired after W = 24 h; brk-late is visible from 03-03
    clock.t = T("2026-03-03T00:00:00Z");
    expect(run.state()[0]!.lines).toEqual(["brk-a: none", "brk-b: none", "brk-c: none", "brk-late: none"]);
    // another run of the same context starts with no claims
    clock.t = T("2026-03-01T09:00:00Z");
    expect(breakoutNewsTask.open(ctx).state()[0]!.lines[0]).toBe("brk-a: none");
  });

  it("observations(since, now): articles by visible time, monitored markets, first-outcome price changes", () => {
    const { run } = open();
    clock.t = T("2026-03-01T12:30:00Z");
    expect(run.observations(SIM_START, clock.t)).toEqual([
      { t: T("2026-03-01T01:00:00Z"), kind: "news", id: "n-neutral", summary: "Neutral market chatter" },
      { t: T("2026-03-01T05:00:00Z"), kind: "news", id: "n-gb", summary: "Article n-gb" },
      { t: T("2026-03-01T06:00:00Z"), kind: "news", id: "n-g1", summary: "Article n-g1" },
      {
        t: T("2026-03-01T12:10:00Z"),
        kind: "market_price",
        id: "brk-a",
        summary: "Yes 0.5 at 2026-03-01T12:00:00.000Z",
      },
    ]);
    clock.t = T("2026-03-03T01:00:00Z");
    expect(run.observations(T("2026-03-02T23:00:00Z"), clock.t)).toEqual([
      {
        t: T("2026-03-03T00:00:00Z"),
        kind: "market",
        id: "brk-late",
        summary: "Will the brk-late event happen by June 1, 2026?",
      },
      { t: T("2026-03-03T01:00:00Z"), kind: "news", id: "n-gc2", summary: "Article n-gc2" },
    ]);
    // the price at 12:00 is visible at 12:10: not yet at 12:05
    clock.t = T("2026-03-01T12:05:00Z");
    expect(run.observations(T("2026-03-01T12:00:00Z"), clock.t)).toEqual([]);
  });

  it("observations never hold anything visible after now, and consecutive windows partition the stream", () => {
    const { run } = open();
    const all: Observation[] = [];
    for (let now = SIM_START + HOUR_MS; now <= SIM_END; now += HOUR_MS) {
      clock.t = now;
      const got = run.observations(now - HOUR_MS, now);
      for (const o of got) {
        expect(o.t).toBeGreaterThan(now - HOUR_MS);
        expect(o.t).toBeLessThanOrEqual(now);
      }
      // asking past the view's clock shows nothing more: the view bounds it
      expect(run.observations(now - HOUR_MS, now + 7 * HOUR_MS)).toEqual(got);
      all.push(...got);
    }
    const news = NEWS.filter((n) => n.visible_at > SIM_START && n.visible_at <= SIM_END).length;
    const prices = PRICES.filter((p) => p.outcome === "Yes" && p.visible_at > SIM_START).length;
    expect(all.filter((o) => o.kind === "news")).toHaveLength(news);
    expect(all.filter((o) => o.kind === "market_price")).toHaveLength(prices);
    expect(all.filter((o) => o.kind === "market").map((o) => o.id)).toEqual(["brk-late"]);
  });

  it("deadlines: none (claims have windows, not deadlines); static contract fields", () => {
    const { ctx, run } = open();
    expect(run.deadlines(ctx.view, SIM_END)).toEqual([]);
    expect(breakoutNewsTask.multiActor).toBe(true);
    expect(breakoutNewsTask.selfFeedback?.description).toMatch(/confirmed/);
    expect(run.feedback.self).not.toBeNull();
  });
});
