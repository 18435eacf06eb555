import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOUR_MS } from "../../../src/common/time.js";
import { ensureSynthWorld } from "../../../src/synth/synth-world.js";
import { runSteps } from "../../../src/tasks/policy-steps.js";
import { popularityTask } from "../../../src/tasks/popularity/index.js";
import { PopularityParams } from "../../../src/tasks/popularity/params.js";
import { nextMultiple, velocityPolicy, velocitySteps } from "../../../src/tasks/popularity/reference-policies.js";
import { statelessPolicy } from "../../../src/tasks/reference-policy.js";
import { getTask } from "../../../src/tasks/registry.js";
import type { PolicyApi, ReferencePolicy } from "../../../src/tasks/task.js";
import { TruthStore } from "../../../src/world/truth-store.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { runWithServer } from "../../agent/support/llm-run.js";
import { policyResponder } from "../../agent/support/policy-responder.js";
import { run } from "../../run/helpers.js";
import { testSynthCache } from "../../support/shared-synth-cache.js";
import { driveTask } from "../../support/task-driver.js";
import { toolsAt } from "../../support/tools-at.js";
import { buildTinyRedditWorld, END, START, T } from "./tiny-world.js";

const SYNTH_CACHE = testSynthCache();

describe("popularityTask definition", () => {
  it("is registered with the spec's budget, cron, params and policies", () => {
    expect(getTask("popularity")).toBe(popularityTask);
    expect(popularityTask.budget_usd).toBe(20);
    expect(popularityTask.baseSchedule).toBe("0 * * * *");
    expect(popularityTask.metrics.primary).toBe("tw_f1");
    expect(popularityTask.referencePolicies.map((p) => [p.name, p.oracle === true])).toEqual([
      ["silent", false],
      ["oracle", true],
      ["velocity", false],
    ]);
    expect(PopularityParams.parse({})).toEqual({
      reddit_call_usd: 0.00024,
      reddit_rate_limit: 1000,
      reddit_rate_window_ms: 600_000,
      tail_threshold: 50,
      horizon_hours: 24,
      cap: 10,
      cap_window_hours: 24,
      credit_zero_hours: 6,
      history_days: 7,
      feedback_ages_hours: [1, 6, 24],
    });
    expect(PopularityParams.safeParse({ nope: 1 }).success).toBe(false);
  });
});

describe("popularity feedback conditions (hand-worked world)", () => {
  let world: WorldStore;
  let truth: TruthStore;
  beforeAll(() => {
    const dir = buildTinyRedditWorld();
    world = WorldStore.open(dir);
    truth = TruthStore.open(dir);
  });
  afterAll(() => {
    world.close();
    truth.close();
  });

  it("blind (`none`): no feedback tool, and neither the instruction nor any tool text mentions feedback", () => {
    const h = toolsAt(popularityTask, world, { sim_start: START, sim_end: END });
    expect(h.names()).not.toContain("get_feedback");
    const text = h.run.instruction() + JSON.stringify(h.run.tools().map((t) => t.description));
    expect(text.toLowerCase()).not.toContain("feedback");
    expect(h.run.instruction()).toContain("$20.00");
    expect(h.run.instruction()).toContain("at most 10 accepted recommendations in any rolling 24 hours");
    h.close();
  });

  /** recommends a1 (tail) and a3 (not) early, then only reads feedback at fixed instants */
  const probePolicy: ReferencePolicy = statelessPolicy({
    name: "probe",
    description: "test",
    async act(api) {
      if (api.now() === T("2026-03-01T03:30:00Z")) {
        await api.call("recommend", { root_id: "a1" });
        await api.call("recommend", { root_id: "a3" });
      }
    },
    nextWake: (now) => {
      const at = ["2026-03-01T03:30:00Z", "2026-03-02T00:59:59Z", "2026-03-02T03:00:00Z", "2026-03-03T12:00:00Z"].map(
        T,
      );
      return at.find((t) => t > now) ?? null;
    },
  });
  const feedbackAt = async (api: PolicyApi, seen: Record<string, unknown>) => {
    const r = await api.call("get_feedback", {});
    seen[new Date(api.now()).toISOString()] = r.ok ? r.value : r.error;
  };

  it("oracle: get_feedback returns only outcomes settled by now (own recommendations and missed tail posts)", async () => {
    const seen: Record<string, unknown> = {};
    await driveTask({
      task: popularityTask,
      world,
      truth,
      sim_start: START,
      sim_end: END,
      policy: probePolicy,
      feedback: "oracle",
      onWake: (api) => feedbackAt(api, seen),
    });
    const items = (iso: string) =>
      (seen[iso] as { items: { key: string; status: string; settled_at: string }[] }).items.map((i) => [
        i.key,
        i.status,
        i.settled_at,
      ]);
    expect(items("2026-03-01T03:30:00.000Z")).toEqual([]);
    expect(items("2026-03-02T00:59:59.000Z")).toEqual([]);
    expect(items("2026-03-02T03:00:00.000Z")).toEqual([
      ["post:a1", "hit", "2026-03-02T01:00:00.000Z"],
      ["post:a2", "miss", "2026-03-02T02:00:00.000Z"],
      ["post:a3", "false_alarm", "2026-03-02T03:00:00.000Z"],
    ]);
    const last = (seen["2026-03-03T12:00:00.000Z"] as { items: Record<string, unknown>[] }).items;
    expect(last.map((i) => i.key)).toEqual(["post:a1", "post:a2", "post:a3", "post:a4", "post:b1"]);
    expect(last[0]).toEqual({
      settled_at: "2026-03-02T01:00:00.000Z",
      // every comment of the tiny world is visible when created: released at the reveal
      released_at: "2026-03-02T01:00:00.000Z",
      key: "post:a1",
      status: "hit",
      credit: 1 - 2.5 / 6,
      post_id: "a1",
      subreddit: "gamma",
      created: "2026-03-01T01:00:00.000Z",
      revealed_at: "2026-03-02T01:00:00.000Z",
      recommended_at: "2026-03-01T03:30:00.000Z",
      cascade: 60,
      tail: true,
      delay_hours: 2.5,
      reaction_h: 2.5,
      comments_at: { "1h": 59, "6h": 60, "24h": 60 },
    });
    expect(last[1]).toMatchObject({ key: "post:a2", status: "miss", recommended_at: null, delay_hours: null });
  });

  it("self: labels only the agent's own revealed recommendations, from visible comments", async () => {
    const seen: Record<string, unknown> = {};
    await driveTask({
      task: popularityTask,
      world,
      truth,
      sim_start: START,
      sim_end: END,
      policy: probePolicy,
      feedback: "self",
      onWake: (api) => feedbackAt(api, seen),
    });
    expect((seen["2026-03-02T00:59:59.000Z"] as { items: unknown[] }).items).toEqual([]);
    expect((seen["2026-03-03T12:00:00.000Z"] as { items: unknown[] }).items).toEqual([
      {
        post_id: "a1",
        recommended_at: "2026-03-01T03:30:00.000Z",
        delay_hours: 2.5,
        revealed_at: "2026-03-02T01:00:00.000Z",
        visible_comments_at_reveal: 60,
        comments_at: { "1h": 59, "6h": 60, "24h": 60 },
        reached_threshold: true,
      },
      {
        post_id: "a3",
        recommended_at: "2026-03-01T03:30:00.000Z",
        delay_hours: 0.5,
        revealed_at: "2026-03-02T03:00:00.000Z",
        visible_comments_at_reveal: 49,
        comments_at: { "1h": 49, "6h": 49, "24h": 49 },
        reached_threshold: false,
      },
    ]);
  });
});

