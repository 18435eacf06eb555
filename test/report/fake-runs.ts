import type { LoadedRun } from "../../src/report/load-runs.js";
import type { Results } from "../../src/run/results.js";

export interface FakeRun {
  dir?: string;
  task?: string;
  episode?: string;
  model?: string;
  trigger?: "sleep" | "watcher" | "cron";
  seed?: number;
  primary?: number | null;
  spent?: number;
  task_version?: string;
  scorer_version?: string;
  harness_version?: string;
  /** results `diagnostics.reaction_h.p50` (with n = 1); absent by default */
  reaction_h?: number;
  /** merged into config.json's `config` */
  config?: Record<string, unknown>;
  budget_usd?: number;
  /** results `optimizer` (harness-optimizer runs); absent by default */
  optimizer?: Results["optimizer"];
}

/**
 * A loaded run with just the fields grouping and aggregation read (unit tests of the report's
 * pure parts; the integration test uses real runs).
 */
export function fakeRun(f: FakeRun): LoadedRun {
  const task = f.task ?? "t";
  const model = f.model ?? "scripted:a";
  const trigger = f.trigger ?? "sleep";
  const seed = f.seed ?? 0;
  const results = {
    task,
    episode: f.episode ?? "e",
    sim_start: "2026-03-01T00:00:00.000Z",
    sim_end: "2026-03-04T00:00:00.000Z",
    task_version: f.task_version ?? "t/1",
    scorer_version: f.scorer_version ?? "t-scorer/1",
    harness_version: f.harness_version ?? "0.1.0",
    agent: model,
    trigger,
    seed,
    performance: { primary: { name: "acc", value: f.primary === undefined ? 0.5 : f.primary, direction: "higher" } },
    resources: {
      spent_usd: f.spent ?? 1,
      llm_usd: 0,
      fees_usd: f.spent ?? 1,
      wakes: 3,
      tool_calls: 5,
      rejected_calls: 0,
      protocol_retries: 0,
      llm_calls: 0,
    },
    flags: { budget_exhausted: false, llm_budget_exhausted: false, failed_degenerate: false, finished_early: false },
    timing: { anytime: [], auc: null, first_commitment_hours: null, hours_to_target: null },
    diagnostics: {
      days_without_wake: 0,
      wake_interval_drift: null,
      noop_wake_share: null,
      late_deviation_weeks: [],
      missed: 0,
      wake_reasons: { sleep: 3 },
      // absent, as in results written before reaction times existed, unless given
      ...(f.reaction_h === undefined
        ? {}
        : { reaction_h: { n: 1, p50: f.reaction_h, p90: f.reaction_h, mean: f.reaction_h } }),
    },
    ...(f.optimizer ? { optimizer: f.optimizer } : {}),
  } as unknown as Results;
  return {
    dir: f.dir ?? `/runs/${task}/${model}/${trigger}-${JSON.stringify(f.config ?? {})}-s${seed}`,
    results,
    config: {
      config: { task, agent: { model, trigger, deadline_guard: false }, feedback: "none", seed, ...(f.config ?? {}) },
      resolved: {
        task_version: "t/1",
        scorer_version: "t-scorer/1",
        harness_version: "0.1.0",
        budget_usd: f.budget_usd ?? 20,
        task_params: { k: 1 },
      },
    },
  };
}
