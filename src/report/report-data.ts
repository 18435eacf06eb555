import { z } from "zod";

/** A 95% interval; null when undefined (fewer than two values). */
const Interval = z.object({ lo: z.number(), hi: z.number() }).nullable();
/** An F statistic: "inf" when the residual is exactly zero and the term is not; null when undefined. */
const FStat = z.union([z.number(), z.literal("inf")]).nullable();
const Direction = z.enum(["higher", "lower"]);

export const CellDiagnosticsSchema = z.object({
  days_without_wake_mean: z.number(),
  wake_interval_drift_mean: z.number().nullable(),
  /** runs with a defined drift */
  wake_interval_drift_n: z.number().int(),
  noop_wake_share_mean: z.number().nullable(),
  /** runs with at least one late-deviation week */
  late_deviation_runs: z.number().int(),
  late_deviation_weeks_mean: z.number(),
  missed_mean: z.number(),
  /** wake reasons summed over the cell's runs */
  wake_reasons: z.record(z.string(), z.number().int()),
  wakes_mean: z.number(),
  tool_calls_mean: z.number(),
  rejected_calls_mean: z.number(),
  protocol_retries_mean: z.number(),
  llm_calls_mean: z.number(),
  failed_degenerate: z.number().int(),
  finished_early: z.number().int(),
  first_commitment_hours_mean: z.number().nullable(),
  hours_to_target_mean: z.number().nullable(),
  /** mean over the cell's runs of each run's median reaction time in hours (results `diagnostics.reaction_h.p50`) */
  reaction_h_p50_mean: z.number().nullable(),
  /** reactions counted over the cell's runs */
  reactions: z.number().int(),
});

export const CellSchema = z.object({
  key: z.string(),
  model: z.string(),
  trigger: z.string(),
  /** values of the experiment's varying axes (display form) */
  axes: z.record(z.string(), z.string()),
  /** trigger and axis values, e.g. "sleep · budget_usd=0.03" */
  series: z.string(),
  runs: z.number().int(),
  /** runs with a scorable primary */
  n: z.number().int(),
  not_scorable: z.number().int(),
  seeds: z.array(z.number().int()),
  /** the synthetic world seed of each run (null: default world or a world directory), beside `seeds` */
  world_seeds: z.array(z.number().int().nullable()),
  mean: z.number().nullable(),
  sd: z.number().nullable(),
  ci95: Interval,
  /** pass^k for k = 1..n when the experiment's primary is binary */
  pass_k: z.array(z.object({ k: z.number().int(), value: z.number() })).nullable(),
  spend_mean_usd: z.number(),
  spend_sd_usd: z.number().nullable(),
  llm_mean_usd: z.number(),
  fees_mean_usd: z.number(),
  /** mean primary per mean dollar (higher-is-better primaries with positive spend only) */
  score_per_usd: z.number().nullable(),
  /** runs that exhausted their budget (wallet or LLM domain) */
  exhausted: z.number().int(),
  /** mean share of the window survived over every run (1 for a run that never exhausted its budget); null when no run's share is known */
  window_survived_mean: z.number().nullable(),
  auc_mean: z.number().nullable(),
  anytime: z.array(z.object({ day: z.number().int(), mean: z.number().nullable(), n: z.number().int() })),
  /**
   * harness-optimizer cells (`agent.learning: {method: optimizer}`): the mean settled score of each span
   * over the cell's runs, and how many candidates ran / were kept there (absent: no run of the cell optimized)
   */
  optimizer_spans: z
    .array(
      z.object({
        span: z.number().int(),
        mean: z.number().nullable(),
        n: z.number().int(),
        candidates: z.number().int(),
        kept: z.number().int(),
      }),
    )
    .optional(),
  diagnostics: CellDiagnosticsSchema,
  run_dirs: z.array(z.string()),
});

export const AnovaSchema = z.object({
  /** values of the other varying axes held fixed in this decomposition */
  stratum: z.record(z.string(), z.string()),
  n: z.number().int(),
  models: z.array(z.string()),
  triggers: z.array(z.string()),
  balanced: z.boolean(),
  no_variance: z.boolean(),
  total_ss: z.number(),
  total_df: z.number().int(),
  terms: z.array(
    z.object({
      source: z.enum(["model", "trigger", "model×trigger", "residual (seed)"]),
      ss: z.number(),
      df: z.number().int(),
      share: z.number().nullable(),
      f: FStat,
      p: z.number().nullable(),
    }),
  ),
  notes: z.array(z.string()),
});

