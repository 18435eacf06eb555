import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Kernel } from "../../../src/kernel/kernel.js";
import { ClaimBook } from "../../../src/tasks/breakout-news/claim-book.js";
import { breakoutNewsTask } from "../../../src/tasks/breakout-news/index.js";
import { marketActorId } from "../../../src/tasks/breakout-news/markets.js";
import { BreakoutNewsParams } from "../../../src/tasks/breakout-news/params.js";
import { breakoutActors, monitoredMarketIds, perMarketParams } from "../../../src/tasks/breakout-news/program.js";
import { selfLabels } from "../../../src/tasks/breakout-news/self-labels.js";
import type { TaskRun, TaskRunContext } from "../../../src/tasks/task.js";
import type { ToolDef, ToolResult } from "../../../src/tools/tool.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { buildBreakoutTinyWorld, SIM_END, SIM_START, T } from "./tiny-world.js";

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

function ctx(params: unknown = {}, feedback: "none" | "oracle" | "self" = "none"): TaskRunContext<BreakoutNewsParams> {
  return {
    params: BreakoutNewsParams.parse(params),
    feedback,
    oracleFeedback: null,
    sim_start: SIM_START,
    sim_end: SIM_END,
    view: world.at(() => clock.t),
    kernel: new Kernel({ start: SIM_START, end: SIM_END }),
    budget_usd: 70,
    env_seed: 0,
    world,
  };
}

function toolsOf(c: TaskRunContext<BreakoutNewsParams>, run: TaskRun = breakoutNewsTask.open(c)) {
  const tools = new Map<string, ToolDef>(run.tools().map((t) => [t.name, t]));
  return async (name: string, args: unknown, actor = "agent"): Promise<ToolResult> => {
    const tool = tools.get(name)!;
    try {
      return await tool.invoke(tool.args.parse(args), { now: () => clock.t, actor });
    } catch (e) {
      return { ok: false, error: (e as Error).message };
    }
  };
}

const value = (r: ToolResult) => {
  if (!r.ok) throw new Error(r.error);
  return r.value as Record<string, unknown>;
};

describe("breakout-news task definition", () => {
  it("fields, params, tools", () => {
    expect(breakoutNewsTask).toMatchObject({
      id: "breakout-news",
      budget_usd: 70,
      baseSchedule: "5 */6 * * *",
      defaultEpisode: "synth-28d",
      metrics: { primary: "cov_f1", direction: "higher" },
    });
    expect(breakoutNewsTask.episodes.map((e) => [e.name, e.sim_start, e.sim_end])).toEqual([
      ["synth-28d", T("2026-03-01T00:00:00Z"), T("2026-03-29T00:00:00Z")],
      ["synth-7d", T("2026-03-01T00:00:00Z"), T("2026-03-08T00:00:00Z")],
    ]);
    expect(breakoutNewsTask.referencePolicies.map((p) => [p.name, Boolean(p.oracle)])).toEqual([
      ["silent", false],
      ["news-burst", false],
      ["oracle", true],
    ]);
    expect(BreakoutNewsParams.parse({})).toEqual({
      search_usd: 0.002,
      article_usd: 0.002,
      window_hours: 24,
      gold_min_confidence: 0.6,
      timing_credit: 0.7,
      market_prefix: "brk-",
      actor_markets: {},
      price_delay_minutes: 10,
      max_price_points: 2000,
      self_move_threshold: 0.05,
      self_hold_minutes: 120,
    });
    expect(BreakoutNewsParams.safeParse({ nope: 1 }).success).toBe(false);
    expect(BreakoutNewsParams.safeParse({ actor_markets: { a: [] } }).success).toBe(false);
    const tools = breakoutNewsTask.open(ctx({ search_usd: 0.005 })).tools();
    const validArgs: Record<string, unknown> = {
      get_markets: {},
      get_prices: { market_id: "brk-a", start: 0, end: 1 },
      notify: { market_id: "brk-a", news_id: "n-1", direction: "up" },
      search_news: { q: "x" },
      get_article: { news_id: "n-1" },
    };
    expect(tools.map((t) => [t.name, t.kind, t.priceOf(validArgs[t.name])])).toEqual([
      ["get_markets", "data", 0],
      ["get_prices", "data", 0],
      ["notify", "commit", 0],
      ["search_news", "data", 0.005],
      ["get_article", "data", 0.002],
    ]);
    for (const t of tools) expect(() => z.toJSONSchema(t.args, { io: "input" })).not.toThrow();
  });

  it("instruction: real budget, prices, window, W; never mentions feedback; identical across conditions", () => {
    const text = breakoutNewsTask.open({ ...ctx({ article_usd: 0.004 }), budget_usd: 12.5 }).instruction();
    expect(text).toContain("$12.50");
    expect(text).toContain("$0.002 per page of 10 hits");
    expect(text).toContain("`get_article(news_id)` costs $0.004");
    expect(text).toContain("2026-03-01 to 2026-03-04");
    expect(text).toContain("within 24 hours after your claim");
    expect(text).toContain("t + 10 minutes");
    expect(text.toLowerCase()).not.toContain("feedback");
    expect(breakoutNewsTask.open(ctx({}, "oracle")).instruction()).toBe(
      breakoutNewsTask.open(ctx({}, "none")).instruction(),
    );
  });
});

