import { parseUtcInstant } from "../kernel/day.js";
import type { Actor } from "../kernel/kernel.js";
import type { EventOf } from "../ledger/events.js";
import type { ToolDef } from "../tools/tool.js";

export type TriggerKind = "sleep" | "watcher" | "cron" | "policy";

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
  /** `tool`: what the ledger's wait names when a task tool asked for the sleep (default "sleep") */
  | { kind: "sleep"; until: number; tool?: string }
  /** wait for the next trigger (or the fallback midnight wake); `tool` is what the ledger's wait names */
  | { kind: "next_trigger"; tool: string }
  | { kind: "program"; path: string; until: number | null }
  | { kind: "finish"; summary: string };

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
  /** called once, at the agent's first wake, before anything else */
  install(): void;
  /** performs `intent` (a sleep, a program run, ...) and returns the wake that ends it */
  wait(self: Actor, intent: Exclude<WaitIntent, { kind: "finish" }>): Promise<AgentWake>;
}

/** Maps a kernel wake to the agent's ledger reason (deadline-guard triggers become "deadline"). */
export function agentWakeOf(w: { at: number; reason: string; triggerId?: string }): AgentWake {
  switch (w.reason) {
    case "end":
      return { at: w.at, reason: "end" };
    case "trigger":
      if (w.triggerId !== undefined && isDeadlineGuardId(w.triggerId))
        return { at: w.at, reason: "deadline", triggerId: w.triggerId };
      return { at: w.at, reason: "trigger", ...(w.triggerId !== undefined ? { triggerId: w.triggerId } : {}) };
    case "start":
    case "sleep":
    case "cron":
    case "fallback":
      return { at: w.at, reason: w.reason, ...(w.triggerId !== undefined ? { triggerId: w.triggerId } : {}) };
    default:
      throw new Error(`unknown kernel wake reason "${w.reason}"`);
  }
}

/** Deadline-guard trigger ids ("deadline:<ISO>") cannot collide with agent schedule ids (no ':' allowed there). */
export const DEADLINE_GUARD_PREFIX = "deadline:";
export const isDeadlineGuardId = (id: string) => id.startsWith(DEADLINE_GUARD_PREFIX);

/** Reads an instant argument: epoch ms (number or digits) or ISO-8601 (a missing zone is UTC). */
export const parseInstantArg = parseUtcInstant;
