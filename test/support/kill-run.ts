import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { readLedgerLines } from "../../src/ledger/ledger-reader.js";

const REPO = resolve(import.meta.dirname, "../..");

/** The single run directory under a runs dir (runs/<task>/<model>/<id>-s<seed>), or null. */
export function findRunDir(runsDir: string): string | null {
  let dir = runsDir;
  for (let depth = 0; depth < 3; depth++) {
    if (!existsSync(dir)) return null;
    const entries = readdirSync(dir);
    if (entries.length !== 1) return null;
    dir = join(dir, entries[0]!);
  }
  return dir;
}

/** Runs `relive run -c config` in a child process and SIGKILLs it once its ledger holds ≥ `killAt` lines. */
export function runAndKill(configPath: string, runsDir: string, cacheDir: string, killAt: number): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      [join(REPO, "bin/relive.js"), "run", "-c", configPath, "--runs", runsDir, "--cache", cacheDir, "-q"],
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
      if (signal === "SIGKILL" || code === 0) done();
      else fail(new Error(`relive run exited with ${code}: ${stderr}`));
    });
  });
}
