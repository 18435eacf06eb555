import { afterAll, describe, expect, it } from "vitest";
import { anytimeCurve, dailyReportsByReplay, dailyReportsOnePass } from "../../src/run/anytime.js";
import type { RunConfigInput } from "../../src/run/config.js";
import { loadFinishedRun } from "../../src/run/rescore.js";
import { TruthStore } from "../../src/world/truth-store.js";
import { WorldStore } from "../../src/world/world-store.js";
import { options, run } from "./helpers.js";

/**
 * Every built-in task's scorer implements `reportAt`, and its one-pass daily reports equal the
 * per-day replay (a fresh scorer with sim_end = day end over the ledger prefix) exactly: every
 * metric, the primary's null-ness and the not_scorable list.
 */
const CASES: { task: string; cfg: Omit<RunConfigInput, "task"> }[] = [
  { task: "breakout-news", cfg: { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-04T00:00:00Z" } },
  { task: "resolution-detect", cfg: { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-05T00:00:00Z" } },
  { task: "popularity", cfg: { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-04T00:00:00Z" } },
  { task: "daily-digest", cfg: { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-06T00:00:00Z" } },
  { task: "price-check", cfg: { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-04T00:00:00Z" } },
  { task: "forecast-portfolio", cfg: { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-05T00:00:00Z" } },
  {
    task: "filing-tracker",
    cfg: { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-04T00:00:00Z", task_params: { portal_mode: "api" } },
  },
  { task: "broker-ops", cfg: { episode: "synth-5d", task_params: { site_mode: "api" } } },
  { task: "open-forecast", cfg: { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-04T00:00:00Z" } },
  { task: "risk-portfolio", cfg: { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-06T00:00:00Z" } },
];

const opened: { close(): void }[] = [];
afterAll(() => {
  for (const s of opened) s.close();
});

async function dailyReports(task: string, cfg: Omit<RunConfigInput, "task">) {
  const o = options();
  const { runDir, results } = await run({ task, ...cfg } as RunConfigInput, o);
  const { r, events } = await loadFinishedRun(runDir, o);
  const world = WorldStore.open(r.worldDir);
  const truth = TruthStore.open(r.worldDir);
  opened.push(world, truth);
  return {
    results,
    r,
    events,
    world,
    truth,
    onePass: dailyReportsOnePass(r, events, world, truth),
    replay: dailyReportsByReplay(r, events, world, truth),
  };
}

describe("one-pass anytime curve = per-day replay, on every built-in task", () => {
  for (const { task, cfg } of CASES) {
    it(`${task}: reportAt after one pass equals a fresh scorer per day`, async () => {
      const d = await dailyReports(task, cfg);
      expect(d.onePass, `${task} scorer has no reportAt`).not.toBeNull();
      expect(d.onePass).toEqual(d.replay);
      // the recorded curve is the one-pass curve, and the last day is the final report's primary
      const curve = anytimeCurve(d.r, d.events, d.world, d.truth);
      expect(d.results.timing.anytime).toEqual(curve);
      expect(curve.map((p) => p.primary)).toEqual(d.replay.map((x) => x.primary.value));
      expect(curve.at(-1)?.primary).toBe(d.results.performance.primary.value);
    }, 300_000);
  }
});
