import type { Actor } from "../kernel/kernel.js";
import type { LedgerWriter } from "../ledger/ledger-writer.js";
import type { OracleEnv, PolicyApi, PolicyRun, ReferencePolicy } from "../tasks/task.js";
import type { ToolRuntime } from "../tools/tool-runtime.js";
import { type AgentTrigger, type AgentWake, type WaitIntent, waitToolOf, waitUntilOf } from "../triggers/trigger.js";
import { EXAMPLE_WATCHER } from "../triggers/watcher/seed.js";
import { RUN_PROGRAM_TOOL } from "../triggers/watcher-trigger.js";

type Intent = Exclude<WaitIntent, { kind: "finish" }>;

export interface ScriptedAgentOptions {
  policy: ReferencePolicy;
  /**
   * The run's trigger, built exactly as for an LLM agent (`createTrigger`): its `install` sets up the
   * base schedule (cron; the policy's own entries come in as `extraSchedules`) or seeds the workspace
   * (watcher), and its `wait` performs every wait.
   */
  trigger: AgentTrigger;
  runtime: ToolRuntime;
  ledger: LedgerWriter;
  /** only for oracle policies (tests and calibration); null on every agent path */
  oracleEnv: OracleEnv | null;
  /** run once at the first wake, after the trigger's install (the deadline guard) */
  onStart?: () => void;
}

/** The workspace program a scripted agent runs under the watcher trigger: the task's example watcher. */
export const SCRIPTED_WATCHER_PROGRAM = EXAMPLE_WATCHER;

/**
 * The scripted agent (`scripted:<policy>`): runs a task's reference policy over the same tool
 * runtime an LLM agent uses, woken by the run's trigger through the trigger's own install and wait:
 * - sleep: it sleeps until the policy's `nextWake` (none: the next trigger, at the latest midnight);
 * - cron: it waits for the next firing of the base schedule or the policy's own entries;
 * - watcher: it runs the task's example watcher (`watcher.example.js`, seeded by the trigger) in the
 *   sandbox with the policy's `nextWake` as the program's deadline (run_program's `until`), and the
 *   policy acts at each handover, end or stop of the program.
 * Under the watcher trigger the first wake validates the program (`run_program` with `validate: true`)
 * and stops the run with a clear error when it does not validate.
 * A policy acts at most once per instant: further wakes due at the instant it already acted at
 * (simultaneous schedule entries, a guard wake on a firing) are consumed without a second act and are
 * not ledgered; a watcher program that ends at the instant it started is not restarted then (the agent
 * sleeps to the policy's next wake, or waits for the next trigger), so a program that hands over at
 * once cannot spin. Every wake
 * the policy acts on and every wait is ledgered, as the ReAct agent does.
 */
export function scriptedAgentBody(o: ScriptedAgentOptions): (self: Actor) => Promise<void> {
  return async (self) => {
    const actor = self.id;
    const api: PolicyApi = { now: () => self.now(), call: (tool, args) => o.runtime.call(actor, tool, args) };
    if (o.policy.oracle && !o.oracleEnv)
      throw new Error(`policy "${o.policy.name}" is an oracle: it runs only with an oracle environment`);
    const policy = o.policy.start(api, o.policy.oracle ? o.oracleEnv : null);

    o.trigger.install();
    o.onStart?.();
    let wake: AgentWake = { at: self.now(), reason: "start" };
    let actedAt: number | null = null;
    let intent: Intent | null = null;
    while (wake.reason !== "end") {
      if (wake.at === actedAt && intent !== null) {
        // already acted at this instant: wait again without acting (a program that ended at once
        // is not restarted at the same instant)
        const again: Intent =
          intent.kind === "program" ? sleepOrTrigger(policy.nextWake(wake.at), "run_program") : intent;
        wake = await o.trigger.wait(self, again);
        continue;
      }
      o.ledger.append({
        type: "wake",
        t: wake.at,
        actor,
        reason: wake.reason,
        ...(wake.triggerId !== undefined ? { trigger_id: wake.triggerId } : {}),
      });
      if (actedAt === null && o.trigger.kind === "watcher") await validateWatcher(o.runtime, actor);
      await policy.act();
      actedAt = self.now();
      intent = intentOf(o.trigger, policy, actedAt);
      o.ledger.append({
        type: "wait",
        t: actedAt,
        actor,
        until: waitUntilOf(intent),
        tool: waitToolOf(intent),
      });
      wake = await o.trigger.wait(self, intent);
    }
  };
}

/** The first wake under the watcher trigger checks the program (`run_program` with `validate: true`: free, no time). */
async function validateWatcher(runtime: ToolRuntime, actor: string): Promise<void> {
  const r = await runtime.call(actor, RUN_PROGRAM_TOOL, { path: SCRIPTED_WATCHER_PROGRAM, validate: true });
  const v = r.ok ? (r.value as { valid?: boolean; error?: string }) : { valid: false, error: r.error };
  if (v.valid !== true)
    throw new Error(
      `the task's example watcher ${SCRIPTED_WATCHER_PROGRAM} does not validate: ${v.error ?? "no answer"}`,
    );
}

const sleepOrTrigger = (next: number | null, tool: string): Intent =>
  next === null ? { kind: "next_trigger", why: { kind: "tool", tool } } : { kind: "sleep", until: next };

/** What the scripted agent waits for after the policy acted at `now`, per trigger. */
function intentOf(trigger: AgentTrigger, policy: PolicyRun, now: number): Intent {
  switch (trigger.kind) {
    case "sleep":
      return sleepOrTrigger(policy.nextWake(now), "sleep");
    case "cron":
      return { kind: "next_trigger", why: { kind: "tool", tool: "done" } };
    case "policy":
      return { kind: "next_trigger", why: { kind: "tool", tool: "done" } };
    case "watcher":
      // the policy's own next wake is the program's deadline (run_program's `until`)
      return { kind: "program", path: SCRIPTED_WATCHER_PROGRAM, until: policy.nextWake(now) };
    default: {
      const never: never = trigger.kind;
      throw new Error(`unknown trigger ${String(never)}`);
    }
  }
}

/** A policy's own cron entries (installed beside the base schedule under the cron trigger). */
export function scriptedSchedules(policy: ReferencePolicy): { id: string; cron_expr: string; note: string }[] {
  return (policy.cron ?? []).map((cron_expr, i) => ({
    id: `policy-${i + 1}`,
    cron_expr,
    note: `installed by policy ${policy.name}`,
  }));
}
