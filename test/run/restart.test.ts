import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseRunConfig, type RunConfigInput } from "../../src/run/config.js";
import { restartRun } from "../../src/run/restart.js";
import { type RunOptions, resumeRun, runFromConfig } from "../../src/run/runner.js";
import { TEST_MODEL } from "../agent/support/llm-run.js";
import { policyResponder, topCommentsScript } from "../agent/support/policy-responder.js";
import { type OpenAITestServer, startOpenAITestServer } from "../support/openai-test-server.js";
import { DIGEST_5D, freshRunsDir, options } from "./helpers.js";

const cfg = { task: "daily-digest", ...DIGEST_5D };
const read = (dir: string, file: string) => readFileSync(join(dir, file), "utf8");
/** the ledger and results with the run id masked (a restart is a new run: its id differs, nothing else may) */
const masked = (text: string) => text.replace(/"run_id": ?"[0-9a-f]{12}"/g, '"run_id":"<masked>"');

const start = (c: RunConfigInput, o: RunOptions) => runFromConfig(parseRunConfig(c), o);

describe("pause (--stop-after-day) and restart (--from-day): scripted policy", () => {
  it("a chain of pause, restart, pause and restart with nothing changed gives the continuous run byte for byte", async () => {
    const continuous = await start(cfg, options());
    const refLedger = read(continuous.runDir, "ledger.jsonl");
    const refResults = read(continuous.runDir, "results.json");

    // a paused run: checkpoint and partial results, no results.json
    const paused = await start(cfg, { ...options(), stopAfterDay: 2 });
    expect(paused.paused).toEqual({
      paused_after_day: 2,
      paused_at: "2026-03-03T00:00:00.000Z",
      ledger_lines: read(paused.runDir, "ledger.jsonl").trimEnd().split("\n").length,
    });
    expect(existsSync(join(paused.runDir, "results.json"))).toBe(false);
    expect(existsSync(join(paused.runDir, "results.partial.json"))).toBe(true);
    expect(paused.results.sim_end).toBe("2026-03-03T00:00:00.000Z");
    // the paused ledger is a prefix of the continuous one, cut at the start of day 3
    const pausedLedger = read(paused.runDir, "ledger.jsonl");
    expect(refLedger.startsWith(pausedLedger)).toBe(true);
    const lastT = JSON.parse(pausedLedger.trimEnd().split("\n").at(-1) as string).t;
    expect(lastT).toBeLessThanOrEqual(Date.parse("2026-03-03T00:00:00Z"));

    // restart from day 3, pausing again after day 3; then restart that from day 4
    const r1 = await restartRun(paused.runDir, { fromDay: 3 }, { ...options(), stopAfterDay: 3 });
    expect(r1.paused?.paused_after_day).toBe(3);
    expect(r1.runDir).not.toBe(paused.runDir);
    const r2 = await restartRun(r1.runDir, { fromDay: 4 }, options());
    expect(r2.paused).toBeUndefined();
    expect(masked(read(r2.runDir, "ledger.jsonl"))).toBe(masked(refLedger));
    expect(masked(read(r2.runDir, "results.json"))).toBe(masked(refResults));
    // the ids differ, and are the hash of source id, day and changes (a second restart finds the finished run)
    expect(JSON.parse(read(r2.runDir, "results.json")).run_id).not.toBe(JSON.parse(refResults).run_id);
    const again = await restartRun(r1.runDir, { fromDay: 4 }, options());
    expect(again).toMatchObject({ runDir: r2.runDir, cached: true });

    // resuming the paused run itself gives the continuous run exactly (same id), and drops the pause record
    const resumed = await resumeRun(paused.runDir, options());
    expect(resumed.paused).toBeUndefined();
    expect(read(paused.runDir, "ledger.jsonl")).toBe(refLedger);
    expect(read(paused.runDir, "results.json")).toBe(refResults);
    expect(existsSync(join(paused.runDir, "checkpoint.json"))).toBe(false);
    expect(existsSync(join(paused.runDir, "results.partial.json"))).toBe(false);
  }, 600_000);

  it("refuses bad days and settings with errors naming them, leaving no run directory", async () => {
    const runsDir = freshRunsDir();
    await expect(start(cfg, { ...options(runsDir), stopAfterDay: 5 })).rejects.toThrow(
      /--stop-after-day 5: the episode has 5 days; a run pauses after day 1\.\.4/,
    );
    expect(readdirSync(runsDir)).toEqual([]);
    const paused = await start(cfg, { ...options(runsDir), stopAfterDay: 1 });
    const before = readdirSync(join(runsDir, "daily-digest", "scripted-top-comments"));
    await expect(restartRun(paused.runDir, { fromDay: 3 }, options(runsDir))).rejects.toThrow(
      /does not reach the start of day 3 \(2026-03-03T00:00:00.000Z\): it is paused after day 1/,
    );
    await expect(restartRun(paused.runDir, { fromDay: 1 }, options(runsDir))).rejects.toThrow(
      /--from-day 1: the episode has 5 days; a restart starts on day 2\.\.5/,
    );
    await expect(
      restartRun(paused.runDir, { fromDay: 2, set: ["agent.temprature=0.5"] }, options(runsDir)),
    ).rejects.toThrow(/--set agent\.temprature: not a run-config setting/);
    await expect(
      restartRun(paused.runDir, { fromDay: 2, set: ["agent.temperature=7"] }, options(runsDir)),
    ).rejects.toThrow(/--set agent\.temperature: .*2/);
    await expect(restartRun(paused.runDir, { fromDay: 2, set: ["budget_usd=3"] }, options(runsDir))).rejects.toThrow(
      /--set budget_usd: cannot change at a restart; the settings that can: agent\.temperature, agent\.effort, agent\.max_output_tokens/,
    );
    await expect(
      restartRun(paused.runDir, { fromDay: 2, set: ["agent.temperature=0.5"] }, options(runsDir)),
    ).rejects.toThrow(/apply to LLM agents; .* runs scripted:top-comments/);
    await expect(restartRun(paused.runDir, { fromDay: 2, set: ["temperature"] }, options(runsDir))).rejects.toThrow(
      /expected key=value/,
    );
    expect(readdirSync(join(runsDir, "daily-digest", "scripted-top-comments"))).toEqual(before);
  }, 900_000);
});

