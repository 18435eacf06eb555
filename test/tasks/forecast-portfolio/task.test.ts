import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOUR_MS } from "../../../src/common/time.js";
import { ensureSynthWorld } from "../../../src/synth/synth-world.js";
import { forecastPortfolioTask } from "../../../src/tasks/forecast-portfolio/index.js";
import { ForecastPortfolioParams } from "../../../src/tasks/forecast-portfolio/params.js";
import {
  newsForecasterPolicy,
  newsForecasterSteps,
  nextMultiple,
} from "../../../src/tasks/forecast-portfolio/reference-policies.js";
import { runSteps } from "../../../src/tasks/policy-steps.js";
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
import { buildTinyMarketWorld, END, START, T } from "./tiny-world.js";

const SYNTH_CACHE = testSynthCache();

describe("forecastPortfolioTask definition", () => {
  it("is registered with the spec's budget, cron, params and policies", () => {
    expect(getTask("forecast-portfolio")).toBe(forecastPortfolioTask);
    expect(forecastPortfolioTask.budget_usd).toBe(70);
    expect(forecastPortfolioTask.baseSchedule).toBe("0 0 * * *");
    expect(forecastPortfolioTask.metrics.primary).toBe("bss");
    expect(forecastPortfolioTask.referencePolicies.map((p) => [p.name, p.oracle !== undefined])).toEqual([
      ["silent", false],
      ["oracle", true],
      ["market-price", true],
      ["news-forecaster", false],
    ]);
    expect(ForecastPortfolioParams.parse({})).toEqual({
      market_prefix: "ld-",
      search_usd: 0.002,
      article_usd: 0.002,
      sum_tolerance: 1e-9,
    });
    expect(forecastPortfolioTask.selfFeedback).toBeUndefined();
  });

  it("`self` feedback is refused at config time (the task defines none)", async () => {
    await expect(
      run({
        task: "forecast-portfolio",
        sim_start: "2026-03-01T00:00:00Z",
        sim_end: "2026-03-02T00:00:00Z",
        feedback: "self",
      }),
    ).rejects.toThrow(/self/);
  });
});

describe("forecast-portfolio feedback conditions (hand-worked world)", () => {
  let world: WorldStore;
  let truth: TruthStore;
  beforeAll(() => {
    const dir = buildTinyMarketWorld();
    world = WorldStore.open(dir);
    truth = TruthStore.open(dir);
  });
  afterAll(() => {
    world.close();
    truth.close();
  });

  it("blind (`none`): no feedback tool, and neither the instruction nor any tool text mentions feedback", () => {
    const h = toolsAt(forecastPortfolioTask, world, { sim_start: START, sim_end: END });
    expect(h.names()).not.toContain("get_feedback");
    const instruction = h.run.instruction();
    const text = instruction + JSON.stringify(h.run.tools().map((t) => t.description));
    expect(text.toLowerCase()).not.toContain("feedback");
    expect(text.toLowerCase()).not.toContain("price of");
    expect(instruction).toContain("$70.00");
    expect(instruction).toContain("$0.002 per page of 10 results");
    h.close();
  });

  it("oracle: get_feedback returns only the questions settled by now, with the score decomposition", async () => {
    const seen: Record<string, { items: Record<string, unknown>[] }> = {};
    const policy: ReferencePolicy = statelessPolicy({
      name: "probe",
      description: "test",
      async act(api: PolicyApi) {
        if (api.now() === START)
          await api.call("submit_forecast", { question_id: "ld-a", forecast: { Yes: 0.8, No: 0.2 } });
        const r = await api.call("get_feedback", {});
        if (r.ok) seen[new Date(api.now()).toISOString()] = r.value as { items: Record<string, unknown>[] };
      },
      nextWake: (now) =>
        ["2026-03-02T11:59:59Z", "2026-03-02T12:00:00Z", "2026-03-02T17:59:59Z", "2026-03-03T12:00:00Z"]
          .map(T)
          .find((t) => t > now) ?? null,
    });
    await driveTask({
      task: forecastPortfolioTask,
      world,
      truth,
      sim_start: START,
      sim_end: END,
      policy,
      feedback: "oracle",
    });
    const keys = (iso: string) => seen[iso]!.items.map((i) => i.key);
    expect(keys("2026-03-01T00:00:00.000Z")).toEqual([]);
    expect(keys("2026-03-02T11:59:59.000Z")).toEqual([]);
    expect(keys("2026-03-02T12:00:00.000Z")).toEqual(["question:ld-a"]);
    // ld-g closed at 06:00, but its result is public only at 18:00: no feedback before that
    expect(keys("2026-03-02T17:59:59.000Z")).toEqual(["question:ld-a"]);
    expect(keys("2026-03-03T12:00:00.000Z")).toEqual(["question:ld-a", "question:ld-g", "question:ld-b"]);
    const a = seen["2026-03-02T12:00:00.000Z"]!.items[0]!;
    expect(a).toMatchObject({
      settled_at: "2026-03-02T12:00:00.000Z",
      status: "forecast",
      result: "Yes",
      activation: "2026-03-01T00:00:00.000Z",
      t_res: "2026-03-02T12:00:00.000Z",
      final_forecast: { Yes: 0.8, No: 0.2 },
      decomposition: { default_uniform: { hours: 0, mean_bss: null }, own_forecasts: { hours: 36 } },
    });
    expect(a.credit).toBeCloseTo(0.92, 14);
  });
});

