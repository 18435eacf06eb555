import type { z } from "zod";
import type { Kernel } from "../kernel/kernel.js";
import type { RateLimiter } from "../kernel/rate-limiter.js";
import type { EventOf, LedgerEvent } from "../ledger/events.js";
import type { ToolDef } from "../tools/tool.js";
import type { AsOfView } from "../world/as-of-view.js";
import type { TruthStore } from "../world/truth-store.js";
import type { WorldStore } from "../world/world-store.js";

export interface Episode {
  name: string;
  sim_start: number;
  /** exclusive end (episode dates are inclusive: 03-01 → 03-21 ends 03-22 00:00Z) */
  sim_end: number;
  /** how the world is obtained: the synthetic generator, or a real-data builder of the task */
  world: { kind: "synth" } | { kind: "real"; builder: string };
  description: string;
}

export interface Metric {
  name: string;
  value: number | null;
  direction: "higher" | "lower";
}

/** One settled scored unit, appended to the ledger as an `outcome` event at `t`. */
export interface Outcome {
  t: number;
  key: string;
  status: string;
  credit: number | null;
  /**
   * Task-specific facts. By convention `reaction_h` (a number) is the hours from the dated event a
   * commitment answered (a news article, a filing, a fill, a resolution) to that commitment; results
   * summarize it as `diagnostics.reaction_h`. Tasks without such events leave it out.
   */
  detail: Record<string, unknown>;
}

export interface NotScorable {
  key: string;
  reason: string;
}

export interface ScoreReport {
  primary: Metric;
  metrics: Record<string, number | null>;
  not_scorable: NotScorable[];
}

export interface ScorerContext {
  sim_start: number;
  sim_end: number;
  /** scorer-side, unbounded access to the world (never handed to the agent) */
  world: WorldStore;
  truth: TruthStore;
  params: unknown;
}

/**
 * Consumes ledger events in order and emits settled outcomes. Pure function of
 * (truth, world, ledger events): replaying the same ledger gives the same outcomes (rescore).
 */
export interface Scorer {
  /** every ledger event in order (commitments, llm_rejected, ...) */
  onEvent(e: LedgerEvent): void;
  /** outcomes whose settlement time is ≤ t, not yet emitted, in settlement order */
  settle(t: number): Outcome[];
  /** final metrics after the run ended (settle(sim_end) already called) */
  report(): ScoreReport;
}

/** `feedback` of the run config: `none` is the blind condition (no channel at all). */
export type FeedbackCondition = "none" | "oracle" | "self";

/**
 * The oracle feedback channel: settled outcomes of this run, read from the run's own ledger.
 * Present in a TaskRunContext only under `feedback: oracle`, so a blind run has no path to it.
 */
export interface OracleFeedback {
  /** outcomes settled in (since, now], in settlement order (since = null: from the start) */
  settled(since: number | null): Outcome[];
}

/** What a task releases as feedback (tasks.md, "Feedback" of each task). */
export interface TaskFeedback<P> {
  /** the agent-facing payload of one settled outcome under `oracle`; null omits it. Default: the outcome's
   * key, status, credit and detail. */
  oracle?(o: Outcome, params: P): Record<string, unknown> | null;
  /** `self` labels: task-computed from data visible at `now` only (absent = `self` is refused at config time) */
  self?: {
    description: string;
    labels(ctx: TaskRunContext<P>, since: number | null): Record<string, unknown>[];
  };
}

/**
 * What a task tool may ask of the agent's clock (e.g. open-forecast's `next_day`). Tools never wait:
 * `sleepUntil` leaves a wait intent that ends the current wake, exactly like the trigger's own
 * `sleep` tool, and is ledgered as a wait of `tool`.
 */
export interface TaskAgentClock {
  /** the run's trigger */
  trigger: "sleep" | "watcher" | "cron";
  /** ends the calling actor's wake (`ToolContext.actor`): only for LLM agents under the sleep trigger; null elsewhere */
  sleepUntil: ((until: number, tool: string, actor: string) => void) | null;
}

/** Where a task registers a run's secrets (credentials, one-time codes): they never reach a log. */
export interface SecretSink {
  add(name: string, value: string): void;
}

