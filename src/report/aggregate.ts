import { join } from "node:path";
import { anovaStrata } from "./anova-strata.js";
import { capabilitySlices } from "./capability-slices.js";
import { aggregateCell, groupCells, seriesLabel } from "./cells.js";
import { displayAxisValue, shortAxisNames } from "./config-axes.js";
import { groupExperiments, type PlacedRun } from "./experiments.js";
import { futureSimTables } from "./futuresim.js";
import { learningRows } from "./learning-table.js";
import { type LedgerScan, scanLedger } from "./ledger-scan.js";
import type { LoadedRuns } from "./load-runs.js";
import { baselineOf, pairedDeltas, triggerDeltas } from "./paired-deltas.js";
import { pooledSeedSd } from "./pooled-sd.js";
import { rankConsistency } from "./rank-consistency.js";
import type { CellData, ExperimentData, ReportData } from "./report-data.js";
import { ReportInputError } from "./report-error.js";
import { needsLedgerForSurvival, type RunFacts, runFacts } from "./run-facts.js";
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, CI_LEVEL } from "./stats/bootstrap.js";

export interface AggregateOptions {
  /** pool runs whose task, scorer or harness versions differ */
  poolVersions?: boolean;
  /** baseline level per ablation axis (config path → value), e.g. { "agent.deadline_guard": "false" } */
  baselines?: Readonly<Record<string, string>>;
  /** runs drawn per experiment in the wake timeline (default 16) */
  timelineRuns?: number;
  /** wakes kept per run in the wake timeline (default 1,000; more are thinned evenly) */
  timelineWakes?: number;
}

/** A run's wakes for the timeline chart. */
export interface TimelineRun {
  label: string;
  cell: CellData;
  seed: number;
  sim_start: number;
  scan: LedgerScan;
}

export interface Aggregated {
  data: ReportData;
  /** experiment key → sampled wake timelines */
  timelines: Map<string, TimelineRun[]>;
}

/** Round-robin over the cells (seed order inside each), up to `max` runs. */
function sampleTimelineRuns(cells: readonly RunFacts[][], max: number): RunFacts[] {
  const out: RunFacts[] = [];
  for (let i = 0; out.length < max; i++) {
    let any = false;
    for (const c of cells) {
      if (i < c.length && out.length < max) {
        out.push(c[i]!);
        any = true;
      }
    }
    if (!any) break;
  }
  return out;
}

