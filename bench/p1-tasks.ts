/**
 * P1 on the real runner (issue 18 §2, spec/quality.md P1): every built-in task's default scripted
 * reference policy through `runFromConfig` (kernel, task tools, limiters, durable ledger,
 * settlement, daily briefs, results with the one-pass anytime curve) on a synthetic window
 * stretched to 28 and 365 days. The world build is timed once per window and reported apart (the
 * target is for a built world); process start-up is P8's. Browser tasks run in API mode
 * (broker-ops `site_mode: api`, filing-tracker `portal_mode: api`): Chromium's cost is not the
 * runner's. event-response needs an imported event log (`--world`), so it is left out and said so.
 * The bare-kernel floor is P1 (p1-replay.ts). Targets: 28 days < 2 s, 365 days < 20 s on 2 cores.
 * `--quick`: 28 days only, one repeat. `--tasks a,b`, `--days 28,365`, `--repeats N` narrow the
 * run; `--cache-dir DIR` keeps the built worlds between invocations (a memory measurement under
 * `/usr/bin/time -v` then sees no world build). The machine is shared, so beside each wall time the
 * bench reports the process CPU time of the run (user + sys, `process.cpuUsage`), the 1-minute load
 * average and the process's peak RSS so far.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { DAY_MS } from "../src/common/time.js";
import { parseRunConfig } from "../src/run/config.js";
import { runFromConfig } from "../src/run/runner.js";
import { TASKS } from "../src/tasks/registry.js";
import { isMain, median, writeResult } from "./stats.js";

const START = Date.parse("2026-03-01T00:00:00Z");
const TARGET_MS: Record<number, number> = { 28: 2_000, 365: 20_000 };
/** tasks a synthetic world cannot serve, with why */
const LEFT_OUT: Record<string, string> = {
  "event-response": "needs an imported event log (--world); the synthetic world has no event stream",
};
/** browser tasks in API mode */
const API_MODE: Record<string, Record<string, string>> = {
  "broker-ops": { site_mode: "api" },
  "filing-tracker": { portal_mode: "api" },
};

const load1 = () => +loadavg()[0]!.toFixed(2);

async function timeRun(task: string, days: number, cacheDir: string) {
  const runsDir = mkdtempSync(join(tmpdir(), "relive-p1-tasks-"));
  try {
    const cfg = parseRunConfig({
      task,
      sim_start: new Date(START).toISOString(),
      sim_end: new Date(START + days * DAY_MS).toISOString(),
      ...(API_MODE[task] ? { task_params: API_MODE[task] } : {}),
    });
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const { results } = await runFromConfig(cfg, { runsDir, cacheDir });
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    return { ms, cpuMs: (c.user + c.system) / 1000, primary: results.performance.primary.value };
  } finally {
    rmSync(runsDir, { recursive: true, force: true });
  }
}

const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

export interface P1TasksOptions {
  days?: number[];
  repeats?: number;
  /** task ids (default: every built-in task the synthetic world serves) */
  tasks?: string[];
  /** a kept cache directory (default: a fresh temporary one, removed afterwards) */
  cacheDir?: string;
  /** result file name under bench/results (default p1-tasks) */
  name?: string;
}

