import type { z } from "zod";
import type { Rng } from "../common/random.js";
import type { TriggerKind } from "../common/trigger-kind.js";
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
  /**
   * How the world is obtained: the synthetic generator; a world recipe (real data; episodes of
   * recipes come from recipe files, src/recipes, never from task code); or a given world
   * directory (`--world DIR` with no episode named: `builder` is its manifest's).
   */
  world: { kind: "synth" } | { kind: "recipe"; recipe: string; name: string } | { kind: "real"; builder: string };
  description: string;
  /** default task parameters of the episode (a recipe's `episode.tasks.<task>.params`); a run's own override them */
  params?: Record<string, unknown>;
}

export interface Metric {
  name: string;
  value: number | null;
  direction: "higher" | "lower";
}

/**
 * One settled scored unit, appended to the ledger as an `outcome` event at `t` (its settlement
 * time: scoring uses it). `released_at` is when feedback may tell it: the later of `t` and the
 * instant every fact in its payload is visible in the world (DESIGN.md invariant 5). A scorer sets
 * it when its payload holds a fact visible after `t`; absent means `t` (see `releasedAtOf`).
 */
export interface Outcome {
  t: number;
  key: string;
  status: string;
  credit: number | null;
  /** ≥ t: the instant feedback, recaps and memories may release this outcome (absent: t) */
  released_at?: number;
  /**
   * Task-specific facts. By convention `reaction_h` (a number) is the hours from the dated event a
   * commitment answered (a news article, a filing, a fill, a resolution) to that commitment; results
   * summarize it as `diagnostics.reaction_h`. Tasks without such events leave it out.
   */
  detail: Record<string, unknown>;
}

/**
 * `released_at` of an outcome whose payload rests on a fact the world never makes visible (e.g. a
 * resolution after the world's end): the largest instant a Date can hold, so no clock reaches it.
 */
export const NEVER_RELEASED = 8.64e15;

/** When feedback may release an outcome: `released_at`, never before its settlement `t`. */
export const releasedAtOf = (o: Pick<Outcome, "t" | "released_at">): number => Math.max(o.t, o.released_at ?? o.t);

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
  /**
   * Optional one-pass anytime snapshot: the report a fresh scorer with window [sim_start, end)
   * would give after the ledger prefix before `end` (called in increasing `end`, after `settle(end)`).
   * Absent: anytime curves replay the ledger per day.
   */
  reportAt?(end: number): ScoreReport;
}

/** `feedback` of the run config: `none` is the blind condition (no channel at all). */
export type FeedbackCondition = "none" | "oracle" | "self";

/**
 * The oracle feedback channel: settled outcomes of this run, read from the run's own ledger.
 * Present in a TaskRunContext only under `feedback: oracle`, so a blind run has no path to it.
 */
export interface OracleFeedback {
  /**
   * outcomes released in (since, now] (`released_at`, not the settlement time `t`), in release order
   * (ties: settlement order); since = null: from the start
   */
  settled(since: number | null): Outcome[];
}

/** A task's `self` feedback, declared statically (absent = `self` is refused at config time). */
export interface SelfFeedbackSpec {
  description: string;
}

/**
 * What a task tool may ask of the agent's clock (e.g. open-forecast's `next_day`). Tools never wait:
 * `sleepUntil` leaves a wait intent that ends the current wake, exactly like the trigger's own
 * `sleep` tool, and is ledgered as a wait of `tool`.
 */
export interface TaskAgentClock {
  /** the run's trigger */
  trigger: TriggerKind;
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
  /** the harness's memory tools (`memory_read`, `memory_append`) are on for this run's LLM agents (absent: off) */
  memoryTools?: boolean;
  /**
   * The params with the run's current tuned values (`TaskSpec.tunable`; a restart switch or a
   * harness-optimizer edit changes them at a day boundary). Tools read a tunable param through it at
   * call time (`tunedParams(ctx)`); the scorer always has the configured `params`. Absent: `params`.
   */
  tuned?: () => P;
}

/** The params a tool should read now: the run's tuned values of the task's tunable params over `ctx.params`. */
export const tunedParams = <P>(ctx: TaskRunContext<P>): P => ctx.tuned?.() ?? ctx.params;

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

/** One run of a reference policy: its per-run state lives in this object (never in module-level maps). */
export interface PolicyRun {
  /** one wake's work */
  act(): Promise<void>;
  /** under the sleep trigger: the next wake after `now` (null = sleep to the end) */
  nextWake(now: number): number | null;
}

