import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readLedger } from "../../src/ledger/ledger-reader.js";
import { ConfigError } from "../../src/run/config.js";
import { rescoreRun } from "../../src/run/rescore.js";
import { ResultsSchema } from "../../src/run/results.js";
import { DIGEST_5D, freshRunsDir, options, PRICE_3D, RAW_DIR, run } from "./helpers.js";

describe("daily-digest end to end through the runner", () => {
  it("pins the anchors: top 10 at 12:30 → 1.0, at 13:30 → 0.0, silent → 0, oracle → 1.0", async () => {
    const score = async (policy: string) =>
      (await run({ task: "daily-digest", ...DIGEST_5D, agent: { model: `scripted:${policy}` } })).results.performance
        .primary;
    expect(await score("top-comments")).toEqual({ name: "digest_acc", value: 1, direction: "higher" });
    expect((await score("top-comments-at-13-30")).value).toBe(0);
    expect((await score("silent")).value).toBe(0);
    expect((await score("oracle")).value).toBe(1);
  });

  it("writes a valid results.json, a ledger with wakes, calls, commitments, outcomes and daily briefs", async () => {
    const { runDir, results } = await run({ task: "daily-digest", ...DIGEST_5D });
    expect(ResultsSchema.safeParse(results).success).toBe(true);
    expect(JSON.parse(readFileSync(join(runDir, "results.json"), "utf8"))).toEqual(results);
    const ev = readLedger(join(runDir, "ledger.jsonl"));
    const types = new Set(ev.map((e) => e.type));
    for (const t of ["run_start", "wake", "wait", "tool_call", "commitment", "outcome", "daily_brief", "run_end"])
      expect(types).toContain(t);
    // simulated order
    for (let i = 1; i < ev.length; i++) expect(ev[i]!.t).toBeGreaterThanOrEqual(ev[i - 1]!.t);
    expect(ev.filter((e) => e.type === "daily_brief")).toHaveLength(5);
    // 4 scored days (the 5th day's digest settles after the window)
    expect(results.outcomes).toHaveLength(4);
    expect(results.not_scorable.map((n) => n.reason)).toContain("settles after window");
    expect(results.timing.anytime).toHaveLength(5);
    expect(existsSync(join(runDir, "config.json"))).toBe(true);
  });

  it("runs under the cron trigger", async () => {
    const { results } = await run({ task: "daily-digest", ...DIGEST_5D, agent: { trigger: "cron" } });
    expect(results.trigger).toBe("cron");
    expect(results.diagnostics.wake_reasons.cron).toBeGreaterThan(0);
    expect(results.performance.primary.value).toBe(1);
  });

  it("is deterministic: same inputs and seed give a byte-identical ledger (R8)", async () => {
    const a = await run({ task: "daily-digest", ...DIGEST_5D }, options(freshRunsDir()));
    const b = await run({ task: "daily-digest", ...DIGEST_5D }, options(freshRunsDir()));
    expect(readFileSync(join(b.runDir, "ledger.jsonl"))).toEqual(readFileSync(join(a.runDir, "ledger.jsonl")));
    expect(readFileSync(join(b.runDir, "results.json"))).toEqual(readFileSync(join(a.runDir, "results.json")));
  });

  it("rescore reproduces the recorded outcomes and never touches the ledger", async () => {
    const { runDir, results } = await run({ task: "daily-digest", ...DIGEST_5D });
    const before = readFileSync(join(runDir, "ledger.jsonl"));
    const { results: again, diffs } = await rescoreRun(runDir, options());
    expect(diffs).toEqual([]);
    expect(again).toEqual(results);
    expect(readFileSync(join(runDir, "ledger.jsonl"))).toEqual(before);
  });

  it("a second run of the same config is a no-op that returns the finished results", async () => {
    const o = options();
    const a = await run({ task: "daily-digest", ...DIGEST_5D }, o);
    const b = await run({ task: "daily-digest", ...DIGEST_5D }, o);
    expect(b.cached).toBe(true);
    expect(b.results).toEqual(a.results);
  });
});

describe("price-check end to end through the runner", () => {
  it("scores the heuristic, silent and oracle policies on the synthetic world", async () => {
    const score = async (policy: string, trigger: "sleep" | "cron" = "sleep") =>
      (await run({ task: "price-check", ...PRICE_3D, agent: { model: `scripted:${policy}`, trigger } })).results;
    const heur = await score("median-poll");
    expect(heur.performance.primary.name).toBe("price_acc");
    expect(heur.performance.primary.value).toBeGreaterThan(0);
    expect(heur.performance.primary.value).toBeLessThanOrEqual(1);
    expect(heur.resources.tool_calls).toBeGreaterThan(0);
    expect((await score("silent")).performance.primary.value).toBe(0);
    expect((await score("oracle")).performance.primary.value).toBe(1);
    const cron = await score("median-poll", "cron");
    expect(cron.performance.primary.value).toBe(heur.performance.primary.value);
  });
});

describe("bad input leaves nothing behind", () => {
  it.each([
    [{ task: "nope" }, /task: unknown task "nope"/],
    [{ task: "daily-digest", episode: "x" }, /episode: task daily-digest has no episode "x"/],
    [{ task: "daily-digest", agent: { model: "scripted:nope" } }, /no reference policy "nope"/],
    [
      { task: "daily-digest", agent: { model: "openai:not-a-model" } },
      /agent.model: model "openai:not-a-model" is not in the price table/,
    ],
    [{ task: "daily-digest", feedback: "self" }, /defines no "self" feedback/],
    [{ task: "daily-digest", task_params: { digest_size: "ten" } }, /task_params/],
  ])("%j is refused with a clear error and no run directory", async (cfg, message) => {
    const runsDir = freshRunsDir();
    await expect(run(cfg as never, options(runsDir))).rejects.toThrow(message);
    await expect(run(cfg as never, options(runsDir))).rejects.toThrow(ConfigError);
    expect(readdirSync(runsDir)).toEqual([]);
  });

  it("oracle policies are refused outside tests", async () => {
    await expect(
      run({ task: "daily-digest", agent: { model: "scripted:oracle" } }, { ...options(), allowOracle: false }),
    ).rejects.toThrow(/reads ground truth/);
  });
});

describe.skipIf(!existsSync(RAW_DIR))("price-check on real prices (svb-2023)", () => {
  it("builds the world from the raw files and scores the heuristic", async () => {
    const { results } = await run({ task: "price-check", episode: "svb-2023" });
    expect(results.episode).toBe("svb-2023");
    expect(results.sim_start).toBe("2023-03-01T00:00:00.000Z");
    expect(results.sim_end).toBe("2023-03-22T00:00:00.000Z");
    // 3 symbols × 21 days × 24 hours
    expect(results.performance.symbol_hours).toBe(1512);
    expect(results.performance.primary.value).toBeGreaterThan(0.5);
    expect(results.performance.primary.value).toBeLessThan(1);
  });
});
if (!existsSync(RAW_DIR)) console.warn(`skipping the svb-2023 episode test: ${RAW_DIR} is absent`);
