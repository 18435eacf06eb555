/**
 * P6 (spec/quality.md): 100 scripted runs complete with 2 local workers; queue overhead < 50 ms
 * per job; throughput scales with workers.
 *
 * The grid: daily-digest (policies top-comments, top-comments-at-13-30) and price-check
 * (median-poll, silent) on windows of the synthetic world (`--days`, default 3 and 28 days from
 * 2026-03-01, one grid of each; 28 days is both tasks' default episode), 25 seeds each = 100 runs. Each runs on the local pool with 1 and
 * with 2 job processes, alternating, 3 times each (medians): wall time from the call to the last
 * result (job-process start-up included) and the running part alone (first job start to last job
 * end); and, as often, one job process runs the grid twice in a row: the difference of its CPU
 * between the first (cold) and second (warm) grid is what every job process pays to warm up
 * (V8 compiling the runner's hot code, first reads of the world), which a grid has to pay once per
 * worker. Then, when /usr/bin/redis-server exists, through the BullMQ
 * queue: jobs enqueued one at a time to an idle `relive worker` (in-process, with its job
 * process) to measure the time from enqueue to job start, and the same 100 runs with two workers.
 * Before each timed grid the bench flushes the previous grid's files (`sync`) and waits, up to
 * `--settle S` seconds (default 150; 0: no wait), for the 1-minute load average to fall below 1.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, Socket } from "node:net";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import Table from "cli-table3";
import { DAY_MS } from "../src/common/time.js";
import type { PreparedCell } from "../src/run/grid/prepare-cells.js";
import type { WorkerEvent } from "../src/run/grid/queue-worker.js";
import { isMain, median, quantile, writeResult } from "./stats.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const SOURCES = process.argv.includes("--sources");
/** a grid module, compiled (default) or from sources */
async function grid<T>(name: string): Promise<T> {
  const path = SOURCES
    ? join(ROOT, "src", "run", "grid", `${name}.ts`)
    : join(ROOT, "dist", "run", "grid", `${name}.js`);
  return (await import(pathToFileURL(path).href)) as T;
}
const { expandGrid } = await grid<typeof import("../src/run/grid/expand-grid.js")>("expand-grid");
const { parseGridConfig } = await grid<typeof import("../src/run/grid/grid-config.js")>("grid-config");
const { enqueueGrid } = await grid<typeof import("../src/run/grid/grid-queue.js")>("grid-queue");
const { runGridLocal } = await grid<typeof import("../src/run/grid/local-pool.js")>("local-pool");
const { prepareGridCells } = await grid<typeof import("../src/run/grid/prepare-cells.js")>("prepare-cells");
const { startQueueWorker } = await grid<typeof import("../src/run/grid/queue-worker.js")>("queue-worker");
const { JobChildPool } = await grid<typeof import("../src/run/grid/job-child.js")>("job-child");
const TARGET_SPEEDUP = 1.5;

const REDIS_SERVER = "/usr/bin/redis-server";
const SIM_START = "2026-03-01T00:00:00Z";
const DEFAULT_DAYS = [3, 28];
const TARGET_QUEUE_MS = 50;

const windowOf = (days: number) => ({
  sim_start: SIM_START,
  sim_end: new Date(Date.parse(SIM_START) + days * DAY_MS).toISOString(),
});

async function cellsOf(seeds: number, days: number, runsDir: string, cacheDir: string): Promise<PreparedCell[]> {
  const window = windowOf(days);
  const digest = parseGridConfig({
    base: { task: "daily-digest", ...window },
    axes: { models: ["scripted:top-comments", "scripted:top-comments-at-13-30"], seeds },
  });
  const price = parseGridConfig({
    base: { task: "price-check", ...window },
    axes: { models: ["scripted:median-poll", "scripted:silent"], seeds },
  });
  const raw = [...expandGrid(digest, "p6 digest"), ...expandGrid(price, "p6 price")].map((c, index) => ({
    ...c,
    index,
  }));
  return prepareGridCells(raw, { runsDir, cacheDir });
}

type Outcome = Awaited<ReturnType<typeof runGridLocal>>[number];
const groupBy = (out: Outcome[], key: (x: Outcome) => string, f: (x: Outcome) => number) =>
  out.reduce<Record<string, number[]>>((acc, x) => {
    const k = key(x);
    acc[k] = [...(acc[k] ?? []), f(x)];
    return acc;
  }, {});