export const DeltaSchema = z.object({
  axis: z.string(),
  baseline: z.string(),
  level: z.string(),
  pairs: z.number().int(),
  /** mean of (level − baseline) primary over seed-matched pairs */
  mean_delta: z.number().nullable(),
  ci95: Interval,
  baseline_spend_mean_usd: z.number().nullable(),
  level_spend_mean_usd: z.number().nullable(),
  /** level spend / baseline spend over the pairs; null when the baseline spent nothing */
  cost_multiplier: z.number().nullable(),
});

const LearningStat = {
  mean: z.number().nullable(),
  sd: z.number().nullable(),
  n: z.number().int(),
  spend_mean_usd: z.number(),
};

/** One row of the paper's Table 1 shape: the primary with and without a learning method (src/report/learning-table.ts). */
export const LearningRowSchema = z.object({
  /** the learning axis (`agent.memory`) */
  axis: z.string(),
  model: z.string(),
  trigger: z.string(),
  /** values of the other varying axes */
  stratum: z.record(z.string(), z.string()),
  /** the cell without the method (`none`, else unset); null when the runs hold none */
  without: z.object(LearningStat).nullable(),
  methods: z.array(
    z.object({
      method: z.string(),
      ...LearningStat,
      /** mean spend with / mean spend without; null without a baseline that spent something */
      cost_multiplier: z.number().nullable(),
    }),
  ),
});

export const PooledSdSchema = z.object({
  trigger: z.string(),
  /** sqrt(Σ (n_i − 1) s_i² / Σ (n_i − 1)) over cells with at least two scored seeds */
  sd: z.number().nullable(),
  df: z.number().int(),
  cells: z.number().int(),
});

/** FutureSim-style tables (issue 16 §4): present when every run reports accuracy, bss_day0 and bss_final. */
export const FutureSimSchema = z.object({
  metrics: z.array(z.string()),
  /** one row per harness arm (trigger · varying axes) × model */
  main: z.array(
    z.object({
      arm: z.string(),
      model: z.string(),
      runs: z.number().int(),
      primary: z.number().nullable(),
      accuracy: z.number().nullable(),
      bss_day0: z.number().nullable(),
      bss_final: z.number().nullable(),
      /** model calls per run */
      steps: z.number().nullable(),
      anytime: z.array(z.object({ day: z.number().int(), mean: z.number().nullable() })),
    }),
  ),
  /** one row per switch (a non-baseline level of a varying axis): paired deltas level − baseline */
  ablations: z.array(
    z.object({
      switch: z.string(),
      axis: z.string(),
      level: z.string(),
      baseline: z.string(),
      pairs: z.number().int(),
      delta_primary: z.number().nullable(),
      delta_primary_ci95: Interval,
      delta_accuracy: z.number().nullable(),
      delta_bss_day0: z.number().nullable(),
      delta_bss_final: z.number().nullable(),
      delta_steps: z.number().nullable(),
    }),
  ),
});

export const ExperimentSchema = z.object({
  key: z.string(),
  task: z.string(),
  episode: z.string(),
  sim_start: z.string(),
  sim_end: z.string(),
  versions: z.object({
    task_version: z.array(z.string()),
    scorer_version: z.array(z.string()),
    harness_version: z.array(z.string()),
  }),
  primary: z.object({ name: z.string(), direction: Direction }),
  /** all scorable primaries are 0 or 1: pass^k is reported */
  binary: z.boolean(),
  axes: z.array(z.object({ path: z.string(), values: z.array(z.string()), baseline: z.string() })),
  runs: z.number().int(),
  cells: z.array(CellSchema),
  anova: z.array(AnovaSchema),
  deltas: z.array(DeltaSchema),
  /** the headline: each trigger against the baseline trigger (sleep when present), paired on model, replicate and every axis */
  trigger_deltas: z.array(DeltaSchema),
  /** the task's capability axes (tasks.md), from results.json; null for runs written before they were recorded */
  task_axes: z.record(z.string(), z.string()).nullable(),
  pooled_seed_sd: z.array(PooledSdSchema),
  /** the learning methods' Table 1 rows (absent or empty: no learning axis varies) */
  learning: z.array(LearningRowSchema).optional(),
  /** FutureSim tables (open-forecast and any task with its metrics); absent otherwise */
  futuresim: FutureSimSchema.optional(),
});