describe("forecast-portfolio end to end on the synthetic world (seed 1)", () => {
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

  it("runFromConfig scores the scripted news forecaster (4 days) exactly like the task driver", async () => {
    const window = { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-05T00:00:00Z" };
    const res = await run({
      task: "forecast-portfolio",
      ...window,
      world: { dir },
      agent: { model: "scripted:news-forecaster" },
    });
    const ref = await driveTask({
      task: forecastPortfolioTask,
      world,
      truth,
      sim_start: T(window.sim_start),
      sim_end: T(window.sim_end),
      policy: newsForecasterPolicy,
    });
    expect(res.results.performance.primary.value).toBe(ref.report.primary.value);
    expect(res.results.performance.primary.value).toBe(0.6202123835782393);
    expect(res.results.outcomes.map((o) => [o.key, o.credit])).toEqual(ref.outcomes.map((o) => [o.key, o.credit]));
    expect(res.results.performance.questions_scored).toBe(2);
    expect(res.results.resources.fees_usd).toBeCloseTo(ref.spent_usd, 12);
  }, 900_000);

  it("an LLM agent (test server replaying the news forecaster daily on one market, 2 days) scores like the same policy scripted", async () => {
    const window = { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-03T00:00:00Z" };
    // the one long-dated market that resolves in these two days (ids are opaque: found in the world)
    const settling = (
      world.db
        .prepare("SELECT market FROM market_resolution WHERE closed_at >= ? AND closed_at < ? AND market LIKE 'ld-%'")
        .all(T(window.sim_start), T(window.sim_end)) as { market: string }[]
    ).map((r) => r.market);
    expect(settling).toHaveLength(1);
    const params = { market_prefix: settling[0]! };
    const daily = (now: number) => nextMultiple(now, 24 * HOUR_MS);
    const ref = await driveTask({
      task: forecastPortfolioTask,
      world,
      truth,
      sim_start: T(window.sim_start),
      sim_end: T(window.sim_end),
      params,
      policy: statelessPolicy({
        name: "news-daily",
        description: "test",
        act: (api) => runSteps(api, newsForecasterSteps(api.now())),
        nextWake: daily,
      }),
    });
    const res = await runWithServer(
      {
        task: "forecast-portfolio",
        ...window,
        task_params: params,
        world: { dir },
        agent: { trigger: "sleep", context_tokens: 8_000 },
      },
      policyResponder({ act: newsForecasterSteps, nextWake: daily, cron: [] }, "sleep"),
    );
    expect(res.results.outcomes.map((o) => [o.key, o.status, o.credit])).toEqual(
      ref.outcomes.map((o) => [o.key, o.status, o.credit]),
    );
    expect(res.results.outcomes.length).toBeGreaterThan(0);
    // one question settles in these two days: BS_ref = 0, so bss is not scorable in both
    expect(res.results.performance.primary.value).toBeNull();
    expect(res.results.performance.ta_bss).toBe(ref.report.metrics.ta_bss);
    expect(res.results.resources.llm_calls).toBeGreaterThan(0);
  }, 900_000);
});