/** Every aggregate of the report from loaded runs (reads ledgers only for wake timelines and exhaustion times). */
export async function aggregate(loaded: LoadedRuns, o: AggregateOptions = {}): Promise<Aggregated> {
  const experiments = groupExperiments(loaded.runs, o);
  const baselines = o.baselines ?? {};
  const knownAxes = new Set(experiments.flatMap((e) => e.axes.map((a) => a.path)));
  const unknown = Object.keys(baselines).filter((p) => !knownAxes.has(p));
  if (unknown.length)
    throw new ReportInputError(
      `--baseline names ${unknown.join(", ")}, which ${unknown.length > 1 ? "do" : "does"} not vary between the runs; varying axes: ${[...knownAxes].join(", ") || "none"}`,
    );
  const timelineRuns = o.timelineRuns ?? 16;
  const timelineWakes = o.timelineWakes ?? 1000;

  const scans = new Map<string, LedgerScan | null>();
  const scan = async (p: PlacedRun) => {
    if (!scans.has(p.run.dir))
      scans.set(p.run.dir, await scanLedger(join(p.run.dir, "ledger.jsonl"), { maxWakes: timelineWakes }));
    return scans.get(p.run.dir) ?? null;
  };

  const expData: ExperimentData[] = [];
  const timelines = new Map<string, TimelineRun[]>();
  const allFacts: RunFacts[] = [];
  for (const e of experiments) {
    const facts: RunFacts[] = [];
    for (const p of e.runs) facts.push(runFacts(p, needsLedgerForSurvival(p) ? await scan(p) : null));
    allFacts.push(...facts);
    const scored = facts.flatMap((f) => (f.primary === null ? [] : [f.primary]));
    const binary = scored.length > 0 && scored.every((v) => v === 0 || v === 1);
    const grouped = groupCells(e, facts);
    const axisNames = shortAxisNames(e.axes.map((a) => a.path));
    const cells = grouped.map((c) => aggregateCell(c, { binary, direction: e.primary.direction, axisNames }));
    const axes = e.axes.map((a) => ({ path: a.path, values: a.values, baseline: baselineOf(a, facts, baselines) }));
    const learning = learningRows(
      cells,
      e.axes.map((a) => a.path),
    );
    const futuresim = futureSimTables(e, facts, axes, axisNames);
    expData.push({
      key: e.key,
      task: e.task,
      episode: e.episode,
      sim_start: e.sim_start,
      sim_end: e.sim_end,
      versions: e.versions,
      primary: e.primary,
      binary,
      axes: axes.map((a) => ({
        path: a.path,
        values: a.values.map(displayAxisValue),
        baseline: displayAxisValue(a.baseline),
      })),
      runs: e.runs.length,
      cells,
      anova: anovaStrata(facts),
      deltas: axes.flatMap((a) => pairedDeltas({ path: a.path, values: a.values }, a.baseline, facts)),
      trigger_deltas: triggerDeltas(facts),
      task_axes: e.runs[0]!.run.results.task_axes ?? null,
      pooled_seed_sd: pooledSeedSd(cells),
      ...(learning.length ? { learning } : {}),
      ...(futuresim !== null ? { futuresim } : {}),
    });
    const sample = sampleTimelineRuns(grouped, timelineRuns);
    const tl: TimelineRun[] = [];
    const labels = new Set<string>();
    for (const f of sample) {
      const s = await scan(f.placed);
      if (!s) continue;
      const cell = cells[grouped.findIndex((g) => g.includes(f))]!;
      const base = `${f.placed.model} · ${seriesLabel(f.placed.trigger, f.placed.axes, axisNames)} · s${f.placed.seed}`;
      let label = base;
      for (let k = 2; labels.has(label); k++) label = `${base} #${k}`;
      labels.add(label);
      tl.push({
        label,
        cell,
        seed: f.placed.seed,
        sim_start: Date.parse(e.sim_start),
        scan: s,
      });
    }
    timelines.set(e.key, tl);
  }

  const data: ReportData = {
    schema_version: 1,
    generator: "relive report",
    methods: {
      bootstrap: {
        method: "percentile",
        resamples: BOOTSTRAP_RESAMPLES,
        seed: BOOTSTRAP_SEED,
        level: CI_LEVEL,
        generator: "xoroshiro128+ (pure-rand), a fresh generator per interval; type-7 quantiles of the resampled means",
      },
      anova:
        "two-way ANOVA with repetitions (factors model and trigger, replicate = seed) per task × episode and per combination of the other varying axes; Type II sums of squares by model comparison; shares are SS / total SS; p = P(F > f) from jStat",
      pass_k:
        "pass^k = C(c, k) / C(n, k) for c passing seeds out of n (τ-bench), when every scorable primary of the task is 0 or 1",
      kendall_w:
        "Kendall's W with tie correction over each model's mean primary per task × episode (mean of its cell means, ranked best-first by the primary's direction); p from the chi-square approximation m (n − 1) W",
      window_survived:
        "averaged over every run of a cell, as the paper's Table 4 (a run that never exhausted its budget survived the whole window, 1); for runs that exhausted their budget: the scorer's window_survived metric when the LLM budget ran out, otherwise the share of anytime days that ended before the first llm_rejected event, unpaid call or empty daily brief in the ledger",
    },
    pooled_versions:
      Boolean(o.poolVersions) && experiments.some((e) => Object.values(e.versions).some((v) => v.length > 1)),
    runs_total: loaded.runs.length,
    skipped: loaded.skipped,
    experiments: expData,
    rank_consistency: rankConsistency(expData),
    capability_slices: capabilitySlices(expData),
    pooled_seed_sd_all: pooledSeedSd(expData.flatMap((e) => e.cells)),
    runs: allFacts.map((f) => ({
      dir: f.placed.run.dir,
      task: f.placed.run.results.task,
      episode: f.placed.run.results.episode,
      model: f.placed.model,
      trigger: f.placed.trigger,
      seed: f.placed.seed,
      world_seed: f.placed.worldSeed,
      axes: Object.fromEntries(Object.entries(f.placed.axes).map(([k, v]) => [k, displayAxisValue(v)])),
      primary: f.primary,
      wakes: f.placed.run.results.resources.wakes,
      reaction_h_p50: f.placed.run.results.diagnostics.reaction_h?.p50 ?? null,
      spent_usd: f.spent,
      exhausted: f.exhausted,
      window_survived: f.survived,
      window_survived_source: f.survivedSource,
    })),
  };
  return { data, timelines };
}
