import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readLedger } from "../../../src/ledger/ledger-reader.js";
import { ResultsSchema } from "../../../src/run/results.js";
import { NEWS_CUE, newsCueState, newsCueSteps, nextEveryHours } from "../../../src/tasks/resolution-detect/policies.js";
import { TruthStore } from "../../../src/world/truth-store.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { runWithServer } from "../../agent/support/llm-run.js";
import { type PolicyScript, policyResponder } from "../../agent/support/policy-responder.js";
import { run } from "../../run/helpers.js";
import { synthWorldDir } from "../breakout-news/synth-cache.js";

const world = () => ({ dir: synthWorldDir(Date.parse("2026-03-01T00:00:00Z"), Date.parse("2026-03-08T00:00:00Z")) });

/** The news-cue heuristic as an LLM script: the same generator the reference policy runs. */
function newsCueScript(): PolicyScript {
  const st = newsCueState();
  return {
    act: (now) => newsCueSteps(now, st),
    nextWake: (now) => nextEveryHours(now, NEWS_CUE.everyHours),
    cron: [`0 */${NEWS_CUE.everyHours} * * *`],
  };
}

describe("resolution-detect end to end through the runner", () => {
  it("news-cue (scripted) on 4 synthetic days: scored, ledger in simulated order", async () => {
    const res = await run({
      task: "resolution-detect",
      world: world(),
      sim_start: "2026-03-01T00:00:00Z",
      sim_end: "2026-03-05T00:00:00Z",
      agent: { model: "scripted:news-cue", trigger: "sleep" },
    });
    expect(ResultsSchema.safeParse(res.results).success).toBe(true);
    expect(res.results.performance.primary.name).toBe("tc_f1");
    expect(res.results.performance.primary.value).toBeGreaterThan(0.5);
    expect(res.results.performance.winnable).toBe(3);
    // reaction times: the hours from each determination to the mark that followed it
    const delays = res.results.outcomes
      .filter((o) => o.status === "correct")
      .map((o) => o.detail.delay_h as number)
      .sort((a, b) => a - b);
    expect(delays.length).toBeGreaterThan(0);
    const n = delays.length;
    expect(res.results.diagnostics.reaction_h).toEqual({
      n,
      p50: n % 2 ? delays[(n - 1) / 2] : (delays[n / 2 - 1]! + delays[n / 2]!) / 2,
      p90: delays[Math.ceil(0.9 * n) - 1],
      mean: delays.reduce((a, b) => a + b, 0) / n,
    });
    const ev = readLedger(join(res.runDir, "ledger.jsonl"));
    for (let i = 1; i < ev.length; i++) expect(ev[i]!.t).toBeGreaterThanOrEqual(ev[i - 1]!.t);
  }, 900_000);

  it("an LLM agent (test server replaying news-cue) under cron scores like the scripted policy", async () => {
    // two questions decided inside 36 hours and one that stays open keep the replay short (ids are
    // opaque: the questions are found in the world by what happens to them)
    const from = Date.parse("2026-03-04T00:00:00Z");
    const to = Date.parse("2026-03-05T12:00:00Z");
    const w = WorldStore.open(world().dir);
    const t = TruthStore.open(world().dir);
    // the markets decided by an event in the span (a deadline market closes at 00:00 UTC instead)
    const byEvent = new Set(
      (
        w.db.prepare("SELECT market FROM market_resolution WHERE closed_at % 86400000 != 0").all() as {
          market: string;
        }[]
      ).map((r) => r.market),
    );
    const decided = t
      .labels("t_det")
      .filter((l) => l.t !== null && l.t >= from && l.t < to && byEvent.has(l.key))
      .map((l) => l.key)
      .sort();
    const open = (
      w.db
        .prepare(
          "SELECT id FROM market WHERE id LIKE 'ld-%' AND open < ? AND id NOT IN (SELECT market FROM market_resolution)" +
            " AND id NOT IN (SELECT market FROM market_price WHERE p >= 0.99) ORDER BY id LIMIT 1",
        )
        .all(from) as { id: string }[]
    ).map((r) => r.id);
    w.close();
    t.close();
    expect(decided).toHaveLength(2);
    expect(open).toHaveLength(1);
    const cfg = {
      task: "resolution-detect",
      task_params: { questions: [...decided, ...open] },
      world: world(),
      sim_start: "2026-03-04T00:00:00Z",
      sim_end: "2026-03-05T12:00:00Z",
    } as const;
    const ref = await run({ ...cfg, agent: { model: "scripted:news-cue", trigger: "cron" } });
    const res = await runWithServer(
      { ...cfg, agent: { trigger: "cron", context_tokens: 6_000 } },
      policyResponder(newsCueScript(), "cron"),
    );
    expect(res.results.performance).toEqual(ref.results.performance);
    expect(res.results.outcomes).toEqual(ref.results.outcomes);
    expect(res.results.outcomes.map((o) => [o.key, o.status]).sort()).toEqual(
      decided.map((id) => [`q:${id}`, "correct"]),
    );
    const ev = readLedger(join(res.runDir, "ledger.jsonl"));
    expect(ev.some((e) => e.type === "wake" && e.reason === "cron")).toBe(true);
    expect(ev.some((e) => e.type === "llm_call")).toBe(true);
  }, 900_000);
});
