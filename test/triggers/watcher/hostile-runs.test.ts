import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readLedger } from "../../../src/ledger/ledger-reader.js";
import { resumeRun } from "../../../src/run/runner.js";
import { runWithServer } from "../../agent/support/llm-run.js";
import { options, PRICE_3D } from "../../run/helpers.js";

/**
 * R3 end to end (issue 11): hostile watcher programs started by an LLM agent (the OpenAI test
 * server plays a fixed script) are each contained with a clear error, the agent wakes fail-open
 * after each, the run finishes, and a killed run resumes to the same ledger and results with no
 * model traffic (everything replays from its llm.jsonl).
 */

const PRICE = { task: "price-check", ...PRICE_3D, task_params: { symbols: ["BTC-USD"] } } as const;

const PROGRAMS: { path: string; source: string; error: RegExp }[] = [
  {
    // stopped by the step budget, then QuickJS aborts at release (list_empty(&rt->gc_obj_list))
    path: "async-rec.js",
    source: "async function f(n) { await null; return f(n + 1); }\nawait f(0);\n",
    error: /async-rec\.js failed: step budget exceeded: 20 interrupt polls/,
  },
  {
    path: "zero-wait.js",
    source: "for (;;) await envkit.wait(envkit.now());\n",
    error: /zero-wait\.js failed: step budget exceeded: .*without an envkit\.wait that moves time forward/,
  },
  {
    path: "zero-wait-calls.js",
    source:
      'for (;;) { await envkit.tools.http_fetch({ venue: "kraken", path: "/0/public/Time" }); await envkit.wait(envkit.now()); }\n',
    // under this run's step budget (20) the zero-advance waits stop it before the call cap (200) does
    error:
      /zero-wait-calls\.js failed: step budget exceeded: 20 interrupt polls .*without an envkit\.wait that moves time forward \(21 waits/,
  },
  {
    path: "typed-bomb.js",
    source: "const a = [];\nfor (;;) a.push(new Uint8Array(1e6));\n",
    error: /typed-bomb\.js failed: InternalError: out of memory \(memory cap 64 MB\)/,
  },
  {
    path: "tojson.js",
    source: "Object.prototype.toJSON = function () { return 'polluted'; };\nthrow new Error('boom');\n",
    error: /tojson\.js failed: Error: boom\n {4}at /,
  },
  {
    path: "proxy.js",
    source: "throw new Proxy({}, { getPrototypeOf() { throw 1; }, ownKeys() { throw 2; } });\n",
    error:
      /proxy\.js failed: uncaught exception: the program threw an object \(not an Error\): \(an object that could not be inspected, perhaps a Proxy\)/,
  },
];

describe("hostile watcher programs in a run (R3)", () => {
  it("each is contained with a clear error, the run finishes, and a killed run resumes identically", async () => {
    const steps: [string, unknown][] = [];
    for (const p of PROGRAMS) {
      steps.push(["write_file", { path: p.path, content: p.source }]);
      steps.push(["run_program", { path: p.path }]);
    }
    steps.push(["finish", { summary: "done" }]);
    let turn = 0;
    const cfg = {
      ...PRICE,
      sim_end: "2026-03-02T00:00:00Z",
      agent: { trigger: "watcher" as const, watcher: { step_budget: 20 } },
    };
    const live = await runWithServer(cfg, () => {
      const [name, args] = steps[Math.min(turn++, steps.length - 1)] as [string, unknown];
      return { kind: "tool_calls", calls: [{ name, arguments: JSON.stringify(args) }] };
    });
    const ev = readLedger(join(live.runDir, "ledger.jsonl"));
    const notes = ev.flatMap((e) => (e.type === "note" && e.kind === "program_error" ? [e.message] : []));
    expect(notes).toHaveLength(PROGRAMS.length);
    // the agent woke after each program with its error
    const markers = live.requests
      .map((r) => r.body.messages.at(-1))
      .filter((m: { role: string }) => m.role === "user")
      .map((m: { content: string }) => m.content)
      .join("\n");
    for (const p of PROGRAMS) expect(markers).toMatch(p.error);
    // the dispose abort was contained and noted, not fatal
    expect(ev.some((e) => e.type === "note" && e.kind === "sandbox_release_failed")).toBe(true);
    // the zero-advance waits bounded the billed calls of the zero-wait loop (one per wait)
    expect(ev.filter((e) => e.type === "tool_call" && e.tool === "http_fetch")).toHaveLength(21);
    expect(live.results.flags.finished_early).toBe(true);

    // a kill halfway, then resume with the server gone: everything replays from llm.jsonl
    const lines = readFileSync(join(live.runDir, "ledger.jsonl"), "utf8").trimEnd().split("\n");
    writeFileSync(join(live.runDir, "ledger.jsonl"), `${lines.slice(0, Math.floor(lines.length / 2)).join("\n")}\n`);
    rmSync(join(live.runDir, "results.json"));
    const again = await resumeRun(live.runDir, {
      ...options(),
      env: { OPENAI_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_API_KEY: "x" },
      retry: { maxAttempts: 1 },
    });
    expect(again.results).toEqual(live.results);
    expect(readFileSync(join(live.runDir, "ledger.jsonl"), "utf8")).toBe(`${lines.join("\n")}\n`);
  }, 900_000);
});
