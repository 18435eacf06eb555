import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const REPO = resolve(import.meta.dirname, "../..");
const relive = (...args: string[]) =>
  spawnSync(process.execPath, [join(REPO, "bin/relive.js"), ...args], { encoding: "utf8", cwd: REPO });

// The README walkthrough's replay step ("Replay your own agent's logs"): a bare log, no run.
describe("relive replay-triggers --world", () => {
  it("imports the example log and replays policies over it with --cost-per-wake; refuses a missing cost", () => {
    const dir = mkdtempSync(join(tmpdir(), "relive-replay-cli-"));
    const world = join(dir, "worlds", "oncall");
    const common = ["--runs", join(dir, "runs"), "--cache", join(dir, "cache")];
    const imp = relive(
      "data",
      "import",
      "--events",
      "examples/event-log/oncall.jsonl",
      "--time-field",
      "ts",
      "--kind-field",
      "type",
      "--id-field",
      "id",
      "-o",
      world,
    );
    expect(imp.status, imp.stderr).toBe(0);
    const args = ["replay-triggers", "--world", world, "-p", "task_file=examples/event-log/task.yaml", ...common];
    const r = relive(
      ...args,
      "--trigger",
      "interval:15m",
      "--trigger",
      "interval:1h",
      "--cost-per-wake",
      "0.02",
      "--json",
    );
    expect(r.status, r.stderr).toBe(0);
    const rep = JSON.parse(r.stdout) as {
      run_dir: null;
      recorded: null;
      policies: { trigger: string; wakes: number; cost_usd: number; deadlines: number; deadlines_missed: number }[];
    };
    expect(rep.run_dir).toBeNull();
    expect(rep.recorded).toBeNull();
    expect(rep.policies.map((p) => [p.trigger, p.wakes, p.deadlines, p.deadlines_missed])).toEqual([
      ["interval:15m", 288, 20, 4],
      ["interval:1h", 72, 20, 14],
    ]);
    expect(rep.policies[0]!.cost_usd).toBeCloseTo(5.76, 12);
    const table = relive(...args, "--trigger", "interval:15m", "--cost-per-wake", "0.02");
    expect(table.stdout).toContain("interval:15m  288    $5.7600");
    const noCost = relive(...args, "--trigger", "interval:15m");
    expect(noCost.status).not.toBe(0);
    expect(noCost.stderr).toContain("give --cost-per-wake USD");
    const both = relive("replay-triggers", dir, "--world", world, "--trigger", "interval:1h", "--cost-per-wake", "1");
    expect(both.stderr).toContain("not both");
  }, 900_000);
});
