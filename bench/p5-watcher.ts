/**
 * P5 (spec/quality.md): a watcher polling every 10 simulated minutes for 28 days (4,032 polls,
 * one cheap data tool call per poll through the ToolRuntime: validated, rate-limited, priced,
 * ledgered to a file) must finish in < 2 s; and (issue 18 §5) the sandbox's host glue per poll
 * must be within 3× of one tool call.
 *
 * Three figures per run, all on the same kernel, ToolRuntime, file ledger and wallet:
 * - **watcher**: the program below in the QuickJS sandbox (`runProgram`, the trigger's own path).
 * - **native**: the same loop written as host JavaScript (same tool calls, same waits through
 *   `actor.sleepUntil`); its ledger must be byte-identical to the watcher's (checked each run).
 * - **tool call**: the time spent inside `runtime.call` (the real runner path of a data tool
 *   call), summed over the native run's calls, per call.
 *
 * Host glue per poll = (watcher − native) / polls: everything the sandbox adds per poll — entering
 * the VM, marshalling the tool call's arguments and result and the wait across the boundary,
 * promise settlement, the budget/deadline/memory checks, reading the program's next request — plus
 * the program's own interpreted work (a handful of operations; not subtracted, so the figure is an
 * upper bound) and the program's one-off start (a fresh WebAssembly instance, spread over the
 * polls). Wall and CPU time (process.cpuUsage, user + system) are both reported; medians over the
 * timed runs (watcher and native interleaved), with the 1-minute load average before and after.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { DAY_MS } from "../src/common/time.js";
import { Kernel } from "../src/kernel/kernel.js";
import { SlidingWindowLimiter } from "../src/kernel/rate-limiter.js";
import { LedgerWriter } from "../src/ledger/ledger-writer.js";
import { Wallet } from "../src/ledger/wallet.js";
import { defineTool, ok } from "../src/tools/tool.js";
import { ToolRuntime } from "../src/tools/tool-runtime.js";
import { type ProgramEnd, runProgram } from "../src/triggers/watcher/run-program.js";
import { Workspace } from "../src/triggers/watcher/workspace.js";
import { isMain, median, writeResult } from "./stats.js";

const START = Date.parse("2026-03-01T00:00:00Z");
const DAYS = 28;
const EVERY_MIN = 10;
const TARGET_MS = 2000;
/** issue 18 §5: host glue per poll within this many tool calls */
const GLUE_TARGET_RATIO = 3;

const WATCHER = `
let polls = 0;
let last = null;
for (;;) {
  const q = await envkit.tools.quote({ symbol: "BTC-USD" });
  if (!q.ok) throw new Error(q.error);
  if (last !== null && Math.abs(q.value.px - last) / last > 0.5) envkit.handover({ polls, px: q.value.px });
  last = q.value.px;
  polls++;
  await envkit.wait(envkit.now() + ${EVERY_MIN} * 60 * 1000);
}
`;

type Mode = "watcher" | "native" | "bare";

interface Once {
  mode: Mode;
  wallMs: number;
  cpuMs: number;
  polls: number;
  calls: number;
  /** time spent inside runtime.call, summed */
  toolMs: number;
  ledgerSha: string;
  end: ProgramEnd | { kind: "native"; reason: string };
}

const cpuMs = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;

