import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const REPO = resolve(import.meta.dirname, "../..");
const relive = (...args: string[]) =>
  spawnSync(process.execPath, [join(REPO, "bin/relive.js"), ...args], { encoding: "utf8", cwd: REPO });

describe("relive data import --events", () => {
  const dir = mkdtempSync(join(tmpdir(), "cli-import-events-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("documents the event flags", () => {
    const r = relive("data", "import", "--help");
    expect(r.status).toBe(0);
    for (const flag of ["--events", "--time-field", "--kind-field", "--id-field", "--mapping"])
      expect(r.stdout).toContain(flag);
  }, 900_000);

  it("imports the example log with the flags or a mapping file, listing rejections with file:line", () => {
    const log = join(dir, "log.jsonl");
    writeFileSync(
      log,
      `${JSON.stringify({ ts: "2026-03-02T10:00:00Z", type: "alert", id: "A1" })}\n${JSON.stringify({ type: "x" })}\n`,
    );
    const out = join(dir, "w1");
    const r = relive(
      "data",
      "import",
      "--events",
      log,
      "--time-field",
      "ts",
      "--kind-field",
      "type",
      "--id-field",
      "id",
      "-o",
      out,
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^imported 1 event row\(s\) of 2 read into .* \(rejected 1; /);
    expect(r.stdout).toContain(`${log}:2: no time field "ts"`);
    expect(existsSync(join(out, "world.json"))).toBe(true);
    const m = relive(
      "data",
      "import",
      "--events",
      "examples/event-log/oncall.jsonl",
      "--mapping",
      "examples/event-log/mapping.yaml",
      "-o",
      join(dir, "w2"),
    );
    expect(m.status).toBe(0);
    expect(m.stdout).toMatch(/^imported 29 event row\(s\) of 29 read/);
  }, 900_000);

  it("exits 1 and writes no world when nothing was imported; refuses a missing mapping", () => {
    const log = join(dir, "bad.jsonl");
    writeFileSync(log, `${JSON.stringify({ when: 1 })}\n`);
    const out = join(dir, "w3");
    const r = relive("data", "import", "--events", log, "--time-field", "ts", "--kind-field", "type", "-o", out);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      "nothing to import: every one of the 1 source row(s) was rejected; no world was written",
    );
    expect(r.stdout).toContain(`${log}:1: no time field "ts"`);
    expect(existsSync(out)).toBe(false);
    const n = relive("data", "import", "--events", log, "-o", out);
    expect(n.status).not.toBe(0);
    expect(n.stderr).toContain("--events needs --time-field and --kind-field (or --mapping FILE)");
  }, 900_000);
});
