import { rmSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { readLedger } from "../../src/ledger/ledger-reader.js";
import { OutsideAgent } from "../../src/mcp/external-actor.js";
import { serveMcpHttp } from "../../src/mcp/http-server.js";
import { ConfigError, parseRunConfig } from "../../src/run/config.js";
import { runExternal } from "../../src/run/external-run.js";
import { rescoreRun } from "../../src/run/rescore.js";
import { resumeRun } from "../../src/run/runner.js";
import { freshRunsDir, options } from "../run/helpers.js";
import { call, DIGEST_3D, inProcess } from "./support.js";

const CFG = parseRunConfig({ ...DIGEST_3D, agent: { model: "external:mcp" } });

/** One outside-agent run in this process, served over Streamable HTTP on loopback. */
async function start(idleTimeoutMs: number, runsDir = freshRunsDir(), cfg = CFG) {
  const outside = new OutsideAgent({ idleTimeoutMs });
  const running = runExternal(cfg, { ...options(runsDir), externalActor: outside.actor }).then((res) => {
    outside.settle({ runDir: res.runDir, sim_end: Date.parse(res.results.sim_end) });
    return res;
  });
  await Promise.race([outside.ready, running]);
  const http = await serveMcpHttp(outside, { port: 0, version: "test" });
  const client = new Client({ name: "relive-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  return { outside, running, http, client, runsDir };
}

describe("how an outside agent's run ends", () => {
  it("the wall-clock idle timeout ends the run with a flag and a ledger note (never silently); the clock runs to sim_end", async () => {
    const { running, http, client } = await start(50);
    try {
      // however slow this machine is, the agent below never calls in time: the run ends by the timeout
      const res = await running;
      expect(res.results.flags.external_idle_timeout).toBe(true);
      expect(res.results.flags.finished_early).toBe(false);
      const ev = readLedger(join(res.runDir, "ledger.jsonl"));
      const note = ev.find((e) => e.type === "note");
      expect(note).toMatchObject({
        kind: "external_idle_timeout",
        actor: "agent",
        t: Date.parse("2026-03-01T00:00:00Z"),
      });
      expect(ev.at(-1)).toMatchObject({ type: "run_end", t: Date.parse("2026-03-04T00:00:00Z") });
      // the two scored days settle (no digest: 0)
      expect(res.results.outcomes.map((o) => o.credit)).toEqual([0, 0]);
      expect(await call(client, "digest_status", {})).toEqual({
        isError: true,
        text: "ERROR: not run: the run has ended (no request within the idle timeout)",
        clock: "now: 2026-03-04T00:00:00.000Z",
      });
      // the ledger alone rebuilds the results (rescore), flag included
      const again = await rescoreRun(res.runDir, options());
      expect(again.diffs).toEqual([]);
      expect(again.results).toEqual(res.results);
      // the tools are still listed
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("sleep");
    } finally {
      await client.close();
      await http.close();
    }
  }, 900_000);

  it("a session that closes is finish: noted, finished_early, outcomes settle", async () => {
    const { outside, running, http, client } = await start(600_000);
    try {
      const s = await call(client, "sleep", { until: "2026-03-02T06:00:00Z" });
      expect(s.clock.split("\n")[0]).toBe("(woke at 2026-03-02T06:00:00.000Z for sleep)");
      const st = await call(client, "digest_status", {});
      expect(st.clock).toBe("now: 2026-03-02T06:00:00.000Z");
      outside.close();
      const res = await running;
      expect(res.results.flags).toMatchObject({ finished_early: true, external_idle_timeout: false });
      const ev = readLedger(join(res.runDir, "ledger.jsonl"));
      expect(ev.filter((e) => e.type === "note")).toEqual([
        expect.objectContaining({
          kind: "finished_early",
          t: Date.parse("2026-03-02T06:00:00Z"),
          message: "the MCP session closed without finish: treated as finish",
        }),
      ]);
      expect(ev.filter((e) => e.type === "wake").map((e) => [e.t, e.type === "wake" && e.reason])).toEqual([
        [Date.parse("2026-03-01T00:00:00Z"), "start"],
        [Date.parse("2026-03-02T06:00:00Z"), "sleep"],
      ]);
      expect(res.results.outcomes).toHaveLength(2);
    } finally {
      await client.close();
      await http.close();
    }
  }, 900_000);

  it("outside-agent runs are not resumable: a finished one is refused, an interrupted one restarts from the beginning", async () => {
    const { running, http, client, runsDir } = await start(600_000);
    await call(client, "finish", { summary: "done" });
    const res = await running;
    await client.close();
    await http.close();
    const again = () => new OutsideAgent({ idleTimeoutMs: 50 });
    await expect(runExternal(CFG, { ...options(runsDir), externalActor: again().actor })).rejects.toThrow(
      /already holds a finished run of this config: pass another --seed/,
    );
    // interrupted (no results.json): resume refuses, a new relive mcp starts it again and says so
    rmSync(join(res.runDir, "results.json"));
    await expect(resumeRun(res.runDir, options(runsDir))).rejects.toThrow(
      /is an outside agent: start its run with `relive mcp` \(outside-agent runs cannot be resumed\)/,
    );
    const logs: string[] = [];
    const restarted = await runExternal(CFG, {
      ...options(runsDir),
      log: (m) => logs.push(m),
      externalActor: again().actor,
    });
    expect(restarted.runDir).toBe(res.runDir);
    expect(logs).toContain(
      `${res.runDir}: an interrupted outside-agent run (not resumable): starting it again from the beginning`,
    );
    const ev = readLedger(join(res.runDir, "ledger.jsonl"));
    expect(ev.filter((e) => e.type === "note").map((e) => e.type === "note" && e.kind)).toEqual([
      "external_idle_timeout",
    ]);
    await expect(
      runExternal(parseRunConfig({ ...DIGEST_3D }), { ...options(runsDir), externalActor: again().actor }),
    ).rejects.toThrow(ConfigError);
  }, 900_000);

  it("a task's own clock tool (open-forecast's next_day) moves the clock for the outside agent too", async () => {
    const cfg = parseRunConfig({
      task: "open-forecast",
      sim_start: "2026-03-01T00:00:00Z",
      sim_end: "2026-03-03T00:00:00Z",
      agent: { model: "external:mcp" },
    });
    const { running, http, client } = await start(600_000, freshRunsDir(), cfg);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("next_day");
      const r = await call(client, "next_day", {});
      expect(r.isError).toBe(false);
      expect(r.clock.split("\n")[0]).toBe("(woke at 2026-03-02T00:00:00.000Z for sleep)");
      await call(client, "finish", { summary: "done" });
      const res = await running;
      const ev = readLedger(join(res.runDir, "ledger.jsonl"));
      expect(ev.find((e) => e.type === "wait")).toMatchObject({
        tool: "next_day",
        until: Date.parse("2026-03-02T00:00:00Z"),
      });
    } finally {
      await client.close();
      await http.close();
    }
  }, 900_000);

  for (const [what, extra, status] of [
    ["rate limits", { task_params: { reddit_call_usd: 0.01, reddit_rate_limit: 1 } }, "rate_limited"],
    ["the wallet", { budget_usd: 0.01, task_params: { reddit_call_usd: 0.01 } }, "unpaid"],
  ] as const)
    it(`prices and ${what} are the runtime's: the same calls give the in-process refusal (${status}, free)`, async () => {
      const input = { ...DIGEST_3D, ...extra };
      const { running, http, client } = await start(
        600_000,
        freshRunsDir(),
        parseRunConfig({ ...input, agent: { model: "external:mcp" } }),
      );
      const ref = inProcess(input);
      try {
        const args = { since: "2026-02-28T00:00:00Z", until: "2026-03-01T00:00:00Z" };
        const texts = [];
        for (let i = 0; i < 2; i++) {
          const r = await call(client, "list_posts", args);
          expect(r.text).toBe(await ref.text("list_posts", args));
          texts.push(r);
        }
        expect(texts.map((t) => t.isError)).toEqual([false, true]);
        await call(client, "finish", { summary: "done" });
        const res = await running;
        const calls = readLedger(join(res.runDir, "ledger.jsonl")).flatMap((e) =>
          e.type === "tool_call" && e.tool === "list_posts" ? [[e.status, e.cost_usd]] : [],
        );
        expect(calls).toEqual([
          ["ok", 0.01],
          [status, 0],
        ]);
        expect(res.results.resources.spent_usd).toBeCloseTo(0.01, 12);
      } finally {
        ref.close();
        await client.close();
        await http.close();
      }
    }, 900_000);
});
