import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Command } from "commander";
import { afterEach, describe, expect, it } from "vitest";
import { registerPullCommand } from "../../../src/cli/pull-command.js";
import { RAW_DIR as DEFAULT_RAW } from "../../run/helpers.js";
import { type ReplayServer, startReplayServer } from "./replay-server.js";

/**
 * `relive data pull` through the CLI (a child process) against a loopback server replaying the
 * real ForecastBench 2026-01-18 files; the EDGAR refusal needs no server at all.
 */
const REPO = resolve(import.meta.dirname, "../../..");
const RAW = process.env.RELIVE_RAW_DIR ?? DEFAULT_RAW;
const have = existsSync(join(RAW, "forecastbench"));
if (!have) console.warn(`skipping the pull CLI replay: ${RAW} not found`);

/** async spawn: the loopback server lives in this process and must keep answering */
function relive(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((ok) => {
    const p = spawn(process.execPath, [join(REPO, "bin/relive.js"), ...args], {
      cwd: REPO,
      env: { ...process.env, RELIVE_PULL_USER_AGENT: "", ...env },
    });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (d) => (stdout += d));
    p.stderr.on("data", (d) => (stderr += d));
    // the launcher's note that it runs the sources (a checkout edited since its last build) is not the command's output
    const launcherNote = /^relive: src\/ changed since the last build.*\n/m;
    p.on("close", (status) => ok({ status, stdout, stderr: stderr.replace(launcherNote, "") }));
  });
}

let server: ReplayServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe("relive data pull (CLI)", () => {
  it("edgar without a contact User-Agent exits 2 naming the rule; every source has a subcommand", async () => {
    const out = mkdtempSync(join(tmpdir(), "relive-pull-cli-"));
    const r = await relive([
      "data",
      "pull",
      "edgar",
      "--cik",
      "320193",
      "--out",
      out,
      "--base-url",
      "http://127.0.0.1:9",
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/the SEC requires a User-Agent naming you with a contact e-mail/);
    // every source is a subcommand with its own options (in-process: no second CLI start)
    const data = new Command("data");
    registerPullCommand(data);
    const pull = data.commands.find((c) => c.name() === "pull")!;
    expect(pull.commands.map((c) => c.name())).toEqual([
      "cc-news",
      "polymarket",
      "arctic-shift",
      "kraken",
      "binance",
      "okx",
      "kucoin",
      "edgar",
      "forecastbench",
    ]);
    const edgar = pull.commands.find((c) => c.name() === "edgar")!;
    expect(edgar.options.map((x) => x.long)).toEqual([
      "--out",
      "--base-url",
      "--rate",
      "--user-agent",
      "--refresh",
      "--quiet",
      "--cik",
      "--no-facts",
      "--no-pages",
    ]);
  }, 900_000);

  it.skipIf(!have)(
    "forecastbench: fetches into --out, a second run fetches nothing",
    async () => {
      server = await startReplayServer({
        "/datasets/question_sets/2026-01-18-llm.json": {
          body: readFileSync(join(RAW, "forecastbench/2026-01-18-llm.json")),
        },
        "/datasets/resolution_sets/2026-01-18_resolution_set.json": {
          body: readFileSync(join(RAW, "forecastbench/2026-01-18_resolution_set.json")),
        },
      });
      const out = mkdtempSync(join(tmpdir(), "relive-pull-cli-"));
      const args = ["data", "pull", "forecastbench", "--due", "2026-01-18", "--out", out, "--rate", "100"];
      const r = await relive(args, { RELIVE_PULL_FORECASTBENCH_URL: server.url });
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/pulled forecastbench into .*: 2 fetched \(1\.7 MB\), 0 already done, 0 not found/);
      const again = await relive(args, { RELIVE_PULL_FORECASTBENCH_URL: server.url });
      expect(again.stdout).toMatch(/0 fetched \(0\.0 MB\), 2 already done/);
      expect(server.requests).toHaveLength(2);
      // a failure names the URL and says the pull can be re-run
      const bad = await relive([
        "data",
        "pull",
        "forecastbench",
        "--due",
        "2031-01-05",
        "--out",
        out,
        "--base-url",
        server.url,
      ]);
      expect(bad.status).toBe(1);
      expect(bad.stderr).toMatch(
        /2031-01-05-llm\.json: 404 not found\n\(what is done is kept: run the same pull again to continue\)/,
      );
    },
    900_000,
  );
});