describe("get_markets / get_prices", () => {
  it("lists the monitored markets visible now with the latest visible price and pending claim", async () => {
    const call = toolsOf(ctx());
    clock.t = T("2026-03-01T12:05:00Z");
    const m = value(await call("get_markets", {}));
    expect(m.visible_until).toBe("2026-03-01T11:55:00.000Z");
    const markets = m.markets as { id: string; latest: Record<string, number>; pending_claim: unknown }[];
    expect(markets.map((x) => x.id)).toEqual(["brk-a", "brk-b", "brk-c"]);
    // the 12:00 point becomes visible at 12:10
    expect(markets[0]!.latest).toEqual({ No: 0.6, Yes: 0.4 });
    clock.t = T("2026-03-01T12:10:00Z");
    expect((value(await call("get_markets", {})).markets as { latest: unknown }[])[0]!.latest).toEqual({
      No: 0.5,
      Yes: 0.5,
    });
    clock.t = T("2026-03-03T00:00:00Z");
    expect((value(await call("get_markets", {})).markets as { id: string }[]).map((x) => x.id)).toContain("brk-late");
  });

  it("level at start plus changes in (start, end], end clamped to visible_until; grid; errors", async () => {
    const call = toolsOf(ctx({ max_price_points: 8 }));
    clock.t = T("2026-03-01T12:05:00Z");
    const a = value(await call("get_prices", { market_id: "brk-a", start: "2026-03-01", end: "2026-03-01T23:00:00Z" }));
    expect(a).toEqual({
      market_id: "brk-a",
      start: "2026-03-01T00:00:00.000Z",
      end: "2026-03-01T11:55:00.000Z",
      end_clamped: true,
      visible_until: "2026-03-01T11:55:00.000Z",
      series: [
        { outcome: "Yes", level_at_start: 0.4, changes: [] },
        { outcome: "No", level_at_start: 0.6, changes: [] },
      ],
    });
    clock.t = T("2026-03-02T13:00:00Z");
    const b = value(
      await call("get_prices", {
        market_id: "brk-a",
        start: T("2026-03-01T12:00:00Z"),
        end: T("2026-03-02T13:00:00Z"),
      }),
    );
    expect((b.series as { changes: unknown[] }[])[0]).toEqual({
      outcome: "Yes",
      level_at_start: 0.5,
      changes: [
        { t: "2026-03-01T16:00:00.000Z", p: 0.52 },
        { t: "2026-03-02T12:00:00.000Z", p: 0.42 },
        { t: "2026-03-02T12:30:00.000Z", p: 0.52 },
      ],
    });
    const g = value(
      await call("get_prices", {
        market_id: "brk-a",
        start: "2026-03-01T10:00:00Z",
        end: "2026-03-01T13:00:00Z",
        grid_minutes: 60,
      }),
    );
    expect((g.series as { points: unknown[] }[])[0]).toEqual({
      outcome: "Yes",
      points: [
        { t: "2026-03-01T10:00:00.000Z", p: 0.4 },
        { t: "2026-03-01T11:00:00.000Z", p: 0.4 },
        { t: "2026-03-01T12:00:00.000Z", p: 0.5 },
        { t: "2026-03-01T13:00:00.000Z", p: 0.5 },
      ],
    });
    expect(
      await call("get_prices", {
        market_id: "brk-a",
        start: "2026-03-01T00:00:00Z",
        end: "2026-03-02T00:00:00Z",
        grid_minutes: 60,
      }),
    ).toEqual({
      ok: false,
      error: "25 grid points per outcome × 2 outcomes: at most 8 per call; narrow the range or coarsen grid_minutes",
    });
    expect(
      await call("get_prices", { market_id: "brk-a", start: "2026-03-02T13:00:00Z", end: "2026-03-02T14:00:00Z" }),
    ).toEqual({
      ok: false,
      error:
        "start 2026-03-02T13:00:00.000Z is after visible_until 2026-03-02T12:50:00.000Z: a price point becomes visible only after the price delay",
    });
    expect(await call("get_prices", { market_id: "ld-x", start: "2026-03-01", end: "2026-03-02" })).toEqual({
      ok: false,
      error: "market ld-x is not monitored in this task (see get_markets)",
    });
    expect(await call("get_prices", { market_id: "nope", start: "2026-03-01", end: "2026-03-02" })).toEqual({
      ok: false,
      error: 'unknown market id: "nope"',
    });
    expect(await call("get_prices", { market_id: "brk-a", start: "2026-03-02", end: "2026-03-01" })).toEqual({
      ok: false,
      error: "end 2026-03-01T00:00:00.000Z is before start 2026-03-02T00:00:00.000Z",
    });
    expect(await call("get_prices", { market_id: "brk-a", start: 1772323200, end: "2026-03-01" })).toEqual({
      ok: false,
      error: "start: 1772323200 looks like epoch seconds; pass epoch milliseconds or an ISO-8601 string",
    });
  });
});

