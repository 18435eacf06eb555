/**
 * P7 (spec/quality.md), the dashboard half: the first page of a run with 10^6 ledger events in
 * < 200 ms. Writes a run directory with a 10^6-line ledger directly (shapes of config.json and
 * results.json taken from a real 3-day run), then times, over loopback HTTP, the ledger viewer's
 * first page and the run page — cold (a fresh server: no index, no caches; the code paths warmed
 * on a small run first) and warm (cached index) — as medians of several requests, plus deeper
 * pages (middle, last, jump to a time, a type filter) and the timeline. RSS before and after.
 *
 * The memory half: RSS at simulated day 1 vs day 90 of a 90-day scripted daily-digest run
 * (sampled through the runner's onProgress hook, after a forced GC).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { parseRunConfig } from "../src/run/config.js";
import { runFromConfig } from "../src/run/runner.js";
import { ensureSynthWorld } from "../src/synth/synth-world.js";
import { LineIndexCache } from "../src/web/line-index.js";
import { startDashboard } from "../src/web/serve.js";
import { CACHE_DIR } from "../test/run/helpers.js";
import { writeBigRun } from "../test/web/big-run.js";
import { makeRealRun } from "../test/web/real-run.js";
import { isMain, median, writeResult } from "./stats.js";

const TARGET_MS = 200;
const mb = (b: number) => Math.round(b / 1e5) / 10;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

async function timed(url: string): Promise<{ ms: number; bytes: number; status: number }> {
  const t0 = performance.now();
  const res = await fetch(url);
  const body = await res.text();
  return { ms: performance.now() - t0, bytes: body.length, status: res.status };
}

async function expectOk(url: string) {
  const r = await timed(url);
  if (r.status !== 200) throw new Error(`${url}: HTTP ${r.status}`);
  return r;
}

interface Probe {
  name: string;
  path: string;
}

export async function run(opts: { events?: number; cold?: number; warm?: number; days90?: boolean } = {}) {
  const events = opts.events ?? 1_000_000;
  const coldN = opts.cold ?? 5;
  const warmN = opts.warm ?? 9;
  const dir = mkdtempSync(join(tmpdir(), "relive-p7-"));
  const runs = join(dir, "runs");
  const out: Record<string, unknown> = {
    id: "P7",
    what: "dashboard first page of a run with 10^6 ledger events (loopback HTTP, full body read); RSS over a 90-day run",
  };
  try {
    const real = await makeRealRun(runs);
    let t0 = performance.now();
    const big = writeBigRun(runs, { events, days: 28, template: real });
    const writeMs = performance.now() - t0;
    const ledgerBytes = statSync(join(big.runDir, "ledger.jsonl")).size;
    const bigId = `${big.runId}-s0`;
    const smallId = real.runDir.split("/").at(-1)!;
    out.ledger = { events: big.lines, bytes: ledgerBytes, write_ms: Math.round(writeMs) };
    console.log(`P7 wrote ${big.lines.toLocaleString()} events (${mb(ledgerBytes)} MB) in ${writeMs.toFixed(0)} ms`);

    // the sparse index alone (fresh cache each time)
    const indexMs: number[] = [];
    for (let i = 0; i < coldN; i++) {
      const cache = new LineIndexCache({ timed: true });
      t0 = performance.now();
      await cache.with(join(big.runDir, "ledger.jsonl"), () => undefined);
      indexMs.push(performance.now() - t0);
    }
    out.index_build_ms = { median: Math.round(median(indexMs)), runs: indexMs.map(Math.round) };
    console.log(`P7 sparse index build (1 entry per 1,000 lines): median ${median(indexMs).toFixed(0)} ms`);

    gc();
    const rssBefore = process.memoryUsage().rss;
    const probes: Probe[] = [
      { name: "ledger_first_page", path: `/runs/${bigId}/ledger` },
      { name: "run_page", path: `/runs/${bigId}` },
      { name: "runs_list", path: "/runs" },
      { name: "ledger_middle_page", path: `/runs/${bigId}/ledger?cursor=500000` },
      { name: "ledger_last_page", path: `/runs/${bigId}/ledger?before=${big.lines}` },
      { name: "ledger_jump_to_time", path: `/runs/${bigId}/ledger?at=2026-03-15T12:00:00Z` },
      { name: "ledger_filter_outcome", path: `/runs/${bigId}/ledger?type=outcome` },
      { name: "api_ledger_first_page", path: `/api/runs/${bigId}/ledger` },
      { name: "timeline_page", path: `/runs/${bigId}/timeline` },
    ];
    const cold: Record<string, number[]> = Object.fromEntries(probes.map((p) => [p.name, []]));
    const warm: Record<string, number[]> = Object.fromEntries(probes.map((p) => [p.name, []]));
    const bytes: Record<string, number> = {};
    for (let i = 0; i < coldN; i++) {
      for (const p of probes) {
        // a fresh server per probe and repetition: nothing of the big run is cached
        const server = await startDashboard({ runs: [runs], port: 0 });
        try {
          for (const warmup of [`/runs/${smallId}/ledger`, `/runs/${smallId}`, `/runs/${smallId}/timeline`, "/runs"])
            await expectOk(`${server.url.slice(0, -1)}${warmup}`);
          const r = await expectOk(`${server.url.slice(0, -1)}${p.path}`);
          cold[p.name]!.push(r.ms);
          bytes[p.name] = r.bytes;
          if (i === 0)
            for (let k = 0; k < warmN; k++)
              warm[p.name]!.push((await expectOk(`${server.url.slice(0, -1)}${p.path}`)).ms);
        } finally {
          await server.close();
        }
      }
    }
    gc();
    const rssAfter = process.memoryUsage().rss;
    const pages: Record<string, unknown> = {};
    for (const p of probes) {
      const c = median(cold[p.name]!);
      const w = median(warm[p.name]!);
      pages[p.name] = {
        path: p.path.replace(bigId, ":id"),
        cold_median_ms: Math.round(c),
        cold_runs_ms: cold[p.name]!.map(Math.round),
        warm_median_ms: Math.round(w * 10) / 10,
        warm_runs_ms: warm[p.name]!.map((v) => Math.round(v * 10) / 10),
        html_bytes: bytes[p.name],
      };
      console.log(
        `P7 ${p.name.padEnd(22)} cold median ${c.toFixed(0).padStart(5)} ms, warm median ${w.toFixed(1).padStart(6)} ms (${(bytes[p.name]! / 1024).toFixed(0)} KiB)`,
      );
    }
    out.pages = pages;
    const firstCold = median(cold.ledger_first_page!);
    const runCold = median(cold.run_page!);
    out.target_ms = TARGET_MS;
    out.first_page = {
      ledger_cold_ms: Math.round(firstCold),
      ledger_warm_ms: Math.round(median(warm.ledger_first_page!) * 10) / 10,
      run_page_cold_ms: Math.round(runCold),
      run_page_warm_ms: Math.round(median(warm.run_page!) * 10) / 10,
      ratio_to_target: +(Math.max(firstCold, runCold) / TARGET_MS).toFixed(3),
      met: firstCold < TARGET_MS && runCold < TARGET_MS,
    };
    out.rss_mb = { before: mb(rssBefore), after: mb(rssAfter), ledger_mb: mb(ledgerBytes) };
    console.log(
      `P7 first page cold: ledger ${firstCold.toFixed(0)} ms, run page ${runCold.toFixed(0)} ms; target < ${TARGET_MS} ms → ${firstCold < TARGET_MS && runCold < TARGET_MS ? "met" : "NOT met"}`,
    );
    console.log(
      `P7 RSS ${mb(rssBefore)} MB before serving, ${mb(rssAfter)} MB after ${coldN * probes.length} servers (ledger file ${mb(ledgerBytes)} MB)`,
    );

    if (opts.days90 ?? true) out.rss_90_days = await rss90(join(dir, "runs90"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(CACHE_DIR, { recursive: true, force: true });
  }
  writeResult("p7-dashboard", out);
  return out;
}

/**
 * RSS and heap (after a forced GC) at each simulated midnight of a 90-day scripted daily-digest
 * run. The synthetic world is built first in a child process, so the run's day-1 figure is not
 * inflated by the build's garbage.
 */
