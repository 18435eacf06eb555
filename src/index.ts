/**
 * relive as a library: run episodes and grids, resume and rescore runs, build reports, define
 * tasks of your own and build worlds. The CLI (`relive`) is a thin layer over these functions.
 */

export { importNewsJsonl } from "./ingest/news-jsonl.js";
export type { LedgerEvent } from "./ledger/events.js";
// ledger and time
export { readLedger } from "./ledger/ledger-reader.js";
export { type BuiltReport, buildReport, type ReportOptions, writeReport } from "./report/build-report.js";
export {
  ConfigError,
  loadRunConfig,
  parseRunConfig,
  type RunConfig,
  type RunConfigInput,
  RunConfigSchema,
} from "./run/config.js";
export { type GridConfig, loadGridConfig, parseGridConfig } from "./run/grid/grid-config.js";
export { type RunGridOptions, runGrid } from "./run/grid/run-grid.js";
export { loadProjectConfig, type ProjectConfig } from "./run/project-config.js";
export { type OutcomeDiff, rescoreRun } from "./run/rescore.js";
export { type RestartOptions, restartRun } from "./run/restart.js";
export { type Results, ResultsSchema } from "./run/results.js";
export { type EpisodeOptions, runEpisode } from "./run/run-episode.js";
export { type DayProgress, executeRun, type RunOptions, type RunOutcome, resumeRun } from "./run/runner.js";
export { loadTaskModule } from "./run/task-module.js";
export { ensureSynthWorld, synthWorldDir } from "./synth/synth-world.js";
export { oracleStatelessPolicy, statelessPolicy } from "./tasks/reference-policy.js";
export { allTasks, getTask, registerTask, TASKS } from "./tasks/registry.js";
export { type CommitmentEvent, ScorerBase, type ToolCallEvent } from "./tasks/scorer-base.js";
// tasks: the contract and the registry
export {
  type AnyTask,
  defineTask,
  type Episode,
  type Metric,
  type NotScorable,
  type Observation,
  type OracleEnv,
  type Outcome,
  type PolicyApi,
  type PolicyRun,
  type ProgramActor,
  type ReferencePolicy,
  type ScoreReport,
  type Scorer,
  type ScorerContext,
  type StateSection,
  type TaskDefinition,
  type TaskRun,
  type TaskRunContext,
  type TaskRunSpec,
  type TaskSpec,
} from "./tasks/task.js";
export {
  defineTool,
  ok,
  reject,
  type ToolContext,
  type ToolDef,
  type ToolResult,
  type ToolSpec,
} from "./tools/tool.js";
export type { AsOfView } from "./world/as-of-view.js";
export { TruthStore } from "./world/truth-store.js";
// worlds
export { WorldBuilder, type WorldBuildOptions, type WorldMeta } from "./world/world-builder.js";
export { WorldStore } from "./world/world-store.js";
