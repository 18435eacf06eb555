/**
 * P8 (spec/quality.md): start-up. Measured side by side in one run, alternating so load drifts hit
 * every command alike: bare `node -e ''`, `relive --help` and `relive tasks` through bin/relive.js
 * (the compiled dist/, built by `npm install` / `npm run build`), and a grid child process from
 * fork to ready (dist/run/grid/job-child-main.js). Targets: `relive --help` within 4× of bare node;
 * a grid child ready in < 1 s (medians).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isMain, median, writeResult } from "./stats.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const BIN = join(ROOT, "bin", "relive.js");

const timeMs = (args: string[]) => {
  const t0 = performance.now();
  execFileSync(process.execPath, args, { cwd: ROOT, stdio: "ignore" });
  return performance.now() - t0;
};

/** user + system CPU a live process has used so far, ms (Linux /proc; undefined elsewhere) */
function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined || !existsSync(`/proc/${pid}/stat`)) return undefined;
  // fields after the parenthesised command name: state is field 3, utime 14 and stime 15
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / CLOCK_TICKS;
}
/** the kernel's USER_HZ, 100 on every Linux build in practice */
const CLOCK_TICKS = 100;

async function childReady(): Promise<{ wall: number; cpu: number | undefined }> {
  const { JobChild } = (await import(
    pathToFileURL(join(ROOT, "dist", "run", "grid", "job-child.js")).href
  )) as typeof import("../src/run/grid/job-child.js");
  const t0 = performance.now();
  const child = new JobChild();
  await child.ready;
  const wall = performance.now() - t0;
  const cpu = processCpuMs(child.proc.pid);
  child.proc.kill();
  return { wall, cpu };
}

export async function run(o: { repeats?: number } = {}): Promise<void> {
  const repeats = o.repeats ?? 7;
  if (!existsSync(join(ROOT, "dist", "cli", "main.js")))
    throw new Error("P8 measures the compiled CLI: run `npm run build` first");
  execFileSync(process.execPath, [join(ROOT, "scripts", "build.mjs")], { stdio: "ignore" });
  const load = loadavg()[0]!;
  const s = { node: [] as number[], help: [] as number[], tasks: [] as number[], child: [] as number[] };
  // CPU time the child used to get ready: far less sensitive than wall time to a busy machine
  const childCpu: number[] = [];
  timeMs([BIN, "--help"]); // warm the file cache
  for (let i = 0; i < repeats; i++) {
    s.node.push(timeMs(["-e", ""]));
    s.help.push(timeMs([BIN, "--help"]));
    s.tasks.push(timeMs([BIN, "tasks"]));
    const c = await childReady();
    s.child.push(c.wall);
    if (c.cpu !== undefined) childCpu.push(c.cpu);
  }
  const med = { node: median(s.node), help: median(s.help), tasks: median(s.tasks), child: median(s.child) };
  const res = {
    repeats,
    load_average_1m: load,
    median_ms: med,
    child_ready_cpu_ms: childCpu.length ? median(childCpu) : null,
    help_over_node: med.help / med.node,
    tasks_over_node: med.tasks / med.node,
    targets: { help_over_node: 4, child_ready_ms: 1000 },
    met: { help: med.help / med.node <= 4, child: med.child < 1000 },
    samples_ms: s,
  };
  const path = writeResult("p8-startup", res);
  process.stdout.write(
    `P8 start-up (median of ${repeats}, load ${load.toFixed(2)}): node -e '' ${med.node.toFixed(0)} ms, ` +
      `relive --help ${med.help.toFixed(0)} ms (${res.help_over_node.toFixed(2)}×, target ≤ 4×), ` +
      `relive tasks ${med.tasks.toFixed(0)} ms (${res.tasks_over_node.toFixed(2)}×), ` +
      `grid child ready ${med.child.toFixed(0)} ms (target < 1000; CPU ${res.child_ready_cpu_ms?.toFixed(0) ?? "n/a"} ms) → ${path}\n`,
  );
}

if (isMain(import.meta.url)) await run();