describe("per-actor scope (program shape: one agent per market plus a coordinator)", () => {
  it("market actors list and notify only their market; others see all; the claim book is shared", async () => {
    for (const params of [{}, perMarketParams(["brk-a", "brk-b", "brk-c"])]) {
      const c = ctx(params);
      const call = toolsOf(c);
      clock.t = T("2026-03-01T07:00:00Z");
      const ids = async (actor: string) =>
        (value(await call("get_markets", {}, actor)).markets as { id: string }[]).map((m) => m.id);
      expect(await ids("market-brk-b")).toEqual(["brk-b"]);
      expect(await ids("coordinator")).toEqual(["brk-a", "brk-b", "brk-c"]);
      expect(await ids("agent")).toEqual(["brk-a", "brk-b", "brk-c"]);
      expect(await call("notify", { market_id: "brk-a", news_id: "n-g1", direction: "up" }, "market-brk-b")).toEqual({
        ok: false,
        error: "notify rejected: market brk-a is not one of yours (see get_markets)",
      });
      expect(await call("notify", { market_id: "ld-x", news_id: "n-g1", direction: "up" }, "market-brk-b")).toEqual({
        ok: false,
        error: "market ld-x is not monitored in this task (see get_markets)",
      });
      expect((await call("notify", { market_id: "brk-a", news_id: "n-g1", direction: "up" }, "market-brk-a")).ok).toBe(
        true,
      );
      expect(await call("notify", { market_id: "brk-a", news_id: "n-g1", direction: "down" }, "agent")).toMatchObject({
        ok: false,
        error: expect.stringContaining("already pending"),
      });
      // prices stay readable by every actor
      expect(
        (
          await call(
            "get_prices",
            { market_id: "brk-c", start: "2026-03-01", end: "2026-03-01T06:00:00Z" },
            "market-brk-a",
          )
        ).ok,
      ).toBe(true);
    }
  });

  it("program(ctx): the coordinator without notify plus one actor per market visible at now", () => {
    clock.t = SIM_START;
    const plan = breakoutNewsTask.open(ctx()).program() as ReturnType<typeof breakoutActors>;
    expect(plan.map((a) => [a.id, a.role, a.markets, a.tools.includes("notify")])).toEqual([
      ["coordinator", "coordinator", null, false],
      ["market-brk-a", "market", ["brk-a"], true],
      ["market-brk-b", "market", ["brk-b"], true],
      ["market-brk-c", "market", ["brk-c"], true],
    ]);
    for (const a of plan) expect(a.id).toMatch(/^[a-z0-9_-]{1,64}$/);
    expect(plan[2]!.instruction).toContain(
      "You watch market brk-b (other agents watch the other markets; a coordinator may send you notes: read them with `read_messages`).",
    );
    expect(plan[2]!.instruction).toContain("and say so with `notify`");
    // the coordinator has no notify and is never told to use it
    expect(plan[0]!.instruction).toContain(
      "You make no claims yourself (you have no `notify`): the market agents make them",
    );
    expect(plan[0]!.instruction).not.toContain("and say so with `notify`");
    expect(plan[1]!.instruction).toContain(
      "$70.00 for everything (model calls included), shared by all agents of the run",
    );
    for (const a of plan) expect(a.instruction.toLowerCase()).not.toContain("feedback");
    // explicit scopes win; markets added later are the coordinator's
    const explicit = breakoutActors(ctx({ actor_markets: { "market-pair": ["brk-a", "brk-b"] } }));
    expect(explicit.map((a) => [a.id, a.markets])).toEqual([
      ["coordinator", null],
      ["market-pair", ["brk-a", "brk-b"]],
    ]);
    expect(explicit[1]!.instruction).toContain("You watch markets brk-a, brk-b");
    expect(() => breakoutActors(ctx({ actor_markets: { coordinator: ["brk-a"] } }))).toThrow(/used twice/);
    clock.t = T("2026-03-03T00:00:00Z");
    expect(monitoredMarketIds(ctx().view, BreakoutNewsParams.parse({}))).toEqual([
      "brk-a",
      "brk-b",
      "brk-c",
      "brk-late",
    ]);
    expect(marketActorId("0xAB/cd 12")).toBe("market-0xab-cd-12");
  });
});