export const RankConsistencySchema = z.object({
  judges: z.array(z.object({ task: z.string(), episode: z.string(), direction: Direction })),
  models: z.array(z.string()),
  /** models missing from some experiment (W needs complete rankings) */
  excluded_models: z.array(z.string()),
  /** judges × models: the model's mean primary (mean of its cell means) */
  means: z.array(z.array(z.number())),
  /** judges × models: rank 1 = best, ties averaged */
  ranks: z.array(z.array(z.number())),
  mean_ranks: z.array(z.number()),
  w: z.number().nullable(),
  chi2: z.number().nullable(),
  df: z.number().int(),
  p: z.number().nullable(),
  /** why W is not available, when it is not */
  note: z.string().nullable(),
});

export const ReportRunSchema = z.object({
  dir: z.string(),
  task: z.string(),
  episode: z.string(),
  model: z.string(),
  trigger: z.string(),
  seed: z.number().int(),
  world_seed: z.number().int().nullable(),
  axes: z.record(z.string(), z.string()),
  primary: z.number().nullable(),
  wakes: z.number().int(),
  /** the run's median reaction time in hours (tasks with dated events), else null */
  reaction_h_p50: z.number().nullable(),
  spent_usd: z.number(),
  exhausted: z.boolean(),
  window_survived: z.number().nullable(),
  window_survived_source: z.enum(["performance", "ledger", "unknown"]).nullable(),
});

/**
 * Results sliced by one capability axis value (tasks.md): per trigger, the mean over the slice's
 * experiments whose primary is higher-is-better of that trigger's mean primary, and the mean of
 * the experiments' headline trigger deltas. Lower-is-better experiments are listed, not averaged.
 */
export const CapabilitySliceSchema = z.object({
  axis: z.string(),
  value: z.string(),
  tasks: z.array(z.string()),
  /** experiments in the slice left out of the means (lower-is-better primaries) */
  excluded: z.array(z.string()),
  by_trigger: z.array(
    z.object({
      trigger: z.string(),
      experiments: z.number().int(),
      mean_primary: z.number().nullable(),
      mean_delta: z.number().nullable(),
    }),
  ),
});

/** What `relive report --json` writes: every aggregate of the HTML report. */
export const ReportDataSchema = z.object({
  schema_version: z.literal(1),
  generator: z.literal("relive report"),
  methods: z.object({
    bootstrap: z.object({
      method: z.literal("percentile"),
      resamples: z.number().int(),
      seed: z.number().int(),
      level: z.number(),
      generator: z.string(),
    }),
    anova: z.string(),
    pass_k: z.string(),
    kendall_w: z.string(),
    window_survived: z.string(),
  }),
  pooled_versions: z.boolean(),
  runs_total: z.number().int(),
  skipped: z.array(z.object({ dir: z.string(), reason: z.string() })),
  experiments: z.array(ExperimentSchema),
  rank_consistency: RankConsistencySchema,
  capability_slices: z.array(CapabilitySliceSchema),
  /** pooled within-cell seed SD by trigger across every experiment */
  pooled_seed_sd_all: z.array(PooledSdSchema),
  runs: z.array(ReportRunSchema),
});

export type ReportData = z.infer<typeof ReportDataSchema>;
export type ExperimentData = z.infer<typeof ExperimentSchema>;
export type CellData = z.infer<typeof CellSchema>;
export type AnovaData = z.infer<typeof AnovaSchema>;
export type DeltaData = z.infer<typeof DeltaSchema>;
export type FutureSimData = z.infer<typeof FutureSimSchema>;
export type PooledSd = z.infer<typeof PooledSdSchema>;
export type LearningRow = z.infer<typeof LearningRowSchema>;
export type RankConsistency = z.infer<typeof RankConsistencySchema>;
export type ReportRun = z.infer<typeof ReportRunSchema>;
export type CapabilitySlice = z.infer<typeof CapabilitySliceSchema>;