async function rss90(runsDir: string) {
  const START = "2026-03-01T00:00:00Z";
  const END = "2026-05-30T00:00:00Z";
  const cacheDir = join(runsDir, "cache");
  const tb = performance.now();
  // this file, run as a child with --build-world (see the bottom): the build's memory never enters this process
  execFileSync(
    process.execPath,
    [
      "--import",
      "tsx",
      fileURLToPath(import.meta.url),
      "--build-world",
      JSON.stringify({ dir: join(cacheDir, "synth"), start: START, end: END }),
    ],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  const buildMs = performance.now() - tb;
  const cfg = parseRunConfig({
    task: "daily-digest",
    sim_start: START,
    sim_end: END,
    agent: { model: "scripted:top-comments" },
  });
  const samples: { day: number; rss: number; heap: number }[] = [];
  const t0 = performance.now();
  const res = await runFromConfig(cfg, {
    runsDir,
    cacheDir,
    onProgress: (p) => {
      gc();
      const m = process.memoryUsage();
      samples.push({ day: p.day, rss: m.rss, heap: m.heapUsed });
    },
  });
  const ms = performance.now() - t0;
  const at = (d: number) => samples.find((s) => s.day === d)?.rss ?? Number.NaN;
  const first = at(1);
  const last = samples.at(-1)!;
  const heap1 = samples.find((s) => s.day === 1)?.heap ?? Number.NaN;
  const r = {
    task: "daily-digest",
    agent: "scripted:top-comments",
    days: samples.length + 1,
    world_build_ms: Math.round(buildMs),
    run_wall_ms: Math.round(ms),
    wakes: res.results.resources.wakes,
    tool_calls: res.results.resources.tool_calls,
    rss_mb: { day1: mb(first), day30: mb(at(30)), day60: mb(at(60)), [`day${last.day}`]: mb(last.rss) },
    growth_mb: mb(last.rss - first),
    ratio: +(last.rss / first).toFixed(3),
    heap_used_mb: { day1: mb(heap1), [`day${last.day}`]: mb(last.heap) },
    samples_mb: samples.map((s) => [s.day, mb(s.rss), mb(s.heap)]),
  };
  console.log(
    `P7 90-day daily-digest run: RSS ${mb(first)} MB at day 1, ${mb(at(30))} at day 30, ${mb(at(60))} at day 60, ${mb(last.rss)} at day ${last.day} (×${r.ratio}); heap ${mb(heap1)} → ${mb(last.heap)} MB; run ${(ms / 1000).toFixed(1)} s after a ${(buildMs / 1000).toFixed(1)} s world build`,
  );
  return r;
}

const buildArg = process.argv.indexOf("--build-world");
if (isMain(import.meta.url) && buildArg !== -1) {
  const o = JSON.parse(process.argv[buildArg + 1] ?? "{}") as { dir: string; start: string; end: string };
  ensureSynthWorld(o.dir, { seed: 1, start: Date.parse(o.start), end: Date.parse(o.end) });
  rmSync(CACHE_DIR, { recursive: true, force: true });
} else if (isMain(import.meta.url)) await run();