describe("self labels: claims checked against delayed visible prices", () => {
  const p = BreakoutNewsParams.parse({});
  const book = new ClaimBook(24 * 3_600_000);
  book.add({ market: "brk-a", news_id: "n-g1", direction: "up", t: T("2026-03-01T08:00:00Z"), actor: "a" });
  book.add({ market: "brk-a", news_id: "n-neutral", direction: "down", t: T("2026-03-02T10:00:00Z"), actor: "a" });
  const at = (iso: string, since: number | null = null) =>
    selfLabels(
      world.at(() => T(iso)),
      book.all(),
      p,
      since,
    );

  it("confirmed once a durable move is visible; a reverting spike is not durable; since filters on decided_at", () => {
    expect(at("2026-03-01T14:09:59Z")).toEqual([]);
    expect(at("2026-03-01T14:10:00Z")).toEqual([
      {
        market: "brk-a",
        claimed_at: "2026-03-01T08:00:00.000Z",
        news_id: "n-g1",
        direction: "up",
        level_at_claim: 0.4,
        label: "confirmed",
        decided_at: "2026-03-01T14:10:00.000Z",
        move_started: "2026-03-01T12:00:00.000Z",
        level_at_move: 0.5,
      },
    ]);
    // the down claim: 0.52 → 0.42 at 12:00 reverts at 12:30 (not durable) → not_confirmed at τ + W + H + delay
    expect(at("2026-03-03T12:09:00Z")).toHaveLength(1);
    const later = at("2026-03-03T12:10:00Z", T("2026-03-02T00:00:00Z"));
    expect(later).toEqual([
      {
        market: "brk-a",
        claimed_at: "2026-03-02T10:00:00.000Z",
        news_id: "n-neutral",
        direction: "down",
        level_at_claim: 0.52,
        label: "not_confirmed",
        decided_at: "2026-03-03T12:10:00.000Z",
      },
    ]);
    // a lower threshold makes the same spike a move; a zero hold accepts it at once
    const loose = selfLabels(
      world.at(() => T("2026-03-02T12:10:00Z")),
      book.all(),
      BreakoutNewsParams.parse({ self_hold_minutes: 0 }),
      null,
    );
    expect(loose.map((l) => [l.direction, l.label, l.move_started])).toEqual([
      ["up", "confirmed", "2026-03-01T12:00:00.000Z"],
      ["down", "confirmed", "2026-03-02T12:00:00.000Z"],
    ]);
  });

  it("the self condition's get_feedback reads the run's own claims through the task hook", async () => {
    const c = ctx({}, "self");
    const run = breakoutNewsTask.open(c);
    const call = toolsOf(c, run);
    clock.t = T("2026-03-01T08:00:00Z");
    expect((await call("notify", { market_id: "brk-a", news_id: "n-g1", direction: "up" })).ok).toBe(true);
    clock.t = T("2026-03-01T15:00:00Z");
    expect(run.feedback.self!(null)).toMatchObject([{ label: "confirmed" }]);
    expect(run.feedback.self!(T("2026-03-01T14:10:00Z"))).toEqual([]);
    // another run of the same context has its own claim book
    expect(breakoutNewsTask.open(c).feedback.self!(null)).toEqual([]);
  });
});
