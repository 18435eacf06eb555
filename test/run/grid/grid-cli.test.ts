import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CACHE_DIR, freshRunsDir } from "../helpers.js";
import { relive } from "./cli-process.js";

const BASE = "base: { task: daily-digest, sim_start: 2026-03-01T00:00:00Z, sim_end: 2026-03-04T00:00:00Z }";

describe("relive grid (local pool) and relive grid status", () => {
  it("runs the cells on 2 workers, prints one row per cell, and status counts them done", async () => {
    const dir = mkdtempSync(join(tmpdir(), "relive-grid-cli-"));
    const file = join(dir, "grid.yaml");
    writeFileSync(file, `${BASE}\naxes: { models: [scripted:top-comments, scripted:silent], seeds: 2 }\n`);
    const runs = freshRunsDir();
    const loc = ["--runs", runs, "--cache", CACHE_DIR];
    const run = relive(["grid", file, "--workers", "2", ...loc]);
    expect(await run.exited).toBe(0);
    const out = run.lines.join("\n");
    expect(out).toMatch(/4 cells: done 4, cached 0, failed 0; spent \$0\.0014; runs in /);
    expect(
      run.lines.filter((l) => /models=scripted:top-comments seeds=\d .* done .* digest_acc 1 /.test(l)),
    ).toHaveLength(2);
    expect(run.lines.filter((l) => /models=scripted:silent seeds=\d .* done .* digest_acc 0 /.test(l))).toHaveLength(2);
    // not a terminal: one line per finished cell on stderr instead of a bar
    expect(run.stderr().match(/✓ \[\d\/4\]/g)).toHaveLength(4);

    const status = relive(["grid", "status", file, ...loc, "--json"]);
    expect(await status.exited).toBe(0);
    const s = JSON.parse(status.lines.join("\n")) as { counts: Record<string, number>; cells: { state: string }[] };
    expect(s.counts).toEqual({ done: 4, running: 0, waiting: 0, failed: 0, interrupted: 0, pending: 0 });
  });
});
