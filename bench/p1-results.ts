/**
 * P1 (results phase, issue 18): the anytime curve of a scripted price-check run (the task's default
 * reference policy, hourly wakes) at 28 and 56 days of a stretched synthetic window, computed the
 * old way (a fresh scorer per day replaying the ledger prefix: quadratic) and in one pass
 * (`Scorer.reportAt`), side by side and alternating, with the truth lookups (`PriceTruth.at` calls)
 * each path makes. Both curves must be identical or the bench fails. The run itself (replay plus
 * the one-pass results phase, world already built) is timed once per length for scale. `--quick`:
 * 28 days only.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { DAY_MS } from "../src/common/time.js";
import { dailyReportsByReplay, dailyReportsOnePass } from "../src/run/anytime.js";
import { parseRunConfig } from "../src/run/config.js";
import { loadFinishedRun } from "../src/run/rescore.js";
import type { ResolvedRun } from "../src/run/resolve-run.js";
import { runFromConfig } from "../src/run/runner.js";
import { PriceTruth } from "../src/tasks/price-check/truth.js";
import { TruthStore } from "../src/world/truth-store.js";
import { WorldStore } from "../src/world/world-store.js";
import { isMain, median, writeResult } from "./stats.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const START = "2026-03-01T00:00:00Z";

/** counts PriceTruth.at calls while `f` runs */
function countingTruth<T>(f: () => T): { value: T; truth_calls: number } {
  const orig = PriceTruth.prototype.at;
  let calls = 0;
  PriceTruth.prototype.at = function (this: PriceTruth, ...a: Parameters<typeof orig>) {
    calls++;
    return orig.apply(this, a);
  };
  try {
    return { value: f(), truth_calls: calls };
  } finally {
    PriceTruth.prototype.at = orig;
  }
}

const timed = <T>(f: () => T) => {
  const t0 = performance.now();
  const value = f();
  return { value, ms: performance.now() - t0 };
};

async function one(days: number, repeats: number, cacheDir: string) {
  const runsDir = mkdtempSync(join(tmpdir(), "relive-p1-results-"));
  const warmDir = mkdtempSync(join(tmpdir(), "relive-p1-results-warm-"));
  try {
    const sim_end = new Date(Date.parse(START) + days * DAY_MS).toISOString();
    const cfg = parseRunConfig({ task: "price-check", sim_start: START, sim_end });
    const o = { runsDir, cacheDir };
    // builds (or finds) the world; in its own runs dir, since a finished run is never run again
    await runFromConfig(cfg, { runsDir: warmDir, cacheDir });
    const load = loadavg()[0]!;
    const t0 = performance.now();
    const { runDir } = await runFromConfig(cfg, o);
    const runMs = performance.now() - t0;
    const { r, events } = await loadFinishedRun(runDir, o);
    const world = WorldStore.open((r as ResolvedRun).worldDir);
    const truth = TruthStore.open((r as ResolvedRun).worldDir);
    try {
      const s = { replay: [] as number[], one_pass: [] as number[] };
      let calls = { replay: 0, one_pass: 0 };
      for (let i = 0; i < repeats; i++) {
        const a = timed(() => countingTruth(() => dailyReportsByReplay(r, events, world, truth)));
        const b = timed(() => countingTruth(() => dailyReportsOnePass(r, events, world, truth)));
        if (!b.value.value || !isDeepStrictEqual(a.value.value, b.value.value))
          throw new Error(`P1 results: the one-pass daily reports differ from the replay at ${days} days`);
        s.replay.push(a.ms);
        s.one_pass.push(b.ms);
        calls = { replay: a.value.truth_calls, one_pass: b.value.truth_calls };
      }
      const med = { replay: median(s.replay), one_pass: median(s.one_pass) };
      return {
        days,
        load_average_1m: load,
        ledger_events: events.length,
        run_ms: runMs,
        median_ms: med,
        speedup: med.replay / med.one_pass,
        one_pass_over_run: med.one_pass / runMs,
        truth_calls: calls,
        samples_ms: s,
      };
    } finally {
      world.close();
      truth.close();
    }
  } finally {
    rmSync(runsDir, { recursive: true, force: true });
    rmSync(warmDir, { recursive: true, force: true });
  }
}

export async function run(o: { repeats?: number; days?: number[] } = {}): Promise<void> {
  const repeats = o.repeats ?? 3;
  const lengths = o.days ?? [28, 56];
  const cacheDir = join(ROOT, ".relive-cache");
  const load_before = loadavg()[0]!;
  const rows = [];
  for (const d of lengths) rows.push(await one(d, repeats, cacheDir));
  const res = { task: "price-check", repeats, load_average_1m: { before: load_before, after: loadavg()[0]! }, rows };
  const path = writeResult("p1-results", res);
  for (const x of rows)
    process.stdout.write(
      `P1 results phase, price-check ${x.days} d (median of ${repeats}, load ${x.load_average_1m.toFixed(2)}): ` +
        `per-day replay ${x.median_ms.replay.toFixed(0)} ms (${x.truth_calls.replay} truth lookups), ` +
        `one pass ${x.median_ms.one_pass.toFixed(0)} ms (${x.truth_calls.one_pass}), ${x.speedup.toFixed(1)}×; ` +
        `whole run ${x.run_ms.toFixed(0)} ms\n`,
    );
  process.stdout.write(`→ ${path}\n`);
}

if (isMain(import.meta.url)) {
  const quick = process.argv.includes("--quick");
  await run(quick ? { days: [28] } : {});
}