export interface TaskRunContext<P> {
  params: P;
  /** the run's secrets, redacted from the ledger and llm.jsonl (absent in unit-test contexts) */
  secrets?: SecretSink;
  /** run-end cleanup (a browser, servers); called once after the kernel stops, also when the run fails */
  onDispose?(fn: () => void | Promise<void>): void;
  /** the run's feedback condition (tasks must add nothing feedback-related under `none`) */
  feedback: FeedbackCondition;
  /** settled outcomes: only under `feedback: oracle` (e.g. scores in open-forecast's daily recap) */
  oracleFeedback: OracleFeedback | null;
  sim_start: number;
  sim_end: number;
  view: AsOfView;
  kernel: Kernel;
  budget_usd: number;
  /** seed of the task's environment (e.g. incident draws), derived from the world hash: the same for every
   * repetition of an episode (the run seed is a repetition label and never changes the world) */
  env_seed: number;
  /** scorer/environment-side world access (never handed to the agent): venue replays read untouched data here */
  world: WorldStore;
  /** set by the runner (absent in tool-only harnesses: then no tool may move the clock) */
  agentClock?: TaskAgentClock;
}

/** The API a scripted reference policy acts through: the same tools an LLM agent gets. */
export interface PolicyApi {
  now(): number;
  call(tool: string, args: unknown): Promise<{ ok: true; value: unknown } | { ok: false; error: string }>;
}

/** What an oracle policy may read: truth and the untouched world. Constructed only by the runner for oracle runs. */
export interface OracleEnv {
  truth: TruthStore;
  world: WorldStore;
  params: unknown;
}

export interface ReferencePolicy {
  name: string;
  description: string;
  /** oracle policies read truth: tests and calibration only, never reachable from an agent path */
  oracle?: { act(api: PolicyApi, env: OracleEnv): Promise<void> };
  /** one wake's work */
  act?(api: PolicyApi): Promise<void>;
  /** under the sleep trigger: the next wake after `now` (null = sleep to the end) */
  nextWake(now: number): number | null;
  /** under the cron trigger: schedules the policy installs at its first wake */
  cron?: string[];
}

/** One actor of a task's program shape (LLM agents): its own context, trigger and tool subset. */
export interface ProgramActor {
  /** actor id, `^[a-z0-9_-]{1,64}$`: ledgered as the actor, names its watcher workspace folder */
  id: string;
  /** its instruction (in place of the task's single-agent instruction) */
  instruction: string;
  /** names of the task tools it may call (its trigger's tools and `finish` are added) */
  tools: readonly string[];
}

export interface TaskDefinition<P = unknown> {
  id: string;
  version: string;
  scorer_version: string;
  title: string;
  axes: { time_sensitivity: string; reasoning: string; recurrence: string };
  params: z.ZodType<P>;
  episodes: Episode[];
  defaultEpisode: string;
  budget_usd: number;
  /** base cron schedule, used only under the cron trigger */
  baseSchedule: string;
  /** stream kinds the task reads */
  streams: string[];
  instruction(ctx: TaskRunContext<P>): string;
  tools(ctx: TaskRunContext<P>): ToolDef[];
  /** shared rate limiters named by the tools' `limiter` field (fresh instances per run) */
  limiters?(ctx: TaskRunContext<P>): Record<string, RateLimiter>;
  /** deadlines in [from, to) for the deadline guard */
  deadlines?(from: number, to: number, params: P, world: WorldStore): number[];
  createScorer(ctx: ScorerContext): Scorer;
  /** program shape of LLM runs: several actors in one wait party (absent: one actor "agent" with every
   * tool). Tools see the calling actor in `ToolContext.actor` and may scope themselves by it. */
  program?(ctx: TaskRunContext<P>): ProgramActor[];
  /** feedback payloads; the runner adds `get_feedback(since?)` under `oracle` and `self` */
  feedback?: TaskFeedback<P>;
  /**
   * Text appended to an LLM agent's wake marker (e.g. open-forecast's daily recap); null adds
   * nothing. Called once per wake, in order, with the wake's time and ledger reason.
   */
  wakeNote?(ctx: TaskRunContext<P>, wake: { at: number; reason: string }): string | null;
  referencePolicies: ReferencePolicy[];
  /** the primary metric's name (for `relive tasks`) and secondary names */
  metrics: { primary: string; direction: "higher" | "lower"; secondary: string[] };
}

export type CommitmentEvent = EventOf<"commitment">;