async function once(mode: Mode): Promise<Once> {
  const dir = mkdtempSync(join(tmpdir(), "relive-p5-"));
  const kernel = new Kernel({ start: START, end: START + DAYS * DAY_MS });
  const ledgerPath = join(dir, "ledger.jsonl");
  const ledger = LedgerWriter.create(ledgerPath);
  const wallet = new Wallet({ budget_usd: 1e9, domain_caps: {} });
  ledger.subscribe((e) => wallet.apply(e));
  const runtime = new ToolRuntime({
    tools: [
      defineTool({
        name: "quote",
        description: "a cheap priced read",
        kind: "data",
        domain: "data",
        limiter: "api",
        price: () => 0.00001,
        args: z.object({ symbol: z.string() }).strict(),
        run: (_args, ctx) => ok({ px: 100 + ((ctx.now() / 600_000) % 7) }),
      }),
    ],
    limiters: { api: new SlidingWindowLimiter({ limit: 1000, windowMs: 600_000 }) },
    ledger,
    wallet,
    now: () => kernel.now(),
  });
  let toolMs = 0;
  const quote = async (args: unknown) => {
    const t = performance.now();
    const r = await runtime.call("agent", "quote", args);
    toolMs += performance.now() - t;
    return r;
  };
  const workspace = new Workspace(join(dir, "ws"));
  let polls = 0;
  let end: Once["end"] | undefined;
  kernel.spawn("agent", async (actor) => {
    if (mode === "watcher") {
      end = await runProgram({
        source: WATCHER,
        path: "watcher.js",
        actor: {
          id: actor.id,
          now: () => actor.now(),
          waitForTrigger: () => actor.waitForTrigger(),
          sleepUntil: (t) => {
            polls++;
            return actor.sleepUntil(t);
          },
        },
        deadline: null,
        wrappers: { quote },
        workspace,
      });
      return;
    }
    // the same program as host JavaScript (bare: without its tool call)
    let last: number | null = null;
    for (;;) {
      const q = mode === "bare" ? ok({ px: 100 + ((actor.now() / 600_000) % 7) }) : await quote({ symbol: "BTC-USD" });
      if (!q.ok) throw new Error(q.error);
      const px = (q.value as { px: number }).px;
      if (last !== null && Math.abs(px - last) / last > 0.5) throw new Error("the native loop would hand over");
      last = px;
      polls++;
      const wake = await actor.sleepUntil(actor.now() + EVERY_MIN * 60 * 1000);
      if (wake.reason !== "sleep") {
        end = { kind: "native", reason: wake.reason };
        return;
      }
    }
  });
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await kernel.run();
  const wallMs = performance.now() - t0;
  const cpu = cpuMs(process.cpuUsage(c0));
  const calls = ledger.length;
  ledger.close();
  const ledgerSha = createHash("sha256").update(readFileSync(ledgerPath)).digest("hex");
  rmSync(dir, { recursive: true, force: true });
  if (end === undefined) throw new Error(`the ${mode} loop did not end`);
  return { mode, wallMs, cpuMs: cpu, polls, calls, toolMs, ledgerSha, end };
}

const us = (ms: number) => Math.round(ms * 1000 * 10) / 10;