const byTask = (out: Outcome[], f: (x: Outcome) => number) => groupBy(out, (x) => x.cell.config.task, f);

/**
 * CPU time (user + sys, ms, every thread) of this process's reaped child processes so far (Linux:
 * /proc/self/stat cutime + cstime; null elsewhere): the job processes' whole cost, start-up and
 * V8's background threads included, which a busy machine skews far less than wall time.
 */
function childrenCpuMs(): number | null {
  try {
    const f = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
    return ((Number(f[13]) + Number(f[14])) * 1000) / 100; // clock ticks of 10 ms (USER_HZ 100)
  } catch {
    return null;
  }
}

/**
 * Before a timed grid: the previous grid's files are flushed (`sync`: their writeback would compete)
 * and, up to `maxSeconds`, the 1-minute load average is let fall below 1 (the condition for
 * the speed-up; the load is mostly the bench's own previous grid). Returns the seconds waited.
 */
async function settle(maxSeconds: number): Promise<number> {
  const t0 = performance.now();
  execFileSync("sync");
  while (loadavg()[0]! >= 1 && performance.now() - t0 < maxSeconds * 1000)
    await new Promise((r) => setTimeout(r, 2000));
  return +((performance.now() - t0) / 1000).toFixed(1);
}

/** CPU time (user + sys, ms, every thread) of a live process so far (Linux /proc; null elsewhere) */
function processCpuMs(pid: number): number | null {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

/**
 * One job process runs the grid twice in a row (fresh run directories each time): its CPU (every
 * thread) and the wall time of each. The first grid's extra CPU is the process's warm-up.
 */
async function warmUp(seeds: number, days: number, cacheDir: string, settleSeconds: number) {
  const pool = new JobChildPool(1);
  try {
    await pool.warm();
    const pid = pool.pids[0]!;
    const grids = [];
    for (const pass of ["cold", "warm"]) {
      const runsDir = mkdtempSync(join(tmpdir(), `relive-p6-${pass}-`));
      const cells = await cellsOf(seeds, days, runsDir, cacheDir);
      if (settleSeconds > 0) await settle(settleSeconds);
      const cpu0 = processCpuMs(pid);
      const t0 = performance.now();
      await runGridLocal(cells, {
        workers: 1,
        retries: 0,
        run: { runsDir, cacheDir },
        runner: (cell, options, onLog) => pool.run(cell, options, onLog),
      });
      const wall = performance.now() - t0;
      const cpu1 = processCpuMs(pid);
      rmSync(runsDir, { recursive: true, force: true });
      grids.push({ wall_ms: wall, cpu_ms: cpu0 === null || cpu1 === null ? Number.NaN : cpu1 - cpu0 });
    }
    return { cold: grids[0]!, warm: grids[1]! };
  } finally {
    await pool.close();
  }
}

async function localPool(workers: number, seeds: number, days: number, cacheDir: string, settleSeconds: number) {
  const runsDir = mkdtempSync(join(tmpdir(), "relive-p6-runs-"));
  const cells = await cellsOf(seeds, days, runsDir, cacheDir);
  const settled = settleSeconds > 0 ? await settle(settleSeconds) : 0;
  let firstStart = 0;
  const load = +loadavg()[0]!.toFixed(2);
  const children0 = childrenCpuMs();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const out = await runGridLocal(cells, {
    workers,
    retries: 0,
    run: { runsDir, cacheDir },
    onEvent: (e) => {
      if (e.type === "start" && firstStart === 0) firstStart = performance.now();
    },
  });
  const end = performance.now();
  const parentCpu = process.cpuUsage(cpu0);
  // pool.close() has reaped the job processes: their CPU is in this process's children times now
  const children1 = childrenCpuMs();
  rmSync(runsDir, { recursive: true, force: true });
  const failed = out.filter((x) => x.status !== "done");
  if (failed.length) throw new Error(`P6: ${failed.length} runs did not finish: ${failed[0]!.error}`);
  return {
    /** 1-minute load average when this grid started */
    load_1m: load,
    /** seconds waited for the load to settle before it */
    settled_s: settled,
    wall_ms: end - t0,
    /** CPU of the job processes over their whole life (every thread), ms */
    job_processes_cpu_ms: children0 === null || children1 === null ? Number.NaN : children1 - children0,
    /** forking the job processes and loading the runner in them */
    startup_ms: firstStart - t0,
    /** from the first job's start to the last job's end */
    steady_ms: end - firstStart,
    runs: out.length,
    job_ms: out.map((x) => x.summary!.wall_ms),
    /** job wall times by task */
    job_ms_by_task: byTask(out, (x) => x.summary!.wall_ms),
    /** job CPU times (in the job process) by task */
    job_cpu_ms_by_task: byTask(out, (x) => x.summary!.cpu_ms ?? Number.NaN),
    /** job CPU times by task and policy */
    job_cpu_ms_by_model: groupBy(
      out,
      (x) => `${x.cell.config.task} ${x.cell.model}`,
      (x) => x.summary!.cpu_ms ?? Number.NaN,
    ),
    /** the coordinator's CPU (scheduling, IPC, events) from the call to the last result */
    parent_cpu_ms: (parentCpu.user + parentCpu.system) / 1000,
  };
}

/** per key, the median (1 decimal) over every repeat's values */
const medianBy = (maps: Record<string, number[]>[]) =>
  Object.fromEntries(Object.keys(maps[0] ?? {}).map((k) => [k, +median(maps.flatMap((m) => m[k] ?? [])).toFixed(1)]));

/** the median over `repeats` of each figure, worker counts interleaved against drifting machine load */
async function localPoolRepeated(
  seeds: number,
  days: number,
  cacheDir: string,
  repeats: number,
  settleSeconds: number,
) {
  const samples = new Map<number, Awaited<ReturnType<typeof localPool>>[]>([
    [1, []],
    [2, []],
  ]);
  const warmUps: Awaited<ReturnType<typeof warmUp>>[] = [];
  for (let i = 0; i < repeats; i++) {
    for (const w of i % 2 === 0 ? [1, 2] : [2, 1])
      samples.get(w)!.push(await localPool(w, seeds, days, cacheDir, settleSeconds));
    warmUps.push(await warmUp(seeds, days, cacheDir, settleSeconds));
  }
  const summary = (w: number) => {
    const xs = samples.get(w)!;
    const wall = median(xs.map((x) => x.wall_ms));
    const steady = median(xs.map((x) => x.steady_ms));
    const runs = xs[0]!.runs;
    return {
      workers: w,
      runs,
      repeats: xs.length,
      wall_ms: Math.round(wall),
      startup_ms: Math.round(median(xs.map((x) => x.startup_ms))),
      steady_ms: Math.round(steady),
      runs_per_s: +(runs / (wall / 1000)).toFixed(2),
      steady_runs_per_s: +(runs / (steady / 1000)).toFixed(2),
      median_job_ms: Math.round(median(xs.flatMap((x) => x.job_ms))),
      median_job_ms_by_task: Object.fromEntries(
        Object.keys(xs[0]!.job_ms_by_task).map((task) => [
          task,
          Math.round(median(xs.flatMap((x) => x.job_ms_by_task[task] ?? []))),
        ]),
      ),
      median_job_cpu_ms_by_task: medianBy(xs.map((x) => x.job_cpu_ms_by_task)),
      median_job_cpu_ms_by_model: medianBy(xs.map((x) => x.job_cpu_ms_by_model)),
      parent_cpu_ms: Math.round(median(xs.map((x) => x.parent_cpu_ms))),
      /** the job processes' CPU, start-up and background threads included (median), ms */
      job_processes_cpu_ms: Math.round(median(xs.map((x) => x.job_processes_cpu_ms))),
      /** the job processes' CPU summed over the jobs' own spans (median), ms */
      jobs_cpu_ms: Math.round(
        median(
          xs.map((x) =>
            Object.values(x.job_cpu_ms_by_task)
              .flat()
              .reduce((a, b) => a + b, 0),
          ),
        ),
      ),
      loads_1m: xs.map((x) => x.load_1m),
      settled_s: xs.map((x) => x.settled_s),
      parent_cpu_ms_per_job: +(median(xs.map((x) => x.parent_cpu_ms)) / runs).toFixed(2),
      walls_ms: xs.map((x) => Math.round(x.wall_ms)),
    };
  };
  const one = summary(1);
  const two = summary(2);
  const med = (f: (x: (typeof warmUps)[number]) => number) => Math.round(median(warmUps.map(f)));
  const speedup = +(one.wall_ms / two.wall_ms).toFixed(2);
  return {
    days,
    workers_1: one,
    workers_2: two,
    speedup_2_vs_1: speedup,
    steady_speedup_2_vs_1: +(one.steady_ms / two.steady_ms).toFixed(2),
    met: speedup >= TARGET_SPEEDUP,
    /** one job process, the grid twice in a row (medians): its CPU (every thread) and wall time each time */
    warm_up: {
      repeats: warmUps.length,
      cold_grid: { wall_ms: med((x) => x.cold.wall_ms), cpu_ms: med((x) => x.cold.cpu_ms) },
      warm_grid: { wall_ms: med((x) => x.warm.wall_ms), cpu_ms: med((x) => x.warm.cpu_ms) },
      /** what each job process pays to warm up: the cold grid's CPU less the warm one's */
      per_process_cpu_ms: med((x) => x.cold.cpu_ms - x.warm.cpu_ms),
    },
  };
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });

