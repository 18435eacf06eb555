import { parseUtcInstant } from "../common/time.js";
import type { TriggerKind } from "../common/trigger-kind.js";
import type { Actor } from "../kernel/kernel.js";
import type { EventOf } from "../ledger/events.js";
import type { ToolDef } from "../tools/tool.js";

export type { TriggerKind };

/** Why the agent woke, as ledgered (`wake.reason`). */
export type AgentWakeReason = EventOf<"wake">["reason"];

/** A wake of the ReAct agent: a kernel wake mapped to its ledger reason, or the end of the run. */
export type AgentWake =
  | { at: number; reason: AgentWakeReason; triggerId?: string; detail?: string }
  | { at: number; reason: "end" };

/**
 * What a wait tool asks for. Wait tools never move the clock themselves (tools must not wait):
 * they validate their arguments and leave an intent in the agent's `IntentSlot`; the agent ends its
 * wake and the trigger performs the wait.
 */
export type WaitIntent =
  /** `tool`: the task tool that asked for the sleep (absent: the trigger's own `sleep`) */
  | { kind: "sleep"; until: number; tool?: string }
  /** wait for the next trigger (or the fallback midnight wake); `why`: what ended the wake */
  | { kind: "next_trigger"; why: WakeEndCause }
  | { kind: "program"; path: string; until: number | null }
  | { kind: "finish"; summary: string };

/**
 * Why a wake ended with a wait for the next trigger: a wait tool the agent called (cron's `done`),
 * or the harness ending the wake itself.
 */
export type WakeEndCause =
  | { kind: "tool"; tool: string }
  /** the trigger's tool calls per wake are used up (cron: 30 per firing) */
  | { kind: "episode_cap" }
  /** too many tool calls without a clock-moving wait */
  | { kind: "runaway" }
  /** no more model calls: the LLM budget refused one, or the agent stopped calling the model */
  | { kind: "no_llm" }
  /** the model call failed after its retries */
  | { kind: "model_failed" }
  /** too many cut-off replies in a row */
  | { kind: "truncated" }
  /** a second reply without a tool call after the nudge */
  | { kind: "implicit_wait" };

/**
 * The `tool` field a wait is ledgered with. The recorded values are fixed by the ledger format
 * (existing ledgers are verified line by line on resume): the tool's name, `sleep`, `run_program`,
 * or the harness's own reason (`episode_cap`, `runaway`, `no_llm`, `model_failed`, `truncated`,
 * `implicit_wait`).
 */
export function waitToolOf(intent: Exclude<WaitIntent, { kind: "finish" }>): string {
  switch (intent.kind) {
    case "sleep":
      return intent.tool ?? "sleep";
    case "program":
      return "run_program";
    case "next_trigger":
      return wakeEndName(intent.why);
    default: {
      const never: never = intent;
      throw new Error(`unknown intent ${JSON.stringify(never)}`);
    }
  }
}

function wakeEndName(why: WakeEndCause): string {
  switch (why.kind) {
    case "tool":
      return why.tool;
    case "episode_cap":
    case "runaway":
    case "no_llm":
    case "model_failed":
    case "truncated":
    case "implicit_wait":
      return why.kind;
    default: {
      const never: never = why;
      throw new Error(`unknown wake end ${JSON.stringify(never)}`);
    }
  }
}

/** The requested wake time a wait is ledgered with (`wait.until`; null: the next trigger). */
export function waitUntilOf(intent: Exclude<WaitIntent, { kind: "finish" }>): number | null {
  return intent.kind === "sleep" || intent.kind === "program" ? intent.until : null;
}

/** The one mutable slot a wait tool writes into (one per agent). */
export class IntentSlot {
  current: WaitIntent | null = null;

  set(intent: WaitIntent): void {
    this.current = intent;
  }

  take(): WaitIntent | null {
    const i = this.current;
    this.current = null;
    return i;
  }
}

/**
 * How an agent is woken: the trigger hands the agent its wait tools and "how you run" text, installs
 * what it needs at the first wake, and performs the waits. One ReAct loop serves every trigger.
 */
export interface AgentTrigger {
  readonly kind: TriggerKind;
  /** wait and schedule tools (free `meta` tools registered with the run's ToolRuntime) */
  readonly tools: ToolDef[];
  /** the trigger's part of the system prompt */
  readonly howYouRun: string;
  /** the name of the tool that ends a wake (used in nudges) */
  readonly waitToolName: string;
  /** at most this many tool calls per wake (cron: 30 per firing); null = only the runaway guard */
  readonly maxToolCallsPerWake: number | null;
  /**
   * the trigger's own decision-critical state for the agent's state block (cron: the pending
   * schedule entries), as sections of one line per item; absent: none
   */
  state?(): { title: string; lines: string[]; open?: number }[];
  /** called once, at the agent's first wake, before anything else */
  install(): void;
  /** performs `intent` (a sleep, a program run, ...) and returns the wake that ends it */
  wait(self: Actor, intent: Exclude<WaitIntent, { kind: "finish" }>): Promise<AgentWake>;
}

/** Maps a kernel wake to the agent's ledger reason (deadline-guard triggers become "deadline", learn wakes "learn"). */
export function agentWakeOf(w: { at: number; reason: string; triggerId?: string }): AgentWake {
  switch (w.reason) {
    case "end":
      return { at: w.at, reason: "end" };
    case "trigger":
      if (w.triggerId !== undefined && isDeadlineGuardId(w.triggerId))
        return { at: w.at, reason: "deadline", triggerId: w.triggerId };
      if (w.triggerId !== undefined && isLearnId(w.triggerId))
        return { at: w.at, reason: "learn", triggerId: w.triggerId };
      return { at: w.at, reason: "trigger", ...(w.triggerId !== undefined ? { triggerId: w.triggerId } : {}) };
    case "cron":
      if (w.triggerId !== undefined && isLearnId(w.triggerId))
        return { at: w.at, reason: "learn", triggerId: w.triggerId };
      return { at: w.at, reason: w.reason, ...(w.triggerId !== undefined ? { triggerId: w.triggerId } : {}) };
    case "start":
    case "sleep":
    case "fallback":
      return { at: w.at, reason: w.reason, ...(w.triggerId !== undefined ? { triggerId: w.triggerId } : {}) };
    default:
      throw new Error(`unknown kernel wake reason "${w.reason}"`);
  }
}

/** Deadline-guard trigger ids ("deadline:<ISO>") cannot collide with agent schedule ids (no ':' allowed there). */
export const DEADLINE_GUARD_PREFIX = "deadline:";
export const isDeadlineGuardId = (id: string) => id.startsWith(DEADLINE_GUARD_PREFIX);
/** The daily learn wake of outcome and reflection memory (src/learning): "learn:daily", hidden from schedules like the guard's. */
export const LEARN_PREFIX = "learn:";
export const isLearnId = (id: string) => id.startsWith(LEARN_PREFIX);
/** Harness-installed triggers (deadline guard, learn wake): never listed or edited as the agent's schedules. */
export const isHarnessTriggerId = (id: string) => isDeadlineGuardId(id) || isLearnId(id);

/** Reads an instant argument: epoch ms (number or digits) or ISO-8601 (a missing zone is UTC). */
export const parseInstantArg = parseUtcInstant;
