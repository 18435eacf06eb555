import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readLedger } from "../../../src/ledger/ledger-reader.js";
import { ResultsSchema } from "../../../src/run/results.js";
import { NEWS_BURST, newsBurstState, newsBurstSteps, nextHourlyAt } from "../../../src/tasks/breakout-news/policies.js";
import { TruthStore } from "../../../src/world/truth-store.js";
import { runWithServer } from "../../agent/support/llm-run.js";
import { type PolicyScript, policyResponder } from "../../agent/support/policy-responder.js";
import { run } from "../../run/helpers.js";
import type { RequestBody, ScriptedReply } from "../../support/openai-test-server.js";
import { synthWorldDir } from "./synth-cache.js";

const EP = { start: Date.parse("2026-03-01T00:00:00Z"), end: Date.parse("2026-03-08T00:00:00Z") };
/** runs use the cached synth-7d world with a shorter window inside it */
const world = () => ({ dir: synthWorldDir(EP.start, EP.end) });

/** The news-burst heuristic as an LLM script: the same generator the reference policy runs. */
function newsBurstScript(): PolicyScript {
  const st = newsBurstState();
  return {
    act: (now) => newsBurstSteps(now, st),
    nextWake: (now) => nextHourlyAt(now, NEWS_BURST.minute),
    cron: [`${NEWS_BURST.minute} * * * *`],
  };
}

/** The coordinator of the per-market shape does nothing and finishes. */
const idleScript: PolicyScript = {
  *act() {},
  nextWake: () => null,
  cron: [],
};

/** One responder per actor, routed by the actor's instruction in the system prompt. */
function perActorResponder() {
  const responders = new Map<string, (body: RequestBody, index: number) => ScriptedReply>();
  return (body: RequestBody, index: number): ScriptedReply => {
    const system = String(body.messages[0]?.content ?? "");
    const who =
      /You watch market (\S+) /.exec(system)?.[1] ?? (system.includes("You coordinate") ? "coordinator" : null);
    if (who === null) throw new Error("per-actor responder: cannot tell the actor from the system prompt");
    let r = responders.get(who);
    if (!r) {
      r = policyResponder(who === "coordinator" ? idleScript : newsBurstScript(), "sleep");
      responders.set(who, r);
    }
    return r(body, index);
  };
}

describe("breakout-news end to end through the runner", () => {
  it("news-burst (scripted) on 3 synthetic days: scored, ledger in simulated order", async () => {
    const res = await run({
      task: "breakout-news",
      world: world(),
      sim_start: "2026-03-01T00:00:00Z",
      sim_end: "2026-03-04T00:00:00Z",
      agent: { model: "scripted:news-burst", trigger: "sleep" },
    });
    expect(ResultsSchema.safeParse(res.results).success).toBe(true);
    expect(res.results.performance.primary.name).toBe("cov_f1");
    expect(res.results.performance.primary.value).toBeGreaterThan(0.5);
    expect(res.results.resources.fees_usd).toBeGreaterThan(0);
    const ev = readLedger(join(res.runDir, "ledger.jsonl"));
    for (let i = 1; i < ev.length; i++) expect(ev[i]!.t).toBeGreaterThanOrEqual(ev[i - 1]!.t);
    expect(ev.filter((e) => e.type === "commitment").length).toBeGreaterThan(0);
  }, 900_000);

  it("LLM agents in the per-market program shape (test server replaying the heuristic per actor) score like the scripted single agent", async () => {
    // two markets whose first breakpoints fall inside 16 hours keep the replay short (ids are
    // opaque: the markets are found in the truth by their breakpoints)
    const truth = TruthStore.open(world().dir);
    const markets = (
      truth.db
        .prepare("SELECT DISTINCT market FROM breakpoint WHERE t_start >= ? AND t_start < ? ORDER BY market")
        .all(Date.parse("2026-03-01T12:00:00Z"), Date.parse("2026-03-02T04:00:00Z")) as { market: string }[]
    ).map((r) => r.market);
    truth.close();
    expect(markets).toHaveLength(2);
    const cfg = {
      task: "breakout-news",
      task_params: { markets },
      world: world(),
      sim_start: "2026-03-01T12:00:00Z",
      sim_end: "2026-03-02T04:00:00Z",
    } as const;
    const ref = await run({ ...cfg, agent: { model: "scripted:news-burst", trigger: "sleep" } });
    const res = await runWithServer(
      { ...cfg, agent: { trigger: "sleep", context_tokens: 6_000 } },
      perActorResponder(),
    );
    expect(res.results.performance).toEqual(ref.results.performance);
    expect(res.results.outcomes).toEqual(ref.results.outcomes);
    expect(res.results.resources.fees_usd).toBeCloseTo(ref.results.resources.fees_usd, 10);
    const ev = readLedger(join(res.runDir, "ledger.jsonl"));
    const actors = new Set(ev.flatMap((e) => (e.type === "llm_call" ? [e.actor] : [])));
    expect([...actors].sort()).toEqual(["coordinator", ...markets.map((m) => `market-${m}`)]);
    const commits = ev.flatMap((e) => (e.type === "commitment" ? [e] : []));
    expect(commits.length).toBe(2);
    // generator v6 (distractors): the second breakpoint is covered on timing (its claim cites an article that is not gold);
    // v5: ["covered_news", "covered_news"]
    expect(res.results.outcomes.filter((o) => o.key.startsWith("bp:")).map((o) => o.status)).toEqual([
      "covered_news",
      "covered_timing",
    ]);
    for (const c of commits) expect(c.actor).toBe(`market-${(c.args as { market_id: string }).market_id}`);
    // the actors of the program can message each other
    const toolNames = (body: { tools: { function: { name: string } }[] }) => body.tools.map((t) => t.function.name);
    for (const r of res.requests)
      expect(toolNames(r.body)).toEqual(expect.arrayContaining(["send_message", "read_messages"]));
  }, 900_000);
});
