import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readLedgerLines } from "../../src/ledger/ledger-reader.js";
import { resumeRun } from "../../src/run/runner.js";
import { CACHE_DIR, DIGEST_5D, freshRunsDir, options, run } from "../run/helpers.js";
import { findRunDir, runAndKill } from "../support/kill-run.js";
import { runWithServer } from "./support/llm-run.js";
import { policyResponder, topCommentsScript } from "./support/policy-responder.js";

describe("cassette runs: any run's llm.jsonl replays it (R2, R8)", () => {
  it("replays byte-identically, and SIGKILL at random points + resume gives identical results", async () => {
    const cfg0 = { task: "daily-digest", ...DIGEST_5D };
    const live = await runWithServer(
      { ...cfg0, agent: { trigger: "cron" } },
      policyResponder(topCommentsScript(), "cron"),
    );
    const cassette = join(live.runDir, "llm.jsonl");
    const cfg = { ...cfg0, agent: { model: `cassette:${cassette}`, trigger: "cron" as const } };

    // R8: two cassette runs give byte-identical ledgers and logs, and the live run's scores
    const a = await run(cfg, options(freshRunsDir()));
    const b = await run(cfg, options(freshRunsDir()));
    const refLedger = readFileSync(join(a.runDir, "ledger.jsonl"), "utf8");
    expect(readFileSync(join(b.runDir, "ledger.jsonl"), "utf8")).toBe(refLedger);
    expect(readFileSync(join(b.runDir, "llm.jsonl"), "utf8")).toBe(readFileSync(join(a.runDir, "llm.jsonl"), "utf8"));
    expect(a.results.performance).toEqual(live.results.performance);
    // the cassette bills as the recorded model
    expect(a.results.resources.llm_usd).toBeCloseTo(live.results.resources.llm_usd, 12);
    const refResults = readFileSync(join(a.runDir, "results.json"), "utf8");

    // R2 (5 kill points here: each costs a CLI start)
    const configPath = join(freshRunsDir(), "config.json");
    writeFileSync(configPath, JSON.stringify(cfg));
    const total = refLedger.trimEnd().split("\n").length;
    const killPoints = fc.sample(fc.integer({ min: 1, max: total - 1 }), { numRuns: 5, seed: 7 });
    let resumedMidRun = 0;
    for (const killAt of killPoints) {
      const runsDir = freshRunsDir();
      await runAndKill(configPath, runsDir, CACHE_DIR, killAt);
      const runDir = findRunDir(runsDir);
      if (!runDir) continue;
      const acknowledged = existsSync(join(runDir, "ledger.jsonl"))
        ? readLedgerLines(join(runDir, "ledger.jsonl"))
        : [];
      if (!existsSync(join(runDir, "results.json"))) resumedMidRun++;
      await resumeRun(runDir, options(runsDir));
      const ledger = readFileSync(join(runDir, "ledger.jsonl"), "utf8");
      expect(ledger).toBe(refLedger);
      expect(ledger.split("\n").slice(0, acknowledged.length)).toEqual(acknowledged);
      expect(readFileSync(join(runDir, "results.json"), "utf8")).toBe(refResults);
    }
    expect(resumedMidRun).toBeGreaterThan(2);
  }, 900_000);

  it("a resumed live run replays its own llm.jsonl (no new model traffic for the recorded part)", async () => {
    const cfg = { task: "daily-digest", ...DIGEST_5D };
    const live = await runWithServer(cfg, policyResponder(topCommentsScript(), "sleep"));
    const lines = readFileSync(join(live.runDir, "ledger.jsonl"), "utf8").trimEnd().split("\n");
    // simulate a kill: keep the first half of the ledger, drop results
    const keep = Math.floor(lines.length / 2);
    writeFileSync(join(live.runDir, "ledger.jsonl"), `${lines.slice(0, keep).join("\n")}\n`);
    const { rmSync } = await import("node:fs");
    rmSync(join(live.runDir, "results.json"));
    // the server is gone: every call must come from the log (it holds all of them)
    const again = await resumeRun(live.runDir, {
      ...options(),
      env: { OPENAI_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_API_KEY: "x" },
      retry: { maxAttempts: 1 },
    });
    expect(again.results).toEqual(live.results);
    expect(readFileSync(join(live.runDir, "ledger.jsonl"), "utf8")).toBe(`${lines.join("\n")}\n`);
  }, 900_000);
});