async function startRedis(): Promise<{ url: string; proc: ChildProcess }> {
  const port = await freePort();
  const proc = spawn(
    REDIS_SERVER,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    {
      stdio: "ignore",
    },
  );
  for (let i = 0; ; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = new Socket();
      s.once("error", () => resolve(false));
      s.connect(port, "127.0.0.1", () => s.write("PING\r\n"));
      s.once("data", (d) => {
        s.destroy();
        resolve(d.toString().startsWith("+PONG"));
      });
    });
    if (ok) break;
    if (i > 200) throw new Error("redis-server did not start");
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `redis://127.0.0.1:${port}`, proc };
}

async function queueBench(seeds: number, days: number, latencyJobs: number, cacheDir: string) {
  const { url, proc } = await startRedis();
  try {
    // 1. enqueue → start latency: one job at a time to an idle worker
    const runsDir = mkdtempSync(join(tmpdir(), "relive-p6-queue-"));
    const cells = (await cellsOf(Math.ceil(latencyJobs / 4), days, runsDir, cacheDir)).slice(0, latencyJobs);
    let onStart: ((e: Extract<WorkerEvent, { type: "start" }>) => void) | null = null;
    let onDone: (() => void) | null = null;
    const w = await startQueueWorker({
      url,
      name: "p6-latency",
      concurrency: 1,
      run: { runsDir, cacheDir },
      onEvent: (e) => {
        if (e.type === "start") onStart?.(e);
        if (e.type === "done") onDone?.();
        if (e.type === "failed") throw new Error(`P6 queue job failed: ${e.error}`);
      },
    });
    const latencies: number[] = [];
    for (const cell of cells) {
      const started = new Promise<number>((resolve) => {
        onStart = (e) => resolve(e.startedAt - e.enqueuedAt);
      });
      const done = new Promise<void>((resolve) => {
        onDone = resolve;
      });
      await enqueueGrid([cell], { url, name: "p6-latency" });
      latencies.push(await started);
      await done;
      await new Promise((r) => setTimeout(r, 20)); // the worker is idle (blocked on the queue) again
    }
    await w.close();
    rmSync(runsDir, { recursive: true, force: true });

    // 2. the 100 runs through the queue with two workers
    const runsDir2 = mkdtempSync(join(tmpdir(), "relive-p6-queue2-"));
    const all = await cellsOf(seeds, days, runsDir2, cacheDir);
    let finished = 0;
    let allDone: () => void = () => {};
    const everything = new Promise<void>((resolve) => {
      allDone = resolve;
    });
    const onEvent = (e: WorkerEvent) => {
      if (e.type === "done" && ++finished === all.length) allDone();
      if (e.type === "failed") throw new Error(`P6 queue job failed: ${e.error}`);
    };
    const workers = await Promise.all(
      [0, 1].map(() => startQueueWorker({ url, name: "p6-throughput", run: { runsDir: runsDir2, cacheDir }, onEvent })),
    );
    const t0 = performance.now();
    await enqueueGrid(all, { url, name: "p6-throughput" });
    await everything;
    const wall = performance.now() - t0;
    await Promise.all(workers.map((x) => x.close()));
    rmSync(runsDir2, { recursive: true, force: true });
    return {
      latency_jobs: latencies.length,
      enqueue_to_start_median_ms: +median(latencies).toFixed(1),
      enqueue_to_start_p90_ms: +quantile(latencies, 0.9).toFixed(1),
      enqueue_to_start_max_ms: +Math.max(...latencies).toFixed(1),
      target_ms: TARGET_QUEUE_MS,
      met: median(latencies) < TARGET_QUEUE_MS,
      two_workers: {
        runs: all.length,
        wall_ms: Math.round(wall),
        runs_per_s: +(all.length / (wall / 1000)).toFixed(2),
      },
    };
  } finally {
    proc.kill("SIGKILL");
  }
}

