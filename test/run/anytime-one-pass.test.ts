import { afterAll, describe, expect, it } from "vitest";
import type { LedgerEvent } from "../../src/ledger/events.js";
import { AnytimeStream, anytimeCurve, dailyReportsByReplay, dailyReportsOnePass } from "../../src/run/anytime.js";
import type { RunConfigInput } from "../../src/run/config.js";
import { loadFinishedRun } from "../../src/run/rescore.js";
import { ResolutionDetectParams } from "../../src/tasks/resolution-detect/params.js";
import { ResolutionTruth } from "../../src/tasks/resolution-detect/question-truth.js";
import { MARK_OUTCOME_TOOL } from "../../src/tasks/resolution-detect/tools.js";
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
      // the streamed curve of a window cut after day 2 (a paused run's partial results), fed up to the cut
      const cut = d.r.sim_start + 2 * DAY;
      const stream = new AnytimeStream(d.r, d.world, d.truth);
      for (const e of d.events) if (e.t <= cut) stream.observe(e);
      expect(stream.dailyReports(cut)).toEqual(
        dailyReportsOnePass({ ...d.r, sim_end: cut }, d.events, d.world, d.truth),
      );
    }, 900_000);
  }
});

const DAY = 86_400_000;
const base = (t: number, seq: number) => ({ seq, t });
/** the ledger with `extra` merged in simulated order (outcomes dropped: scorers never read them) */
const withEvents = (events: readonly LedgerEvent[], extra: LedgerEvent[]) =>
  [...events.filter((e) => e.type !== "outcome"), ...extra].sort((a, b) => a.t - b.t);

describe("hand-crafted ledgers where a day's report is not the final state's", () => {
  it("price-check: budget exhaustion mid-window counts only the hours before it, day by day", async () => {
    const d = await dailyReports("price-check", CASES.find((c) => c.task === "price-check")!.cfg);
    const at = d.r.sim_start + DAY + 12 * 3_600_000; // day 2, 12:00
    const events = withEvents(d.events, [
      { ...base(at, 1e9), type: "llm_rejected", actor: "agent", reason: "budget exhausted" },
    ]);
    const onePass = dailyReportsOnePass(d.r, events, d.world, d.truth)!;
    expect(onePass).toEqual(dailyReportsByReplay(d.r, events, d.world, d.truth));
    // 36 of the 24 / 48 / 72 scored hours start before the exhaustion
    expect(onePass.map((x) => x.metrics.window_survived)).toEqual([1, 36 / 48, 36 / 72]);
    // day 1 is untouched; the primary after it differs from the unexhausted curve's
    expect(onePass[0]).toEqual(d.replay[0]);
    expect(onePass[2]!.metrics.price_acc_raw).toBe(d.replay[2]!.metrics.price_acc_raw);
    expect(onePass[2]!.metrics.symbol_hours).toBe(d.replay[2]!.metrics.symbol_hours);
  }, 900_000);

  it("resolution-detect: a mark before a later determination is no_determination on the early days, early credit after", async () => {
    const d = await dailyReports("resolution-detect", CASES.find((c) => c.task === "resolution-detect")!.cfg);
    const qt = new ResolutionTruth(d.truth, d.world, ResolutionDetectParams.parse(d.r.params ?? {}));
    const marked = new Set(
      d.events.flatMap((e) =>
        e.type === "commitment" && e.tool === MARK_OUTCOME_TOOL
          ? [(e.args as { question_id: string }).question_id]
          : [],
      ),
    );
    // a question visible on day 1, determined on day 3 or later (inside the window), not marked by the policy
    const q = qt.questions.find(
      (x) =>
        !marked.has(x.id) &&
        x.visible_at <= d.r.sim_start + 6 * 3_600_000 &&
        x.t_det !== null &&
        x.t_det >= d.r.sim_start + 2 * DAY &&
        x.t_det < d.r.sim_end,
    );
    expect(q, "the synthetic world has a question determined on day 3 or 4").toBeDefined();
    const t = d.r.sim_start + 6 * 3_600_000;
    const events = withEvents(d.events, [
      {
        ...base(t, 1e9),
        type: "commitment",
        actor: "agent",
        tool: MARK_OUTCOME_TOOL,
        args: { question_id: q!.id, outcome: q!.det_outcome },
      },
    ]);
    const onePass = dailyReportsOnePass(d.r, events, d.world, d.truth)!;
    expect(onePass).toEqual(dailyReportsByReplay(d.r, events, d.world, d.truth));
    const ndBase = d.replay.map((x) => x.metrics.no_determination as number);
    const earlyBase = d.replay.map((x) => x.metrics.early as number);
    // days 1–2: the question is not determined inside [sim_start, day end): the mark settles as no_determination
    expect(onePass[0]!.metrics.no_determination).toBe(ndBase[0]! + 1);
    expect(onePass[1]!.metrics.no_determination).toBe(ndBase[1]! + 1);
    // the last day: the same mark is an early, credited claim
    expect(onePass.at(-1)!.metrics.no_determination).toBe(ndBase.at(-1));
    expect(onePass.at(-1)!.metrics.early).toBe(earlyBase.at(-1)! + 1);
  }, 900_000);

  it("daily-digest: budget exhaustion on day 3 stops counting the days opening after it", async () => {
    const d = await dailyReports("daily-digest", CASES.find((c) => c.task === "daily-digest")!.cfg);
    const at = d.r.sim_start + 2 * DAY + 3_600_000; // day 3, 01:00
    const events = withEvents(d.events, [
      { ...base(at, 1e9), type: "llm_rejected", actor: "agent", reason: "budget exhausted" },
    ]);
    const onePass = dailyReportsOnePass(d.r, events, d.world, d.truth)!;
    expect(onePass).toEqual(dailyReportsByReplay(d.r, events, d.world, d.truth));
    expect(onePass.slice(0, 2)).toEqual(d.replay.slice(0, 2));
    const counted = onePass.map((x) => x.metrics.days_counted);
    const scored = onePass.map((x) => x.metrics.days_scored as number);
    expect(scored.at(-1)).toBeGreaterThan(counted.at(-1) as number);
  }, 900_000);
});
