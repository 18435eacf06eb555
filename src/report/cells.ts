import { displayAxisValue } from "./config-axes.js";
import type { Experiment } from "./experiments.js";
import type { CellData } from "./report-data.js";
import type { RunFacts } from "./run-facts.js";
import { bootstrapMeanCi } from "./stats/bootstrap.js";
import { passHatKCurve } from "./stats/pass-k.js";
import { mean, sampleSd } from "./stats/summary.js";

const TRIGGER_ORDER = ["sleep", "watcher", "cron", "policy"];
const triggerRank = (t: string) => {
  const i = TRIGGER_ORDER.indexOf(t);
  return i < 0 ? TRIGGER_ORDER.length : i;
};

/** The cell of a run: model, trigger and the experiment's varying axes. */
export const cellKey = (f: RunFacts) => JSON.stringify([f.placed.model, f.placed.trigger, f.placed.axes]);

/** "sleep · budget_usd=0.03": the trigger and the varying-axis values (axes under their short names). */
export const seriesLabel = (trigger: string, axes: Record<string, string>, names: ReadonlyMap<string, string>) =>
  [trigger, ...Object.entries(axes).map(([k, v]) => `${names.get(k) ?? k}=${displayAxisValue(v)}`)].join(" · ");

const meanOr0 = (xs: number[]) => mean(xs) ?? 0;
const nums = (xs: readonly (number | null | undefined)[]) =>
  xs.filter((x): x is number => typeof x === "number" && Number.isFinite(x));

/** Groups an experiment's runs into cells, in a stable order: model, trigger (sleep, watcher, cron), axis values. */
export function groupCells(e: Experiment, facts: readonly RunFacts[]): RunFacts[][] {
  const byKey = new Map<string, RunFacts[]>();
  for (const f of facts) byKey.set(cellKey(f), [...(byKey.get(cellKey(f)) ?? []), f]);
  const order = (f: RunFacts) => f.placed;
  const cells = [...byKey.values()].map((c) =>
    c.sort(
      (x, y) =>
        x.placed.seed - y.placed.seed ||
        (x.placed.worldSeed ?? -1) - (y.placed.worldSeed ?? -1) ||
        (x.placed.run.dir < y.placed.run.dir ? -1 : 1),
    ),
  );
  return cells.sort((x, y) => {
    const a = order(x[0]!);
    const b = order(y[0]!);
    if (a.model !== b.model) return a.model < b.model ? -1 : 1;
    if (a.trigger !== b.trigger)
      return triggerRank(a.trigger) - triggerRank(b.trigger) || (a.trigger < b.trigger ? -1 : 1);
    for (const ax of e.axes) {
      const d = ax.values.indexOf(a.axes[ax.path]!) - ax.values.indexOf(b.axes[ax.path]!);
      if (d !== 0) return d;
    }
    return 0;
  });
}

