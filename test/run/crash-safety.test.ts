import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readLedgerLines } from "../../src/ledger/ledger-reader.js";
import { resumeRun } from "../../src/run/runner.js";
import { CACHE_DIR, DIGEST_5D, freshRunsDir, options, REPO, run } from "./helpers.js";

/** Finds the single run directory under a runs dir (runs/<task>/<model>/<id>-s<seed>). */
function findRunDir(runsDir: string): string | null {
  let dir = runsDir;
  for (let depth = 0; depth < 3; depth++) {
    if (!existsSync(dir)) return null;
    const entries = readdirSync(dir);
    if (entries.length !== 1) return null;
    dir = join(dir, entries[0]!);
  }
  return dir;
}

/** Runs the CLI in a child process and SIGKILLs it once its ledger holds at least `killAt` lines. */
function runAndKill(configPath: string, runsDir: string, killAt: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(REPO, "bin/relive.js"), "run", "-c", configPath, "--runs", runsDir, "--cache", CACHE_DIR, "-q"],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const poll = setInterval(() => {
      const rd = findRunDir(runsDir);
      const ledger = rd && join(rd, "ledger.jsonl");
      if (ledger && existsSync(ledger) && statSync(ledger).size > 0 && readLedgerLines(ledger).length >= killAt)
        child.kill("SIGKILL");
    }, 2);
    child.on("exit", (code, signal) => {
      clearInterval(poll);
      if (signal === "SIGKILL" || code === 0) resolve();
      else reject(new Error(`relive run exited with ${code}: ${stderr}`));
    });
  });
}

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
      await runAndKill(configPath, runsDir, killAt);
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