export async function run(opts: { repeats?: number } = {}) {
  const repeats = Math.max(3, opts.repeats ?? 7);
  // warm-up: loads and compiles the QuickJS WebAssembly module, warms the JIT on every path
  for (const m of ["watcher", "native", "bare"] as const) await once(m);
  const load0 = loadavg()[0] as number;
  const watcher: Once[] = [];
  const native: Once[] = [];
  const bare: Once[] = [];
  for (let i = 0; i < repeats; i++) {
    watcher.push(await once("watcher"));
    native.push(await once("native"));
    bare.push(await once("bare"));
  }
  const load1 = loadavg()[0] as number;
  const w = watcher[0] as Once;
  for (const r of [...watcher, ...native, ...bare]) {
    if (r.polls !== w.polls) throw new Error(`runs differ: ${r.mode} made ${r.polls} polls, the watcher ${w.polls}`);
    if (r.mode === "bare") continue;
    if (r.calls !== w.calls) throw new Error(`runs differ: ${r.mode} made ${r.calls} calls, the watcher ${w.calls}`);
    if (r.ledgerSha !== w.ledgerSha)
      throw new Error(`the ${r.mode} run's ledger differs from the watcher's (${r.ledgerSha} vs ${w.ledgerSha})`);
  }
  const polls = w.polls;
  // per-poll differences of each triple of runs (watcher, native and bare run i), then their medians
  const per = (a: Once[], b: Once[], f: (x: Once) => number) => a.map((x, i) => (f(x) - f(b[i] as Once)) / polls);
  const wall = (x: Once) => x.wallMs;
  const cpu = (x: Once) => x.cpuMs;
  const glueWall = per(watcher, native, wall);
  const glueCpu = per(watcher, native, cpu);
  const toolWall = per(native, bare, wall);
  const toolCpu = per(native, bare, cpu);
  const toolInside = native.map((x) => x.toolMs / x.calls);
  const g = { wall: median(glueWall), cpu: median(glueCpu) };
  const t = { wall: median(toolWall), cpu: median(toolCpu), inside: median(toolInside) };
  const ratio = { wall: g.wall / t.wall, cpu: g.cpu / t.cpu };
  const glueMet = ratio.wall <= GLUE_TARGET_RATIO && ratio.cpu <= GLUE_TARGET_RATIO;
  const med = median(watcher.map(wall));
  const load = { before: +load0.toFixed(2), after: +load1.toFixed(2) };
  const runsOf = (xs: Once[]) => ({
    median_ms: Math.round(median(xs.map(wall))),
    runs_ms: xs.map((x) => Math.round(x.wallMs)),
    cpu_median_ms: Math.round(median(xs.map(cpu))),
    cpu_runs_ms: xs.map((x) => Math.round(x.cpuMs)),
  });
  const out = {
    id: "P5",
    what: `watcher polling every ${EVERY_MIN} simulated minutes for ${DAYS} days, one priced tool call per poll`,
    waits: polls,
    tool_calls: w.calls,
    end: w.end,
    runs: repeats,
    load_avg_1m: load,
    median_ms: Math.round(med),
    runs_ms: watcher.map((x) => Math.round(x.wallMs)),
    cpu_median_ms: Math.round(median(watcher.map(cpu))),
    target_ms: TARGET_MS,
    ratio_to_target: +(med / TARGET_MS).toFixed(3),
    met: med < TARGET_MS,
    native: {
      what: "the same loop as host JavaScript on the same kernel, ToolRuntime and ledger (ledger byte-identical to the watcher's)",
      ...runsOf(native),
    },
    bare: { what: "the native loop without its tool call (waits only)", ...runsOf(bare) },
    glue: {
      what: "host glue per poll: (watcher − native) / polls; includes the program's own interpreted work and its start-up",
      per_poll_us: us(g.wall),
      per_poll_cpu_us: us(g.cpu),
      runs_us: glueWall.map(us),
      runs_cpu_us: glueCpu.map(us),
    },
    tool_call: {
      what: "one tool call on the runner path (ToolRuntime: zod, rate limit, price, wallet, file ledger): (native − bare) / polls",
      per_call_us: us(t.wall),
      per_call_cpu_us: us(t.cpu),
      runs_us: toolWall.map(us),
      runs_cpu_us: toolCpu.map(us),
      inside_runtime_call_us: us(t.inside),
    },
    glue_to_tool_call: { wall: +ratio.wall.toFixed(2), cpu: +ratio.cpu.toFixed(2) },
    glue_target_ratio: GLUE_TARGET_RATIO,
    glue_met: glueMet,
  };
  console.log(
    `P5 watcher ${DAYS} days every ${EVERY_MIN} min: ${polls} waits, ${w.calls} ledgered calls, median ${med.toFixed(0)} ms wall (${out.cpu_median_ms} ms CPU) over ${repeats} runs; target < ${TARGET_MS} ms → ${med < TARGET_MS ? "met" : "NOT met"} (load ${load.before} → ${load.after})`,
  );
  console.log(
    `P5 host glue per poll ${us(g.wall)} µs wall / ${us(g.cpu)} µs CPU; one tool call ${us(t.wall)} µs wall / ${us(t.cpu)} µs CPU (${us(t.inside)} µs inside runtime.call); ratio ${ratio.wall.toFixed(2)}× wall, ${ratio.cpu.toFixed(2)}× CPU; target ≤ ${GLUE_TARGET_RATIO}× → ${glueMet ? "met" : "NOT met"}`,
  );
  writeResult("p5-watcher", out);
  return out;
}

if (isMain(import.meta.url)) await run();