export async function run(opts: P1TasksOptions = {}) {
  const days = opts.days ?? [28, 365];
  const repeats = opts.repeats ?? 3;
  const tasks = TASKS.filter((t) => !LEFT_OUT[t.id] && (!opts.tasks || opts.tasks.includes(t.id)));
  if (opts.tasks)
    for (const id of opts.tasks)
      if (!tasks.some((t) => t.id === id)) throw new Error(`p1-tasks: unknown or left-out task ${JSON.stringify(id)}`);
  const keepCache = opts.cacheDir !== undefined;
  if (opts.cacheDir) mkdirSync(opts.cacheDir, { recursive: true });
  const cacheDir = opts.cacheDir ?? mkdtempSync(join(tmpdir(), "relive-p1-tasks-cache-"));
  const out: Record<string, unknown> = {
    id: "P1-tasks",
    what: "each task's default scripted policy on the real runner, synthetic window stretched; world built once per window",
    repeats,
    left_out: LEFT_OUT,
    api_mode: API_MODE,
  };
  try {
    for (const d of days) {
      const perTask: Record<string, unknown> = {};
      // the first task's first run builds the window's world: timed apart, then every task reuses it
      const buildLoad = load1();
      const tb = performance.now();
      const first = tasks[0]!.id;
      await timeRun(first, d, cacheDir);
      const worldAndFirstRunMs = performance.now() - tb;
      for (const t of tasks) {
        const loadBefore = load1();
        const runs: number[] = [];
        const cpu: number[] = [];
        let primary: number | null = null;
        for (let i = 0; i < repeats; i++) {
          const r = await timeRun(t.id, d, cacheDir);
          runs.push(r.ms);
          cpu.push(r.cpuMs);
          primary = r.primary;
        }
        const med = median(runs);
        const medCpu = median(cpu);
        perTask[t.id] = {
          median_ms: Math.round(med),
          runs_ms: runs.map(Math.round),
          median_cpu_ms: Math.round(medCpu),
          cpu_ms: cpu.map(Math.round),
          cpu_met: TARGET_MS[d] ? medCpu < TARGET_MS[d]! : null,
          peak_rss_mb_so_far: peakRssMb(),
          primary,
          target_ms: TARGET_MS[d],
          ratio_to_target: TARGET_MS[d] ? +(med / TARGET_MS[d]!).toFixed(3) : null,
          met: TARGET_MS[d] ? med < TARGET_MS[d]! : null,
          load_avg_1m: { before: loadBefore, after: load1() },
        };
        console.log(
          `P1 tasks ${d} d ${t.id.padEnd(18)} median ${med.toFixed(0).padStart(6)} ms wall, ${medCpu.toFixed(0).padStart(6)} ms CPU over ${repeats} (target < ${TARGET_MS[d]} ms: wall ${med < TARGET_MS[d]! ? "met" : "NOT met"}, CPU ${medCpu < TARGET_MS[d]! ? "met" : "NOT met"}; load ${loadBefore})`,
        );
      }
      out[`${d}d`] = {
        world_build_plus_first_run_ms: Math.round(worldAndFirstRunMs),
        load_avg_1m_during_build: buildLoad,
        tasks: perTask,
      };
      console.log(`P1 tasks ${d} d: world build + first run ${Math.round(worldAndFirstRunMs)} ms (load ${buildLoad})`);
    }
  } finally {
    if (!keepCache) rmSync(cacheDir, { recursive: true, force: true });
  }
  out.peak_rss_mb = peakRssMb();
  writeResult(opts.name ?? "p1-tasks", out);
  return out;
}

if (isMain(import.meta.url)) {
  const argv = process.argv.slice(2);
  const flag = (name: string) => {
    const i = argv.indexOf(name);
    if (i < 0) return undefined;
    const v = argv[i + 1];
    if (v === undefined || v.startsWith("--")) throw new Error(`p1-tasks: ${name} needs a value`);
    return v;
  };
  const list = (name: string) => flag(name)?.split(",");
  const ints = (name: string) =>
    list(name)?.map((x) => {
      const n = Number(x);
      if (!Number.isInteger(n) || n <= 0) throw new Error(`p1-tasks: ${name}: not a positive integer: ${x}`);
      return n;
    });
  const quick = argv.includes("--quick");
  const tasks = list("--tasks");
  const cacheDir = flag("--cache-dir");
  const name = flag("--name");
  await run({
    days: ints("--days") ?? (quick ? [28] : undefined),
    repeats: ints("--repeats")?.[0] ?? (quick ? 1 : undefined),
    ...(tasks ? { tasks } : {}),
    ...(cacheDir ? { cacheDir } : {}),
    ...(name ? { name } : {}),
  });
}
