import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readLedgerLines } from "../../src/ledger/ledger-reader.js";
import { resumeRun } from "../../src/run/runner.js";
import { findRunDir, runAndKill } from "../support/kill-run.js";
import { CACHE_DIR, DIGEST_5D, freshRunsDir, options, run } from "./helpers.js";

describe("crash safety (R2): SIGKILL at random points, then resume", () => {
  it("gives results identical to an uninterrupted run and loses no acknowledged event", async () => {
    const cfg = { task: "daily-digest", ...DIGEST_5D };
    const reference = await run(cfg);
    const refLedger = readFileSync(join(reference.runDir, "ledger.jsonl"), "utf8");
    const refResults = readFileSync(join(reference.runDir, "results.json"), "utf8");
    const total = refLedger.trimEnd().split("\n").length;

    const configPath = join(freshRunsDir(), "config.json");
    writeFileSync(configPath, JSON.stringify(cfg));
    const killPoints = fc.sample(fc.integer({ min: 1, max: total - 1 }), { numRuns: 20, seed: 42 });
    let resumedMidRun = 0;
    for (const killAt of killPoints) {
      const runsDir = freshRunsDir();
      await runAndKill(configPath, runsDir, CACHE_DIR, killAt);
      const runDir = findRunDir(runsDir);
      if (!runDir) continue; // killed before the run directory existed: nothing to resume
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
    expect(resumedMidRun).toBeGreaterThan(10);
  });
});
