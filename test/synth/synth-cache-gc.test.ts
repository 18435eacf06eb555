/** The synthetic-world cache: temp dirs of killed builds are removed; `gcSynthWorlds` / `relive data gc` evict LRU first. */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ensureSynthWorld, gcSynthWorlds, removeStaleSynthTemps } from "../../src/synth/synth-world.js";

const REPO = resolve(import.meta.dirname, "../..");
const D = (s: string) => Date.parse(`${s}T00:00:00Z`);

/** a pid no process has: a child that already exited */
function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(r.stdout);
}

/** a fake cached world directory (gc only reads names, world.json mtimes and sizes) */
function fakeWorld(cache: string, name: string, usedAt: number, bytes: number): string {
  const dir = join(cache, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "world.db"), Buffer.alloc(bytes));
  writeFileSync(join(dir, "world.json"), "{}");
  utimesSync(join(dir, "world.json"), new Date(usedAt), new Date(usedAt));
  return dir;
}

describe("synthetic-world cache", () => {
  it("removes temp dirs of dead build processes and keeps those of live ones", () => {
    const cache = mkdtempSync(join(tmpdir(), "relive-synth-gc-"));
    const dead = deadPid();
    mkdirSync(join(cache, `synth-9-s1-2026-03-01-2026-03-02.tmp-${dead}`));
    writeFileSync(join(cache, `synth-9-s1-2026-03-01-2026-03-02.tmp-${dead}`, "world.db"), Buffer.alloc(1000));
    mkdirSync(join(cache, `synth-9-s1-2026-03-01-2026-03-02.tmp-${process.pid}`));
    mkdirSync(join(cache, `synth-9-s1-2026-03-01-2026-03-02.tmp-${process.ppid}`));
    const removed = removeStaleSynthTemps(cache);
    expect(removed.map((r) => [r.pid, r.bytes])).toEqual([[dead, 1000]]);
    expect(readdirSync(cache).sort()).toEqual(
      [
        `synth-9-s1-2026-03-01-2026-03-02.tmp-${process.pid}`,
        `synth-9-s1-2026-03-01-2026-03-02.tmp-${process.ppid}`,
      ].sort(),
    );
  });

  it("ensureSynthWorld clears a killed build's temp dir before it builds", () => {
    const cache = mkdtempSync(join(tmpdir(), "relive-synth-gc-"));
    const dead = deadPid();
    const stale = join(cache, `synth-x-s3-2026-03-01-2026-03-02.tmp-${dead}`);
    mkdirSync(stale);
    const logs: string[] = [];
    const dir = ensureSynthWorld(cache, { seed: 3, start: D("2026-03-01"), end: D("2026-03-02") }, (m) => logs.push(m));
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(join(dir, "world.json"))).toBe(true);
    expect(logs).toContain(`removed ${stale} (left by killed build ${dead})`);
  }, 900_000);

  it("gc evicts least recently used first, keeps the N most recent, counts the bytes freed", () => {
    const cache = mkdtempSync(join(tmpdir(), "relive-synth-gc-"));
    const a = fakeWorld(cache, "synth-9-s1-a", D("2026-01-01"), 100);
    const b = fakeWorld(cache, "synth-9-s1-b", D("2026-01-03"), 200);
    const c = fakeWorld(cache, "synth-9-s1-c", D("2026-01-02"), 300);
    const partial = join(cache, "synth-9-s1-partial");
    mkdirSync(partial);
    writeFileSync(join(partial, "world.db"), Buffer.alloc(50));
    const r = gcSynthWorlds(cache, 1);
    expect(r.removed.map((x) => [x.path, x.bytes, x.last_used])).toEqual([
      [partial, 50, null],
      [a, 102, "2026-01-01T00:00:00.000Z"],
      [c, 302, "2026-01-02T00:00:00.000Z"],
    ]);
    expect(r.kept).toEqual([b]);
    expect(r.freed_bytes).toBe(50 + 102 + 302);
    expect(readdirSync(cache)).toEqual(["synth-9-s1-b"]);
    expect(() => gcSynthWorlds(cache, -1)).toThrow(/keep/);
  });

  it("`relive data gc --cache DIR --keep 0` prints what it removed and the bytes freed", () => {
    const cache = mkdtempSync(join(tmpdir(), "relive-synth-gc-"));
    const w = fakeWorld(join(cache, "synth"), "synth-9-s1-a", D("2026-01-01"), 1000);
    const r = spawnSync(
      process.execPath,
      [join(REPO, "bin/relive.js"), "data", "gc", "--cache", cache, "--keep", "0"],
      {
        encoding: "utf8",
        cwd: REPO,
      },
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`removed world ${w} (0.0 MiB, last used 2026-01-01T00:00:00.000Z)`);
    expect(r.stdout).toContain(
      "freed 1002 bytes (0.0 MiB) in 1 directory; kept 0 synthetic world(s), 0 recipe world(s)",
    );
    expect(existsSync(w)).toBe(false);
  }, 900_000);
});