describe("pause and restart: model runs (a cassette, and a loopback model)", () => {
  // no wall-clock dependence: the loopback model never times out here
  const llmOpts = (server: OpenAITestServer): RunOptions => ({
    ...options(),
    env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "test-key" },
    modelTimeoutMs: 600_000,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
  });
  const day3 = Date.parse("2026-03-03T00:00:00Z");
  const lines = (text: string) =>
    text
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; t: number });

  it("pause + restart with nothing changed equals the continuous run; a changed setting applies from its day only", async () => {
    const server = await startOpenAITestServer();
    server.respond(policyResponder(topCommentsScript(), "sleep"));
    try {
      const liveCfg = { ...cfg, agent: { model: TEST_MODEL, trigger: "sleep" as const } };
      const live = await start(liveCfg, llmOpts(server));
      const liveCalls = lines(read(live.runDir, "ledger.jsonl")).filter((e) => e.type === "llm_call");
      const after = liveCalls.filter((e) => e.t >= day3).length;
      expect(after).toBeGreaterThan(0);
      expect(after).toBeLessThan(liveCalls.length);

      // 1. a cassette model (offline): continuous vs pause after day 2 + restart from day 3
      const cas = { ...cfg, agent: { model: `cassette:${join(live.runDir, "llm.jsonl")}`, trigger: "sleep" as const } };
      const continuous = await start(cas, options());
      const refLedger = read(continuous.runDir, "ledger.jsonl");
      const paused = await start(cas, { ...options(), stopAfterDay: 2 });
      expect(paused.paused?.paused_after_day).toBe(2);
      const same = await restartRun(paused.runDir, { fromDay: 3 }, options());
      expect(masked(read(same.runDir, "ledger.jsonl"))).toBe(masked(refLedger));
      expect(masked(read(same.runDir, "results.json"))).toBe(masked(read(continuous.runDir, "results.json")));
      // the restart's llm.jsonl holds the re-run part's replies (copied) then its own live ones: the whole log
      expect(read(same.runDir, "llm.jsonl")).toBe(read(continuous.runDir, "llm.jsonl"));

      // 2. the loopback model, one server throughout (a run's endpoint is part of its identity)
      const p2 = await start(liveCfg, { ...llmOpts(server), stopAfterDay: 2 });
      const before = server.requests.length;
      const hot = await restartRun(p2.runDir, { fromDay: 3, set: ["agent.temperature=0.25"] }, llmOpts(server));
      // the re-run part came from p2's llm.jsonl: only the calls from day 3 on reached the server, all with the new setting
      const temps = server.requests.slice(before).map((q) => (q.body as { temperature?: number }).temperature);
      expect(temps.length).toBe(after);
      expect(new Set(temps)).toEqual(new Set([0.25]));
      const hotLedger = read(hot.runDir, "ledger.jsonl");
      const prefix = read(p2.runDir, "ledger.jsonl")
        .trimEnd()
        .split("\n")
        .filter((l) => JSON.parse(l).t < day3);
      expect(masked(hotLedger).startsWith(masked(`${prefix.join("\n")}\n`))).toBe(true);
      const record = JSON.parse(read(hot.runDir, "config.json")).restart;
      expect(record).toMatchObject({
        from_day: 3,
        switches: [{ from_day: 3, switch_at: "2026-03-03T00:00:00.000Z", set: { "agent.temperature": 0.25 } }],
      });
      // the restarted run resumes like any other (its switch happens again at its day): no new model traffic
      const hotLines = hotLedger.trimEnd().split("\n");
      writeFileSync(join(hot.runDir, "ledger.jsonl"), `${hotLines.slice(0, hotLines.length - 5).join("\n")}\n`);
      rmSync(join(hot.runDir, "results.json"));
      const n = server.requests.length;
      const resumed = await resumeRun(hot.runDir, llmOpts(server));
      expect(server.requests.length).toBe(n);
      expect(read(hot.runDir, "ledger.jsonl")).toBe(hotLedger);
      expect(resumed.results.run_id).toBe(record.run_id);
    } finally {
      await server.close();
    }
  }, 900_000);
});
