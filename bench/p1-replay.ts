/**
 * P1 (spec/quality.md): replay overhead of the kernel, tool runtime, wallet and durable ledger.
 * A scripted agent wakes hourly and makes 3 tool calls per wake (two priced reads and one
 * commitment) over a 28-day and a 365-day episode. Reports the median of several runs.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { scriptedAgentBody } from "../src/agent/scripted-agent.js";
import { DAY_MS, HOUR_MS } from "../src/common/time.js";
import { Kernel } from "../src/kernel/kernel.js";
import { SlidingWindowLimiter } from "../src/kernel/rate-limiter.js";
import { LedgerWriter } from "../src/ledger/ledger-writer.js";
import { Wallet } from "../src/ledger/wallet.js";
import { statelessPolicy } from "../src/tasks/reference-policy.js";
import { defineTool, ok } from "../src/tools/tool.js";
import { ToolRuntime } from "../src/tools/tool-runtime.js";
import { sleepTrigger } from "../src/triggers/sleep.js";
import { IntentSlot } from "../src/triggers/trigger.js";
import { isMain, median, writeResult } from "./stats.js";

const START = Date.parse("2026-03-01T00:00:00Z");

async function once(days: number): Promise<{ ms: number; events: number }> {
  const dir = mkdtempSync(join(tmpdir(), "relive-p1-"));
  const kernel = new Kernel({ start: START, end: START + days * DAY_MS });
  const ledger = LedgerWriter.create(join(dir, "ledger.jsonl"));
  const wallet = new Wallet({ budget_usd: 1e9, domain_caps: {} });
  ledger.subscribe((e) => wallet.apply(e));
  const runtime = new ToolRuntime({
    tools: [
      defineTool({
        name: "read",
        description: "a priced read",
        kind: "data",
        domain: "data",
        limiter: "api",
        price: () => 0.0001,
        args: z.object({ id: z.string() }),
        run: ({ id }, ctx) => ok({ id, at: ctx.now() }),
      }),
      defineTool({
        name: "commit",
        description: "a commitment",
        kind: "commit",
        args: z.object({ value: z.number() }),
        run: () => ok({ accepted: true }),
      }),
    ],
    limiters: { api: new SlidingWindowLimiter({ limit: 1000, windowMs: 600_000 }) },
    ledger,
    wallet,
    now: () => kernel.now(),
  });
  kernel.spawn(
    "agent",
    scriptedAgentBody({
      policy: statelessPolicy({
        name: "hourly",
        description: "3 calls per hourly wake",
        async act(api) {
          await api.call("read", { id: "a" });
          await api.call("read", { id: "b" });
          await api.call("commit", { value: api.now() });
        },
        nextWake: (now) => now + HOUR_MS,
      }),
      oracleEnv: null,
      trigger: sleepTrigger(new IntentSlot()),
      runtime,
      ledger,
    }),
  );
  const t0 = performance.now();
  await kernel.run();
  ledger.close();
  const ms = performance.now() - t0;
  const events = ledger.length;
  rmSync(dir, { recursive: true, force: true });
  return { ms, events };
}

export async function run(opts: { repeats?: number } = {}) {
  const repeats = opts.repeats ?? 5;
  const out: Record<string, unknown> = { id: "P1", what: "scripted agent, hourly wakes, 3 tool calls per wake" };
  for (const [days, target] of [
    [28, 1000],
    [365, 10000],
  ] as const) {
    const runs: number[] = [];
    let events = 0;
    for (let i = 0; i < repeats; i++) {
      const r = await once(days);
      runs.push(r.ms);
      events = r.events;
    }
    const med = median(runs);
    out[`${days}d`] = {
      median_ms: Math.round(med),
      runs_ms: runs.map(Math.round),
      ledger_events: events,
      target_ms: target,
      ratio_to_target: +(med / target).toFixed(3),
      met: med < target,
    };
    console.log(
      `P1 ${days} days: median ${med.toFixed(0)} ms over ${repeats} runs (${events} ledger events); target < ${target} ms → ${med < target ? "met" : "NOT met"}`,
    );
  }
  writeResult("p1-replay", out);
  return out;
}

if (isMain(import.meta.url)) await run();
