import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { HOUR_MS } from "../../src/common/time.js";
import { branchSeed } from "../../src/learning/best-of-n.js";
import type { LedgerEvent } from "../../src/ledger/events.js";
import { parseRunConfig, type RunConfigInput } from "../../src/run/config.js";
import { runFromConfig } from "../../src/run/runner.js";
import { ensureSynthWorld } from "../../src/synth/synth-world.js";
import { nextMultiple, velocitySteps } from "../../src/tasks/popularity/reference-policies.js";
import { llmOptions, TEST_MODEL } from "../agent/support/llm-run.js";
import { policyResponder } from "../agent/support/policy-responder.js";
import { type RequestBody, type ScriptedReply, startOpenAITestServer } from "../support/openai-test-server.js";
import { testSynthCache } from "../support/shared-synth-cache.js";

const SYNTH_CACHE = testSynthCache();
const T = (s: string) => Date.parse(s);
const every8h = (now: number) => nextMultiple(now, 8 * HOUR_MS);

/**
 * A loopback "model" whose behaviour depends on the sampling seed of the request, as a real model's
 * samples do: the run seed (branch 0) plays a silent agent (it only sleeps), any other seed plays the
 * velocity heuristic; each seed keeps its own conversation state.
 */
function bySeed(seed0: number): (body: RequestBody, index: number) => ScriptedReply {
  const players = new Map<number, (body: RequestBody, index: number) => ScriptedReply>();
  return (body, index) => {
    const seed = body.seed as number;
    let p = players.get(seed);
    if (p === undefined) {
      p = policyResponder(
        seed === seed0
          ? {
              act: function* () {},
              nextWake: every8h,
              cron: [],
            }
          : { act: velocitySteps, nextWake: every8h, cron: [] },
        "sleep",
      );
      players.set(seed, p);
    }
    return p(body, index);
  };
}

describe("Best-of-N + Prune with an LLM agent (loopback model server, popularity, 3 days)", () => {
  let dir: string;
  beforeAll(() => {
    dir = ensureSynthWorld(SYNTH_CACHE, { seed: 1, start: T("2026-03-01T00:00:00Z"), end: T("2026-03-08T00:00:00Z") });
  });
  const cfg = (agent: Record<string, unknown>): RunConfigInput => ({
    task: "popularity",
    sim_start: "2026-03-01T00:00:00Z",
    sim_end: "2026-03-04T00:00:00Z",
    world: { dir },
    feedback: "oracle",
    agent: { model: TEST_MODEL, trigger: "sleep", context_tokens: 8_000, ...agent },
  });

  it("branches sample with their own seeds; the better branch survives and scores exactly like its single run", async () => {
    const server = await startOpenAITestServer();
    server.respond(bySeed(0));
    let bon: Awaited<ReturnType<typeof runFromConfig>>;
    try {
      bon = await runFromConfig(
        parseRunConfig(cfg({ learning: { method: "best-of-n", n: 2, prune_days: [2] } })),
        llmOptions(server),
      );
      // every request carried branch 0's seed (the run seed) or branch 1's drawn seed
      expect(new Set(server.requests.map((q) => q.body.seed))).toEqual(new Set([0, branchSeed(0, 1)]));
    } finally {
      await server.close();
    }
    const b = bon.results.best_of_n!;
    expect(b.survivor).toBe(1);
    expect(b.prunes).toEqual([{ day: 2, ranking: [1, 0], kept: [1] }]);
    expect(b.branches[0]!.scores).toEqual([{ day: 2, score: 0 }]);
    expect(b.branches[1]!.scores[0]!.score).toBeGreaterThan(0);

    // branch 1 alone (agent.branch: 1), against a fresh server with the same model
    const solo = await startOpenAITestServer();
    solo.respond(bySeed(0));
    let single: Awaited<ReturnType<typeof runFromConfig>>;
    try {
      single = await runFromConfig(parseRunConfig(cfg({ branch: 1 })), llmOptions(solo));
    } finally {
      await solo.close();
    }
    expect(bon.results.performance).toEqual(single.results.performance);
    expect(bon.results.outcomes).toEqual(single.results.outcomes);
    expect(bon.results.outcomes.some((o) => o.status === "hit")).toBe(true);
    // (its cost is its own branch's: the provider's prompt cache is shared with branch 0, which ran first,
    // so the survivor's cached tokens may exceed those of a lone run on a fresh server)
    const own = JSON.parse(readFileSync(join(bon.runDir, "branches", "b1", "results.json"), "utf8"));
    expect(bon.results.resources.tokens).toEqual(own.resources.tokens);

    // the run paid branch 0's model calls up to its prune (the start of day 3) besides the survivor's
    const b0 = readFileSync(join(bon.runDir, "branches", "b0", "ledger.jsonl"), "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as LedgerEvent);
    let b0Spent = 0;
    for (const e of b0) if (e.type === "llm_call" && e.t < T("2026-03-03T00:00:00Z")) b0Spent += e.cost_usd;
    expect(b0Spent).toBeGreaterThan(0);
    expect(b.branches[0]).toMatchObject({ stopped_after_day: 2, spent_usd: b0Spent });
    expect(b.survivor_spent_usd).toBe(own.resources.spent_usd);
    expect(bon.results.resources.spent_usd).toBeCloseTo(own.resources.spent_usd + b0Spent, 12);
    expect(bon.results.resources.llm_usd).toBeCloseTo(own.resources.llm_usd + b0Spent, 12);
  }, 900_000);
});
