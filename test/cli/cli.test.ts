import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { resultsJsonSchema } from "../../src/run/results.js";

const REPO = resolve(import.meta.dirname, "../..");
const relive = (...args: string[]) =>
  spawnSync(process.execPath, [join(REPO, "bin/relive.js"), ...args], { encoding: "utf8", cwd: REPO });

describe("relive CLI", () => {
  it("lists tasks with episodes, metrics and policies", () => {
    const r = relive("tasks", "--json");
    expect(r.status).toBe(0);
    const tasks = JSON.parse(r.stdout) as { id: string; metrics: { primary: string }; episodes: { name: string }[] }[];
    expect(tasks.map((t) => [t.id, t.metrics.primary])).toEqual([
      ["breakout-news", "cov_f1"],
      ["resolution-detect", "tc_f1"],
      ["popularity", "tw_f1"],
      ["daily-digest", "digest_acc"],
      ["price-check", "price_acc"],
      ["forecast-portfolio", "bss"],
      ["filing-tracker", "filing_score"],
      ["broker-ops", "routine_score"],
      ["open-forecast", "tw_score"],
      ["risk-portfolio", "risk_score"],
      ["event-response", "on_time_rate"],
    ]);
    const episodes = (id: string) => tasks.find((t) => t.id === id)!.episodes.map((e) => e.name);
    expect(episodes("price-check")).toContain("svb-2023");
    expect(episodes("risk-portfolio")).toContain("svb-2023");
    expect(episodes("filing-tracker")).toContain("tesla-2022");
  });

  it("documents every run option in --help", () => {
    const r = relive("run", "--help");
    expect(r.status).toBe(0);
    for (const flag of [
      "--task",
      "--episode",
      "--model",
      "--trigger",
      "--seed",
      "--world",
      "--budget",
      "--config",
      "--runs",
      "--cache",
      "--raw",
      "--json",
    ])
      expect(r.stdout).toContain(flag);
  });

  it("exits 2 with a message naming the field for a bad config", () => {
    const dir = mkdtempSync(join(tmpdir(), "relive-cli-"));
    writeFileSync(join(dir, "bad.yaml"), "task: daily-digest\nbudget_usd: -3\n");
    const r = relive("run", "-c", join(dir, "bad.yaml"), "--runs", join(dir, "runs"));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("budget_usd");
    expect(r.stderr).not.toContain("    at ");
  });

  it("says what to do when no task is given", () => {
    const r = relive("run");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("pass --task <id>");
  });

  it("publishes the results JSON Schema and keeps it current", () => {
    const published = JSON.parse(readFileSync(join(REPO, "schema/results.schema.json"), "utf8"));
    expect(published).toEqual(JSON.parse(JSON.stringify(resultsJsonSchema())));
    const dir = mkdtempSync(join(tmpdir(), "relive-cli-"));
    execFileSync(process.execPath, [join(REPO, "bin/relive.js"), "schema", "--out", join(dir, "s.json")]);
    expect(JSON.parse(readFileSync(join(dir, "s.json"), "utf8"))).toEqual(published);
  });
});