describe("popularity end to end on the synthetic world (seed 1)", () => {
  let dir: string;
  let world: WorldStore;
  let truth: TruthStore;
  beforeAll(() => {
    mkdirSync(SYNTH_CACHE, { recursive: true });
    dir = ensureSynthWorld(SYNTH_CACHE, { seed: 1, start: T("2026-03-01T00:00:00Z"), end: T("2026-03-08T00:00:00Z") });
    world = WorldStore.open(dir);
    truth = TruthStore.open(dir);
  });
  afterAll(() => {
    world.close();
    truth.close();
  });
  const driven = (policy: ReferencePolicy, sim_end: string) =>
    driveTask({
      task: popularityTask,
      world,
      truth,
      sim_start: T("2026-03-01T00:00:00Z"),
      sim_end: T(sim_end),
      policy,
    });

  it("runFromConfig scores the scripted velocity heuristic (3 days) exactly like the task driver", async () => {
    const window = { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-04T00:00:00Z" };
    const res = await run({ task: "popularity", ...window, world: { dir }, agent: { model: "scripted:velocity" } });
    const ref = await driven(velocityPolicy, window.sim_end);
    expect(res.results.performance.primary).toEqual({ name: "tw_f1", value: 0.8848841804554191, direction: "higher" });
    expect(res.results.performance.primary.value).toBe(ref.report.primary.value);
    expect(res.results.outcomes.map((o) => [o.key, o.status, o.credit])).toEqual(
      ref.outcomes.map((o) => [o.key, o.status, o.credit]),
    );
    expect(res.results.resources.fees_usd).toBeCloseTo(ref.spent_usd, 12);
  }, 900_000);

  it("an LLM agent (test server replaying the velocity steps every 8 h, 2 days) scores like the same policy scripted", async () => {
    const window = { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-03T00:00:00Z" };
    const every8h = (now: number) => nextMultiple(now, 8 * HOUR_MS);
    const scripted: ReferencePolicy = statelessPolicy({
      name: "velocity-8h",
      description: "test",
      act: (api) => runSteps(api, velocitySteps(api.now())),
      nextWake: every8h,
    });
    const ref = await driven(scripted, window.sim_end);
    const res = await runWithServer(
      { task: "popularity", ...window, world: { dir }, agent: { trigger: "sleep", context_tokens: 8_000 } },
      policyResponder({ act: velocitySteps, nextWake: every8h, cron: [] }, "sleep"),
    );
    expect(res.results.performance.primary.value).toBe(ref.report.primary.value);
    expect(res.results.outcomes.map((o) => [o.key, o.status, o.credit])).toEqual(
      ref.outcomes.map((o) => [o.key, o.status, o.credit]),
    );
    expect(res.results.outcomes.some((o) => o.status === "hit")).toBe(true);
    expect(res.results.resources.llm_calls).toBeGreaterThan(0);
  }, 900_000);
});