const CODE_CACHE_DIR = join(ROOT, "dist", "bundles", "code-cache");
const codeCaches = () =>
  existsSync(CODE_CACHE_DIR) ? readdirSync(CODE_CACHE_DIR).filter((f) => f.endsWith(".v8cache")) : [];

/**
 * Compiled job processes load the runner with a V8 code cache that the first processes of a build
 * write when they stop (src/run/grid/README.md): an untimed grid of one cell per policy writes it
 * when it is missing, so every timed grid starts alike (a first-ever grid of a build would
 * otherwise be the one slower 1-worker repeat). Returns what was found.
 */
async function warmCodeCache(seeds: number, days: number, cacheDir: string): Promise<string> {
  if (SOURCES) return "none (sources)";
  if (codeCaches().length > 0) return "present before the bench";
  const runsDir = mkdtempSync(join(tmpdir(), "relive-p6-warm-"));
  const cells = (await cellsOf(seeds, days, runsDir, cacheDir)).filter((_, i) => i % seeds === 0);
  await runGridLocal(cells, { workers: 1, retries: 0, run: { runsDir, cacheDir } });
  rmSync(runsDir, { recursive: true, force: true });
  return codeCaches().length > 0
    ? `written by an untimed ${cells.length}-cell grid`
    : "absent (dist/bundles not writable?)";
}

