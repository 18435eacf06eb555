import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acquireRunLock, LOCK_STALE_MS, lockHolder, lockPath, RunBusyError } from "../../../src/run/grid/run-lock.js";

describe("run directory lock", () => {
  const dir = () => join(mkdtempSync(join(tmpdir(), "relive-lock-")), "task", "model", "abc-s0");

  it("is exclusive while its holder lives and released on release", () => {
    const runDir = dir();
    const release = acquireRunLock(runDir);
    expect(lockHolder(runDir)?.pid).toBe(process.pid);
    expect(() => acquireRunLock(runDir)).toThrow(RunBusyError);
    release();
    expect(existsSync(lockPath(runDir))).toBe(false);
    acquireRunLock(runDir)();
  });

  it("is taken over from a dead process on this host, or a silent one on another host", () => {
    const runDir = dir();
    acquireRunLock(runDir); // create the parent folders
    // a pid that surely exited: a finished child process
    const dead = spawnSync(process.execPath, ["-e", "0"]).pid;
    writeFileSync(lockPath(runDir), JSON.stringify({ pid: dead, host: hostname(), since: "x" }));
    expect(lockHolder(runDir)).toBeNull();
    acquireRunLock(runDir)();

    writeFileSync(lockPath(runDir), JSON.stringify({ pid: 1, host: "elsewhere", since: "x" }));
    expect(lockHolder(runDir)?.host).toBe("elsewhere");
    expect(() => acquireRunLock(runDir)).toThrow(/being run by process 1 on elsewhere/);
    const old = new Date(Date.now() - LOCK_STALE_MS - 1000);
    utimesSync(lockPath(runDir), old, old);
    expect(lockHolder(runDir)).toBeNull();
    acquireRunLock(runDir)();
    // a torn lock file holds nothing
    writeFileSync(lockPath(runDir), '{"pid":');
    acquireRunLock(runDir)();
  });
});
