import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { readLedger } from "../../src/ledger/ledger-reader.js";
import { readResultsFile } from "../../src/run/results.js";
import { CACHE_DIR, freshRunsDir, REPO } from "../run/helpers.js";
import { call, DIGEST_3D, inProcess } from "./support.js";

/** Starts `relive mcp --http --port 0` and resolves with its URL (printed on stderr). */
function startHttp(args: string[]): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(process.execPath, [join(REPO, "bin/relive.js"), "mcp", "--http", "--port", "0", ...args], {
    cwd: REPO,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  return new Promise((resolve, reject) => {
    child.stderr!.on("data", (b: Buffer) => {
      err += b.toString();
      const m = /Streamable HTTP at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
      if (m) resolve({ child, url: m[1]!, stderr: () => err });
    });
    child.once("exit", (code) => reject(new Error(`relive mcp exited (${code}) before serving:\n${err}`)));
  });
}

describe("relive mcp --http (the official MCP SDK client over Streamable HTTP)", () => {
  it("bad arguments, unknown tools and task refusals get the in-process free rejections; finish ends the run; calls after it are refused", async () => {
    const cfgFile = join(mkdtempSync(join(tmpdir(), "relive-mcp-cfg-")), "run.json");
    writeFileSync(cfgFile, JSON.stringify(DIGEST_3D));
    const runs = freshRunsDir();
    const { child, url, stderr } = await startHttp([
      "-c",
      cfgFile,
      "--seed",
      "1",
      "--runs",
      runs,
      "--cache",
      CACHE_DIR,
      "-q",
    ]);
    const client = new Client({ name: "relive-test", version: "1.0.0" });
    const ref = inProcess(DIGEST_3D);
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(ref.docs().map((d) => d.name));

      ref.at("2026-03-01T00:00:00Z");
      const cases: [string, Record<string, unknown>][] = [
        ["digest", { root_ids: [] }], // bad arguments (schema)
        ["list_posts", { sort: "bogus" }], // bad arguments (enum)
        ["no_such_tool", {}], // unknown tool
        ["digest", { root_ids: ["x"] }], // valid, refused by the task: no window open at 00:00
        ["sleep", { until: "2026-02-01T00:00:00Z" }], // the clock tool refuses the past
        ["get_post", { id: "nope" }], // an unknown id: the view's error
      ];
      for (const [name, args] of cases) {
        const r = await call(client, name, args);
        const expected = await ref.text(name, args);
        expect(expected.startsWith("ERROR: ")).toBe(true);
        expect(r).toEqual({ isError: true, text: expected, clock: "now: 2026-03-01T00:00:00.000Z" });
      }
      const ok = await call(client, "digest_status", {});
      expect(ok.isError).toBe(false);
      expect(ok.text).toBe(await ref.text("digest_status", {}));

      const fin = await call(client, "finish", { summary: "enough for today" });
      expect(fin.isError).toBe(false);
      expect(fin.text).toBe('{"finished":true}');
      const runDir = /results in (.+)\/results\.json\)$/.exec(fin.clock)![1]!;
      expect(fin.clock).toMatch(/^\(the run ended at 2026-03-04T00:00:00\.000Z: you called finish; /);

      // calls after finish: the in-process agent's text for calls after finish, free and not ledgered
      for (const [name, args] of [
        ["digest_status", {}],
        ["no_such_tool", {}],
      ] as const) {
        expect(await call(client, name, args)).toEqual({
          isError: true,
          text: "ERROR: not run: the wake ended with finish",
          clock: "now: 2026-03-04T00:00:00.000Z",
        });
      }

      const res = readResultsFile(join(runDir, "results.json"));
      expect(res.flags).toMatchObject({ finished_early: true, external_idle_timeout: false });
      expect(res.resources.spent_usd).toBe(0);
      expect(res.resources.rejected_calls).toBe(cases.length);
      expect(res.resources.tool_calls).toBe(cases.length + 2);
      const ev = readLedger(join(runDir, "ledger.jsonl"));
      const calls = ev.flatMap((e) => (e.type === "tool_call" ? [e] : []));
      expect(calls.map((c) => [c.tool, c.status, c.cost_usd, c.t])).toEqual([
        ...cases.map(([n]) => [n, "rejected", 0, Date.parse("2026-03-01T00:00:00Z")]),
        ["digest_status", "ok", 0, Date.parse("2026-03-01T00:00:00Z")],
        ["finish", "ok", 0, Date.parse("2026-03-01T00:00:00Z")],
      ]);
      expect(ev.find((e) => e.type === "note")).toMatchObject({ kind: "finished_early", message: "enough for today" });
      expect(ev.at(-1)).toMatchObject({ type: "run_end", t: Date.parse("2026-03-04T00:00:00Z") });
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- relive mcp stderr ---\n${stderr()}`, { cause: err });
    } finally {
      ref.close();
      await client.close();
      child.kill();
    }
  }, 900_000);
});
