import type { Kernel } from "../kernel/kernel.js";
import { type CronGateOptions, cronTrigger } from "./cron.js";
import { type PolicyTriggerOptions, policyTrigger } from "./policy-trigger.js";
import { sleepTrigger } from "./sleep.js";
import type { AgentTrigger, IntentSlot, TriggerKind } from "./trigger.js";
import { type WatcherTriggerOptions, watcherTrigger } from "./watcher-trigger.js";

/** Triggers an LLM agent can run under in this build. */
export const TRIGGERS_FOR_MODELS: readonly TriggerKind[] = ["sleep", "watcher", "cron", "policy"];

export interface CreateTriggerOptions {
  kind: TriggerKind;
  kernel: Kernel;
  actorId: string;
  slot: IntentSlot;
  baseSchedule: string;
  cronBase: "readonly" | "editable";
  /** cron only: entries installed beside the base (a scripted policy's own schedules) */
  extraSchedules?: readonly { id: string; cron_expr: string; note?: string; when?: string }[];
  /** cron only: a `when` gate on the base schedule */
  baseWhen?: string;
  /** cron only: what `when` gates run with (absent: create_schedule refuses `when`) */
  cronGate?: CronGateOptions;
  /** required for the watcher trigger */
  watcher?: Omit<WatcherTriggerOptions, "actorId" | "slot">;
  /** required for the policy trigger */
  policy?: Omit<PolicyTriggerOptions, "slot">;
}

/** The trigger an LLM agent runs under (sleep and watcher runs get no base schedule). */
export function createTrigger(o: CreateTriggerOptions): AgentTrigger {
  switch (o.kind) {
    case "sleep":
      return sleepTrigger(o.slot);
    case "cron":
      return cronTrigger({
        kernel: o.kernel,
        actorId: o.actorId,
        slot: o.slot,
        baseSchedule: o.baseSchedule,
        base: o.cronBase,
        ...(o.extraSchedules ? { extraSchedules: o.extraSchedules } : {}),
        ...(o.baseWhen !== undefined ? { baseWhen: o.baseWhen } : {}),
        ...(o.cronGate ? { gate: o.cronGate } : {}),
      });
    case "watcher":
      if (!o.watcher) throw new Error("the watcher trigger needs its workspace and tool wrappers");
      return watcherTrigger({ ...o.watcher, actorId: o.actorId, slot: o.slot });
    case "policy":
      if (!o.policy) throw new Error("the policy trigger needs its policy and the task's observations");
      return policyTrigger({ ...o.policy, slot: o.slot });
    default: {
      const never: never = o.kind;
      throw new Error(`unknown trigger ${String(never)}`);
    }
  }
}