export async function run(
  opts: {
    seeds?: number;
    days?: number[];
    latencyJobs?: number;
    repeats?: number;
    queue?: boolean;
    settleSeconds?: number;
  } = {},
) {
  const seeds = opts.seeds ?? 25;
  const daysList = opts.days ?? DEFAULT_DAYS;
  if (daysList.length === 0 || daysList.some((d) => !Number.isInteger(d) || d < 1))
    throw new Error(`P6: --days takes whole numbers of days ≥ 1, got ${daysList.join(",")}`);
  const shortest = Math.min(...daysList);
  const settleSeconds = opts.settleSeconds ?? 150;
  const repeats = opts.repeats ?? 3;
  const latencyJobs = opts.latencyJobs ?? 40;
  const cacheDir = mkdtempSync(join(tmpdir(), "relive-p6-cache-"));
  const loadBefore = loadavg()[0]!;
  try {
    // build the worlds once, outside the timings
    for (const days of daysList) await cellsOf(seeds, days, join(cacheDir, "unused"), cacheDir);
    const codeCache = await warmCodeCache(seeds, shortest, cacheDir);
    const grids = [];
    for (const days of daysList) {
      const g = await localPoolRepeated(seeds, days, cacheDir, repeats, settleSeconds);
      const { workers_1: one, workers_2: two } = g;
      console.log(
        `P6 grid, ${days}-day windows: ${one.runs} runs (median of ${repeats}): 1 worker ${one.wall_ms} ms (${one.runs_per_s} runs/s; ${one.startup_ms} ms start-up + ${one.steady_ms} ms running), 2 workers ${two.wall_ms} ms (${two.runs_per_s} runs/s; ${two.startup_ms} + ${two.steady_ms} ms); speed-up ${g.speedup_2_vs_1}× overall (target ≥ ${TARGET_SPEEDUP}×: ${g.met ? "met" : "NOT met"}), ${g.steady_speedup_2_vs_1}× once started; median job ms by task (wall) ${JSON.stringify(two.median_job_ms_by_task)}, (CPU) ${JSON.stringify(two.median_job_cpu_ms_by_task)}; coordinator CPU ${one.parent_cpu_ms} / ${two.parent_cpu_ms} ms (1 / 2 workers)`,
      );
      console.log(
        `P6 ${days}-day job processes' CPU (every thread, start-up included; median): 1 worker ${one.job_processes_cpu_ms} ms (jobs alone ${one.jobs_cpu_ms}), 2 workers ${two.job_processes_cpu_ms} ms (jobs alone ${two.jobs_cpu_ms}); one job process, the grid twice: ${g.warm_up.cold_grid.cpu_ms} then ${g.warm_up.warm_grid.cpu_ms} ms CPU (${g.warm_up.cold_grid.wall_ms} then ${g.warm_up.warm_grid.wall_ms} ms wall): warm-up ${g.warm_up.per_process_cpu_ms} ms CPU per job process; median job CPU by task and policy, 1 worker ${JSON.stringify(one.median_job_cpu_ms_by_model)}, 2 workers ${JSON.stringify(two.median_job_cpu_ms_by_model)}; load at each grid's start: 1 worker ${one.loads_1m.join(", ")}, 2 workers ${two.loads_1m.join(", ")} (after waiting up to ${settleSeconds} s for it to fall below 1: ${[...one.settled_s, ...two.settled_s].join(", ")} s)`,
      );
      grids.push(g);
    }
    const queue =
      opts.queue === false
        ? { skipped: "--no-queue" }
        : existsSync(REDIS_SERVER)
          ? await queueBench(seeds, shortest, latencyJobs, cacheDir)
          : { skipped: `${REDIS_SERVER} not found` };
    const out = {
      id: "P6",
      what: `${grids[0]!.workers_1.runs} scripted runs (daily-digest and price-check, 2 policies each, ${seeds} seeds) on windows of ${daysList.join(" and ")} days, on the local pool with 1 and 2 job processes; queue overhead from enqueue to job start (${shortest}-day runs)`,
      cpus: availableParallelism(),
      code: SOURCES ? "sources (tsx)" : "compiled (dist/)",
      /** the job processes' V8 code cache (compiled runs) */
      code_cache: codeCache,
      /** 1-minute load average before and after (other processes on the machine skew wall times) */
      load_avg_1m: { before: +loadBefore.toFixed(2), after: +loadavg()[0]!.toFixed(2) },
      /** per window length (days) */
      local: Object.fromEntries(grids.map((g) => [String(g.days), g])),
      queue,
      met: {
        completes_with_2_workers: grids.every((g) => g.workers_2.runs === g.workers_1.runs),
        throughput_scales: grids.every((g) => g.steady_speedup_2_vs_1 > 1),
        /** per window length */
        speedup_at_least_1_5: Object.fromEntries(grids.map((g) => [String(g.days), g.met])),
        queue_overhead_under_50ms: "met" in queue ? queue.met : null,
      },
    };
    console.log(
      `P6 speed-up of 2 workers over 1 (100 runs, medians; code: ${out.code}, code cache: ${codeCache}, ${out.cpus} CPUs):`,
    );
    const t = new Table({
      head: [
        "window",
        "1 worker",
        "2 workers",
        "speed-up",
        "once started",
        "job CPU 1 / 2 workers",
        "warm-up per process",
        "≥ 1.5×",
      ],
      style: { head: [], border: [], compact: true },
    });
    t.push(
      ...grids.map((g) => [
        `${g.days} d`,
        `${g.workers_1.wall_ms} ms`,
        `${g.workers_2.wall_ms} ms`,
        `${g.speedup_2_vs_1}×`,
        `${g.steady_speedup_2_vs_1}×`,
        `${g.workers_1.job_processes_cpu_ms} / ${g.workers_2.job_processes_cpu_ms} ms`,
        `${g.warm_up.per_process_cpu_ms} ms CPU`,
        g.met ? "met" : "NOT met",
      ]),
    );
    console.log(t.toString());
    if ("met" in queue)
      console.log(
        `P6 queue: enqueue → start median ${queue.enqueue_to_start_median_ms} ms (p90 ${queue.enqueue_to_start_p90_ms} ms) over ${queue.latency_jobs} jobs; target < ${TARGET_QUEUE_MS} ms → ${queue.met ? "met" : "NOT met"}; ${queue.two_workers.runs} runs with 2 queue workers ${queue.two_workers.wall_ms} ms (${queue.two_workers.runs_per_s} runs/s)`,
      );
    else console.log(`P6 queue: skipped (${queue.skipped})`);
    writeResult("p6-grid", out);
    return out;
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const at = process.argv.indexOf("--repeats");
  const noQueue = process.argv.includes("--no-queue");
  const settleAt = process.argv.indexOf("--settle");
  const daysAt = process.argv.indexOf("--days");
  await run({
    ...(at > 0 ? { repeats: Number(process.argv[at + 1]) } : {}),
    ...(noQueue ? { queue: false } : {}),
    ...(settleAt > 0 ? { settleSeconds: Number(process.argv[settleAt + 1]) } : {}),
    ...(daysAt > 0 ? { days: (process.argv[daysAt + 1] ?? "").split(",").map(Number) } : {}),
  });
}
