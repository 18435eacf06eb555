import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureSynthWorld } from "../../../src/synth/synth-world.js";
import { forecastPortfolioTask } from "../../../src/tasks/forecast-portfolio/index.js";
import {
  marketPricePolicy,
  newsForecasterPolicy,
  oraclePolicy,
  silentPolicy,
} from "../../../src/tasks/forecast-portfolio/reference-policies.js";
import type { ReferencePolicy } from "../../../src/tasks/task.js";
import { TruthStore } from "../../../src/world/truth-store.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { testSynthCache } from "../../support/shared-synth-cache.js";
import { driveTask } from "../../support/task-driver.js";

// Pinned anchors (tasks.md §6) on the synthetic world, seed 1, episode synth-7d (03-01 → 03-07): 9 questions
// resolve inside (7 by an event, 2 at their scheduled end; market ids are opaque), 3 of them Yes: b = 1/3,
// BS_ref = 4/9, so the uniform forecaster scores 1 − 0.5 / (4/9) = −0.125 exactly.
describe("forecast-portfolio anchors on synth-7d (seed 1)", () => {
  const ep = forecastPortfolioTask.episodes.find((e) => e.name === "synth-7d")!;
  const { sim_start, sim_end } = ep;
  let world: WorldStore;
  let truth: TruthStore;
  beforeAll(() => {
    const cache = testSynthCache();
    mkdirSync(cache, { recursive: true });
    const dir = ensureSynthWorld(cache, { seed: 1, start: sim_start, end: sim_end });
    world = WorldStore.open(dir);
    truth = TruthStore.open(dir);
  });
  afterAll(() => {
    world.close();
    truth.close();
  });
  const go = (policy: ReferencePolicy) =>
    driveTask({ task: forecastPortfolioTask, world, truth, sim_start, sim_end, policy });

  it("silent = uniform → −0.125; the scorer's continuous market anchor → 0.20775155525967948", async () => {
    const r = await go(silentPolicy);
    expect(r.report.primary.value).toBe(-0.125);
    expect(r.report.metrics).toMatchObject({
      questions_scored: 9,
      base_rate: 1 / 3,
      anchor_uniform_bss: -0.125,
      anchor_market_bss: 0.20775155525967948,
      ta_bss: 0.5,
    });
    // scored: the long-dated markets resolving inside the window; not scorable: the other long-dated ones
    const resolved = new Set(
      (world.db.prepare("SELECT market FROM market_resolution").all() as { market: string }[]).map((x) => x.market),
    );
    const longDated = (world.db.prepare("SELECT id FROM market WHERE id LIKE 'ld-%'").all() as { id: string }[]).map(
      (x) => x.id,
    );
    expect(longDated).toHaveLength(20);
    expect(r.outcomes.map((o) => o.key).sort()).toEqual(
      longDated
        .filter((id) => resolved.has(id))
        .map((id) => `question:${id}`)
        .sort(),
    );
    expect(r.report.not_scorable.map((x) => x.key).sort()).toEqual(
      longDated
        .filter((id) => !resolved.has(id))
        .map((id) => `question:${id}`)
        .sort(),
    );
  });

  it("oracle (1 on the true result from the first wake) → 1", async () => {
    const r = await go(oraclePolicy);
    expect(r.report.primary.value).toBe(1);
    expect(r.report.metrics.final_bss).toBe(1);
  });

  it("the hourly market-price forecaster (oracle-side: reads scorer-side prices) → 0.20328330034828657", async () => {
    const r = await go(marketPricePolicy);
    expect(r.report.primary.value).toBe(0.20328330034828657);
  });

  it("the honest news forecaster → 0.37769429354760564 for $1.74, using visible tools only", async () => {
    const r = await go(newsForecasterPolicy);
    expect(r.report.primary.value).toBe(0.37769429354760564);
    expect(r.spent_usd).toBeCloseTo(1.74, 10);
    const tools = new Set(r.events.flatMap((e) => (e.type === "tool_call" ? [e.tool] : [])));
    expect([...tools].sort()).toEqual(["list_questions", "search_news", "submit_forecast"]);
    expect(r.report.metrics.forecasts_rejected).toBe(0);
  });
});
