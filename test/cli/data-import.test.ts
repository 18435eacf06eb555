import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const REPO = resolve(import.meta.dirname, "../..");
const relive = (...args: string[]) =>
  spawnSync(process.execPath, [join(REPO, "bin/relive.js"), ...args], { encoding: "utf8", cwd: REPO });

describe("relive data import", () => {
  const dir = mkdtempSync(join(tmpdir(), "cli-import-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("documents every source kind and its options in --help", () => {
    const r = relive("data", "import", "--help");
    expect(r.status).toBe(0);
    for (const flag of [
      "--warc",
      "--near-dup",
      "--polymarket",
      "--clob",
      "--bp",
      "--price-delay-min",
      "--reddit",
      "--klines",
      "--symbol",
      "--bar",
      "--resample-min",
      "--out",
    ])
      expect(r.stdout).toContain(flag);
  }, 900_000);

  it("imports, listing each rejected row with file:line and reason, and exits 0", () => {
    const f = join(dir, "dump.ndjson");
    writeFileSync(
      f,
      `${JSON.stringify({ id: "p1", subreddit: "s", author: "a", created_utc: 1700000000, title: "t", selftext: "" })}\n{oops\n`,
    );
    const r = relive("data", "import", "--reddit", f, "-o", join(dir, "w"));
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("imported 1 post/comment row(s) of 2 read");
    expect(r.stdout).toContain(`${f}:2: invalid JSON`);
    expect(existsSync(join(dir, "w", "world.json"))).toBe(true);
  }, 900_000);

  it("exits 1 and writes no world when every row is rejected", () => {
    const f = join(dir, "bad.ndjson");
    writeFileSync(f, "{oops\n");
    const r = relive("data", "import", "--reddit", f, "-o", join(dir, "none"));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("nothing to import: every one of the 1 source row(s) was rejected");
    expect(r.stdout).toContain(`${f}:1: invalid JSON`);
    expect(existsSync(join(dir, "none"))).toBe(false);
  }, 900_000);

  it("refuses two source kinds at once", () => {
    const r = relive("data", "import", "--reddit", "--warc", "x", "-o", join(dir, "two"));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("one source kind per import: got --warc and --reddit");
  }, 900_000);
});