export interface ReferencePolicy {
  name: string;
  description: string;
  /** oracle policies read truth: tests and calibration only, never reachable from an agent path */
  oracle?: boolean;
  /** under the cron trigger: schedules the policy installs at its first wake */
  cron?: string[];
  /**
   * A fresh instance for one run. `oracle` is the truth environment, given by the runner only to
   * policies marked `oracle` (tests and calibration); every other policy gets null.
   */
  start(api: PolicyApi, oracle: OracleEnv | null): PolicyRun;
  /**
   * A variant with its parameters drawn from `rng` (the branches of a Best-of-N run, k ≥ 1; branch 0
   * runs the policy as it is). Absent: the policy has nothing to draw, and Best-of-N refuses it.
   */
  draw?(rng: Rng): ReferencePolicy;
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

/** One section of the state block: decision-critical state the harness shows at every wake. */
export interface StateSection {
  /** e.g. "pending claims", "open duties", "standing forecasts" */
  title: string;
  /** one line per item, already rendered for the agent (empty: nothing pending) */
  lines: string[];
  /**
   * how many of `lines` are open items that still need the agent (guidance v2 counts them); absent:
   * every line. 0 for sections of rights already used or facts (marks made, books filed, a cap's use).
   */
  open?: number;
}

/** Something that became visible to the agent (for trigger policies and counterfactual replay). */
export interface Observation {
  /** the instant it became visible */
  t: number;
  /** stream or event kind ("news", "reddit_post", "filing", "fill", ...) */
  kind: string;
  /** the agent-visible id */
  id: string;
  /** a short agent-visible summary (a title, a price, a form type) */
  summary: string;
}

/**
 * Everything one run of a task owns (relive's `TaskState`): created by `TaskDefinition.open(ctx)`
 * and called by the runner, with no hidden coupling between callbacks: the run's state lives in
 * this object, so two runs never share any.
 */
export interface TaskRun {
  /** the single-agent instruction (rendered with the run's budget, prices, window, credentials) */
  instruction(): string;
  /** the agent tools of this run (the runner calls this once) */
  tools(): ToolDef[];
  /** shared rate limiters named by the tools' `limiter` field */
  limiters(): Record<string, RateLimiter>;
  /**
   * Deadlines the agent could know of at `view`'s time, in [view.now(), until): derived only from what
   * is visible then (schedules, visible fills and filings), never from the future. For the deadline guard.
   */
  deadlines(view: AsOfView, until: number): number[];
  /** the decision-critical state shown every wake (pending claims, open duties, standing forecasts) */
  state(): StateSection[];
  /** what became visible in (since, now], in time order, read through the run's as-of view */
  observations(since: number, now: number): Observation[];
  /** program shape of LLM runs (null: one actor "agent" with every tool) */
  program(): ProgramActor[] | null;
  feedback: {
    /** the agent-facing payload of one settled outcome under `oracle`; null omits it */
    oracle(o: Outcome): Record<string, unknown> | null;
    /** `self` labels from data visible now (null when the task defines no `self` feedback) */
    self: ((since: number | null) => Record<string, unknown>[]) | null;
  };
  /** text appended to an LLM agent's wake marker (e.g. a daily recap); null adds nothing. Called once per wake. */
  wakeNote(wake: { at: number; reason: string }): string | null;
  /** run-end cleanup (browsers, servers); called once after the kernel stops, also when the run fails */
  dispose(): Promise<void>;
}

/** What a task author returns from `open`: only `instruction` and `tools` are required. */
export type TaskRunSpec = Pick<TaskRun, "instruction" | "tools"> &
  Partial<Omit<TaskRun, "instruction" | "tools" | "feedback">> & {
    feedback?: Partial<TaskRun["feedback"]>;
  };

/** The static part of a task: identity, windows, budget, metrics, the scorer factory and reference policies. */
export interface TaskSpec<P> {
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
  /**
   * The task's example watcher program (JavaScript for the watcher sandbox), seeded into the watcher
   * workspace as `watcher.example.js` and run by the scripted agent under the watcher trigger. Absent:
   * a generic hourly poll of the first data tool.
   */
  exampleWatcher?: string;
  /** stream kinds the task reads */
  streams: string[];
  /** those of `streams` it also runs without (a world given with `--world` must have rows of every other one) */
  optionalStreams?: string[];
  /**
   * Whether an LLM run gets the harness's memory tools (`memory_read`, `memory_append`) when the run
   * config leaves `agent.memory_tools` unset (absent: off). open-forecast: its `memory` parameter.
   */
  memoryToolsDefault?(params: P): boolean;
  /** true when `open(ctx).program()` gives several actors (LLM runs) */
  multiActor?: boolean;
  /**
   * The params the harness may tune mid-run (a restart's `--set task_params.<name>=…`, a harness-optimizer
   * edit), each with what it changes. Only agent-side knobs belong here (how a tool behaves: page sizes,
   * result counts), never anything the scorer, the world or a deadline reads: a tuned value reaches the
   * tools through `tunedParams(ctx)` and never the scorer. Tuned values are checked by `params`.
   */
  tunable?: Readonly<Record<string, string>>;
  /** `self` feedback exists (its labels come from `TaskRun.feedback.self`) */
  selfFeedback?: SelfFeedbackSpec;
  /**
   * The shortest time by which a deadline of this task is known in advance when that lead is fixed
   * by a parameter (e.g. a duty due a window after the fill that creates it), with the parameter's
   * name. The run config refuses a deadline-guard margin longer than it: the guard's wake would come
   * before the event that makes the deadline known (DESIGN.md invariant 5). Absent: deadlines are
   * known from the schedule, or their lead varies with the data (then a guard wake that would
   * precede the deadline's visibility is skipped by the guard).
   */
  deadlineLead?(params: P): { ms: number; param: string };
  /**
   * Scorers are pure functions of (truth, world, ledger events), built without a run, so rescore
   * and anytime curves can replay a ledger.
   */
  createScorer(ctx: ScorerContext): Scorer;
  referencePolicies: ReferencePolicy[];
  /** the primary metric's name (for `relive tasks`) and secondary names */
  metrics: { primary: string; direction: "higher" | "lower"; secondary: string[] };
}

/** A task as the runner sees it: the static spec plus `open`, which always returns a complete `TaskRun`. */
export interface TaskDefinition<P = unknown> extends TaskSpec<P> {
  open(ctx: TaskRunContext<P>): TaskRun;
}

/** A task with its parameter type erased (the registry, the runner, task modules). */
export interface AnyTask extends TaskSpec<unknown> {
  open(ctx: TaskRunContext<unknown>): TaskRun;
}

const defaultOraclePayload = (o: Outcome): Record<string, unknown> => ({
  key: o.key,
  status: o.status,
  credit: o.credit,
  ...o.detail,
});

/**
 * Defines a task. `open(ctx)` builds one run's state (tools, limiters, books) and returns the
 * callbacks that share it; members it leaves out get neutral defaults (no limiters, deadlines,
 * state or observations, one actor, the default oracle payload, no wake note, nothing to dispose).
 * Parameters are parsed with the task's schema before `open` sees them.
 */
export function defineTask<P>(spec: TaskSpec<P> & { open(ctx: TaskRunContext<P>): TaskRunSpec }): AnyTask {
  const { open, ...rest } = spec;
  return {
    ...(rest as TaskSpec<unknown>),
    open(ctx) {
      const { tuned: runTuned, ...base } = ctx;
      const params = spec.params.parse(ctx.params ?? {});
      // the runner's tuned params (the same object until an edit), parsed once per edit
      let seen: unknown = null;
      let parsed = params;
      const tuned = runTuned
        ? (): P => {
            const now = runTuned();
            if (now !== seen) {
              parsed = spec.params.parse(now);
              seen = now;
            }
            return parsed;
          }
        : undefined;
      const r = open({ ...base, params, ...(tuned ? { tuned } : {}) });
      if (spec.selfFeedback && !r.feedback?.self)
        throw new Error(`internal: task ${spec.id} declares self feedback but its run gives no labels`);
      if (spec.multiActor && !r.program) throw new Error(`internal: task ${spec.id} is multi-actor but has no program`);
      return {
        instruction: () => r.instruction(),
        tools: () => r.tools(),
        limiters: () => r.limiters?.() ?? {},
        deadlines: (view, until) => r.deadlines?.(view, until) ?? [],
        state: () => r.state?.() ?? [],
        observations: (since, now) => r.observations?.(since, now) ?? [],
        program: () => r.program?.() ?? null,
        feedback: { oracle: r.feedback?.oracle ?? defaultOraclePayload, self: r.feedback?.self ?? null },
        wakeNote: (w) => r.wakeNote?.(w) ?? null,
        dispose: async () => {
          await r.dispose?.();
        },
      };
    },
  };
}

export type CommitmentEvent = EventOf<"commitment">;
