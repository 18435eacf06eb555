import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { readLedger } from "../../src/ledger/ledger-reader.js";
import { ResultsSchema, readResultsFile } from "../../src/run/results.js";
import { CACHE_DIR, freshRunsDir, options, REPO, run } from "../run/helpers.js";
import { call, comparable, DIGEST_3D, driveTopComments, inProcess } from "./support.js";

describe("relive mcp over stdio (the official MCP SDK client spawning the CLI)", () => {
  it("lists the run's tools with the in-process schemas; the top-comments calls give the scripted policy's results and ledger", async () => {
    const ref = await run({ ...DIGEST_3D, agent: { model: "scripted:top-comments" } }, options(freshRunsDir()));
    const runs = freshRunsDir();
    const cfgFile = join(mkdtempSync(join(tmpdir(), "relive-mcp-cfg-")), "run.json");
    writeFileSync(cfgFile, JSON.stringify(DIGEST_3D));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(REPO, "bin/relive.js"), "mcp", "-c", cfgFile, "--runs", runs, "--cache", CACHE_DIR, "-q"],
      cwd: REPO,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (b: Buffer) => {
      stderr += b.toString();
    });
    const client = new Client({ name: "relive-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      expect(client.getInstructions()).toContain("# Daily digest of Reddit posts");
      expect(client.getInstructions()).toContain("## How you run");

      const expected = inProcess(DIGEST_3D);
      const { tools } = await client.listTools();
      expect(tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }))).toEqual(
        expected.docs().map((d) => ({ name: d.name, description: d.description, inputSchema: d.parameters })),
      );
      expected.close();

      const clocks = await driveTopComments(client);
      // 12:30 on each of the 3 days, then the episode ends
      expect(clocks.map((c) => c.clock.split("\n")[0])).toEqual([
        "(woke at 2026-03-01T12:30:00.000Z for sleep)",
        "(woke at 2026-03-02T12:30:00.000Z for sleep)",
        "(woke at 2026-03-03T12:30:00.000Z for sleep)",
        expect.stringMatching(/^\(the run ended at 2026-03-04T00:00:00\.000Z: the episode is over; results in .+\)$/),
      ]);
      // the first wake of a day carries the daily cost brief
      expect(clocks[1]!.clock.split("\n")).toHaveLength(2);
      const runDir = /results in (.+)\/results\.json\)$/.exec(clocks[3]!.clock)![1]!;

      // every call after the end is a free rejection, not ledgered
      const after = await call(client, "digest_status", {});
      expect(after).toEqual({
        isError: true,
        text: "ERROR: not run: the run has ended (the episode is over)",
        clock: "now: 2026-03-04T00:00:00.000Z",
      });

      const res = readResultsFile(join(runDir, "results.json"));
      expect(ResultsSchema.safeParse(res).success).toBe(true);
      expect(res.agent).toBe("external:mcp");
      expect(res.harness).toBe("external:mcp");
      // an outside app's model is not known to relive: its knowledge cutoff cannot be checked (null)
      expect(res.flags).toEqual({
        ...ref.results.flags,
        external_idle_timeout: false,
        external_no_isolation: false,
        before_knowledge_cutoff: null,
      });
      expect(res.performance).toEqual(ref.results.performance);
      expect(res.performance.primary.value).toBeGreaterThan(0);
      expect(res.outcomes).toEqual(ref.results.outcomes);
      expect(res.resources.spent_usd).toBe(ref.results.resources.spent_usd);
      const cfg = JSON.parse(readFileSync(join(runDir, "config.json"), "utf8"));
      expect(cfg.resolved.harness).toBe("external:mcp");
      expect(cfg.config.agent.model).toBe("external:mcp");

      const mine = readLedger(join(runDir, "ledger.jsonl"));
      const theirs = readLedger(join(ref.runDir, "ledger.jsonl"));
      expect(comparable(mine)).toEqual(comparable(theirs));
      const commitments = (ev: typeof mine) => ev.filter((e) => e.type === "commitment");
      expect(commitments(mine)).toHaveLength(3);
      expect(mine.filter((e) => e.type === "tool_call" && e.tool === "sleep")).toHaveLength(4);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- relive mcp stderr ---\n${stderr}`, { cause: err });
    } finally {
      await client.close();
    }
  }, 900_000);

  it("a session whose stdin closes is finish: the run settles, results are written, nothing but protocol on stdout, exit 0", () => {
    const runs = freshRunsDir();
    const cfgFile = join(mkdtempSync(join(tmpdir(), "relive-mcp-cfg-")), "run.json");
    writeFileSync(cfgFile, JSON.stringify(DIGEST_3D));
    const p = spawnSync(
      process.execPath,
      [join(REPO, "bin/relive.js"), "mcp", "-c", cfgFile, "--runs", runs, "--cache", CACHE_DIR, "-q"],
      { cwd: REPO, input: "", encoding: "utf8" },
    );
    expect(p.stderr).toContain("results: ");
    expect(p.status).toBe(0);
    expect(p.stdout).toBe("");
    const dir = join(runs, "daily-digest", "external-mcp");
    const [only] = readdirSync(dir);
    const res = readResultsFile(join(dir, only!, "results.json"));
    expect(res.flags).toMatchObject({ finished_early: true, external_idle_timeout: false });
    expect(res.outcomes.map((o) => o.credit)).toEqual([0, 0]);
  }, 900_000);

  it("a bad configuration exits 2 naming the field, before anything is served", () => {
    const p = spawnSync(
      process.execPath,
      [join(REPO, "bin/relive.js"), "mcp", "-t", "no-such-task", "--runs", freshRunsDir()],
      {
        cwd: REPO,
        input: "",
        encoding: "utf8",
      },
    );
    expect(p.status).toBe(2);
    expect(p.stderr).toMatch(/error.*task: /);
    expect(p.stdout).toBe("");
  }, 900_000);
});
