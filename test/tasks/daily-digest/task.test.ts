import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Kernel } from "../../../src/kernel/kernel.js";
import { dailyDigestTask } from "../../../src/tasks/daily-digest/index.js";
import { DailyDigestParams } from "../../../src/tasks/daily-digest/params.js";
import type { TaskRunContext } from "../../../src/tasks/task.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { buildTinyWorld, T } from "./tiny-world.js";

let dir: string;
let world: WorldStore;
const clock = { t: T("2026-03-02T12:00:00Z") };

beforeAll(() => {
  dir = buildTinyWorld();
  world = WorldStore.open(dir);
});
afterAll(() => {
  world.close();
  rmSync(dirname(dir), { recursive: true, force: true });
});

function ctx(params: unknown = {}): TaskRunContext<DailyDigestParams> {
  const ep = dailyDigestTask.episodes.find((e) => e.name === "synth-28d")!;
  return {
    params: DailyDigestParams.parse(params),
    feedback: "none",
    oracleFeedback: null,
    sim_start: ep.sim_start,
    sim_end: ep.sim_end,
    view: world.at(() => clock.t),
    kernel: undefined as unknown as Kernel, // not used by this task's tools
    budget_usd: 20,
    env_seed: 0,
    world,
  };
}

describe("dailyDigestTask", () => {
  it("definition fields", () => {
    expect(dailyDigestTask.id).toBe("daily-digest");
    expect(dailyDigestTask.budget_usd).toBe(20);
    expect(dailyDigestTask.baseSchedule).toBe("5 12 * * *");
    expect(dailyDigestTask.defaultEpisode).toBe("synth-28d");
    expect(dailyDigestTask.episodes.map((e) => [e.name, e.sim_start, e.sim_end])).toEqual([
      ["synth-28d", T("2026-03-01T00:00:00Z"), T("2026-03-29T00:00:00Z")],
      ["synth-7d", T("2026-03-01T00:00:00Z"), T("2026-03-08T00:00:00Z")],
    ]);
    expect(dailyDigestTask.referencePolicies.map((p) => p.name)).toEqual([
      "silent",
      "oracle",
      "top-comments",
      "top-comments-at-13-30",
    ]);
    expect(dailyDigestTask.referencePolicies.find((p) => p.name === "top-comments")!.cron).toEqual(["30 12 * * *"]);
  });

  it("params: spec defaults, strict, validated", () => {
    expect(DailyDigestParams.parse({})).toEqual({
      reddit_call_usd: 0.00024,
      reddit_rate_limit: 1000,
      reddit_rate_window_ms: 600_000,
      window_open_minute_utc: 720,
      window_minutes: 60,
      candidate_hours: 24,
      settle_hours: 24,
      digest_size: 10,
      hit_threshold: 50,
      max_ids: 50,
    });
    expect(DailyDigestParams.safeParse({ digest_size: 60 }).success).toBe(false);
    expect(DailyDigestParams.safeParse({ nope: 1 }).success).toBe(false);
  });

  it("tools: names, kinds, JSON-schema-able args; quota reads the limiter the runtime gets", async () => {
    const c = ctx({ reddit_rate_limit: 3 });
    const run = dailyDigestTask.open(c);
    const tools = run.tools();
    expect(tools.map((t) => [t.name, t.kind, t.priceOf(t.name.startsWith("get_") ? { id: "x" } : {})])).toEqual([
      ["list_posts", "data", 0.00024],
      ["get_post", "data", 0.00024],
      ["get_cascade", "data", 0.00024],
      ["quota", "meta", 0],
      ["digest_status", "meta", 0],
      ["digest", "commit", 0],
    ]);
    for (const t of tools) expect(() => z.toJSONSchema(t.args, { io: "input" })).not.toThrow();
    const limiters = run.limiters();
    expect(run.limiters()).toBe(limiters);
    limiters.reddit!.tryAcquire(clock.t);
    const quota = await tools.find((t) => t.name === "quota")!.invoke({}, { now: () => clock.t, actor: "a" });
    expect(quota).toEqual({
      ok: true,
      value: { remaining: 2, limit: 3, window_minutes: 10, price_usd_per_call: 0.00024 },
    });
    // another run gets fresh limiters
    expect(dailyDigestTask.open(ctx()).limiters()).not.toBe(limiters);
  });

  it("instruction is rendered with the real budget, prices, limits and window, and never mentions feedback", () => {
    const text = dailyDigestTask.open({ ...ctx({ reddit_call_usd: 0.0005 }), budget_usd: 12.5 }).instruction();
    expect(text).toContain("$12.50");
    expect(text).toContain("$0.0005 per call");
    expect(text).toContain("1000 calls per sliding 10 minutes");
    expect(text).toContain("opens at 12:00 UTC and stays open for 1 hour (until 13:00 UTC, exclusive)");
    expect(text).toContain("2026-03-01 to 2026-03-28");
    expect(text).toContain("hits / 10");
    expect(text.toLowerCase()).not.toContain("feedback");
  });
});