/** The aggregates of one cell (its runs share model, trigger and every varying axis). */
export function aggregateCell(
  runs: readonly RunFacts[],
  o: { binary: boolean; direction: "higher" | "lower"; axisNames: ReadonlyMap<string, string> },
): CellData {
  const first = runs[0]!.placed;
  const results = runs.map((f) => f.placed.run.results);
  const scores = nums(runs.map((f) => f.primary));
  const m = mean(scores);
  const spends = runs.map((f) => f.spent);
  const spendMean = meanOr0(spends);
  const exhaustedRuns = runs.filter((f) => f.exhausted);
  const days = [...new Set(results.flatMap((r) => r.timing.anytime.map((a) => a.day)))].sort((a, b) => a - b);
  const anytime = days.map((day) => {
    const vs = nums(results.map((r) => r.timing.anytime.find((a) => a.day === day)?.primary));
    return { day, mean: mean(vs), n: vs.length };
  });
  const optimized = results.flatMap((r) => (r.optimizer ? [r.optimizer] : []));
  const spanNumbers = [...new Set(optimized.flatMap((x) => x.spans.map((sp) => sp.span)))].sort((a, b) => a - b);
  const optimizerSpans = spanNumbers.map((span) => {
    const at = optimized.flatMap((x) => x.spans.filter((sp) => sp.span === span));
    const vs = nums(at.map((sp) => sp.score));
    return {
      span,
      mean: mean(vs),
      n: vs.length,
      candidates: at.filter((sp) => sp.harness === "candidate").length,
      kept: at.filter((sp) => sp.decision === "kept").length,
    };
  });
  const wakeReasons: Record<string, number> = {};
  for (const r of results)
    for (const [k, v] of Object.entries(r.diagnostics.wake_reasons)) wakeReasons[k] = (wakeReasons[k] ?? 0) + v;
  const drift = nums(results.map((r) => r.diagnostics.wake_interval_drift));
  const axes = Object.fromEntries(Object.entries(first.axes).map(([k, v]) => [k, displayAxisValue(v)]));
  return {
    key: JSON.stringify([first.model, first.trigger, first.axes]),
    model: first.model,
    trigger: first.trigger,
    axes,
    series: seriesLabel(first.trigger, first.axes, o.axisNames),
    runs: runs.length,
    n: scores.length,
    not_scorable: runs.length - scores.length,
    seeds: runs.map((f) => f.placed.seed),
    world_seeds: runs.map((f) => f.placed.worldSeed),
    mean: m,
    sd: sampleSd(scores),
    ci95: bootstrapMeanCi(scores),
    pass_k: o.binary && scores.length > 0 ? passHatKCurve(scores) : null,
    spend_mean_usd: spendMean,
    spend_sd_usd: sampleSd(spends),
    llm_mean_usd: meanOr0(results.map((r) => r.resources.llm_usd)),
    fees_mean_usd: meanOr0(results.map((r) => r.resources.fees_usd)),
    score_per_usd: o.direction === "higher" && m !== null && spendMean > 0 ? m / spendMean : null,
    exhausted: exhaustedRuns.length,
    // over every run, as the paper's Table 4: a run that never ran out survived the whole window
    window_survived_mean: mean(nums(runs.map((f) => (f.exhausted ? f.survived : 1)))),
    auc_mean: mean(nums(results.map((r) => r.timing.auc))),
    anytime,
    ...(optimized.length ? { optimizer_spans: optimizerSpans } : {}),
    diagnostics: {
      days_without_wake_mean: meanOr0(results.map((r) => r.diagnostics.days_without_wake)),
      wake_interval_drift_mean: mean(drift),
      wake_interval_drift_n: drift.length,
      noop_wake_share_mean: mean(nums(results.map((r) => r.diagnostics.noop_wake_share))),
      late_deviation_runs: results.filter((r) => r.diagnostics.late_deviation_weeks.length > 0).length,
      late_deviation_weeks_mean: meanOr0(results.map((r) => r.diagnostics.late_deviation_weeks.length)),
      missed_mean: meanOr0(results.map((r) => r.diagnostics.missed)),
      wake_reasons: Object.fromEntries(Object.entries(wakeReasons).sort(([a], [b]) => (a < b ? -1 : 1))),
      wakes_mean: meanOr0(results.map((r) => r.resources.wakes)),
      tool_calls_mean: meanOr0(results.map((r) => r.resources.tool_calls)),
      rejected_calls_mean: meanOr0(results.map((r) => r.resources.rejected_calls)),
      protocol_retries_mean: meanOr0(results.map((r) => r.resources.protocol_retries)),
      llm_calls_mean: meanOr0(results.map((r) => r.resources.llm_calls)),
      failed_degenerate: results.filter((r) => r.flags.failed_degenerate).length,
      finished_early: results.filter((r) => r.flags.finished_early).length,
      first_commitment_hours_mean: mean(nums(results.map((r) => r.timing.first_commitment_hours))),
      hours_to_target_mean: mean(nums(results.map((r) => r.timing.hours_to_target))),
      reaction_h_p50_mean: mean(nums(results.map((r) => r.diagnostics.reaction_h?.p50))),
      reactions: results.reduce((s, r) => s + (r.diagnostics.reaction_h?.n ?? 0), 0),
    },
    run_dirs: runs.map((f) => f.placed.run.dir),
  };
}
