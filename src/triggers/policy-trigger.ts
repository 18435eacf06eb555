import { z } from "zod";
import { MINUTE_MS } from "../common/time.js";
import { defineTool, ok } from "../tools/tool.js";
import { type AgentTrigger, agentWakeOf, type IntentSlot } from "./trigger.js";
import { TriggerDecisionSchema, type TriggerObservation, type TriggerPolicy } from "./trigger-policy.js";

export const POLICY_DONE_TOOL = "done";
/** the trigger id of a wake the policy decided (ledgered `wake.trigger_id`) */
export const POLICY_WAKE_ID = "policy";
/** a policy that answers "wake" at the instant the agent already woke at is asked again this much later */
export const POLICY_RECHECK_MS = MINUTE_MS;

export interface PolicyTriggerOptions {
  slot: IntentSlot;
  policy: TriggerPolicy;
  /** what became visible in (since, now]: the task's `observations`, read through the run's as-of view */
  observations: (since: number, now: number) => readonly TriggerObservation[];
  /** ledgers a note (a policy that threw or answered nonsense) */
  note: (kind: string, message: string) => void;
}

/**
 * The policy trigger (`--trigger interval:15m`, `--trigger keyword:<regex>`, `--trigger-module
 * ./policy.ts`): the agent ends each wake with `done(summary)`; the harness then asks the policy,
 * at the end of the wake and at every instant it names, `check(now, newObservations)` and wakes the
 * agent (reason `trigger`, id "policy") when it answers "wake". The agent is never woken twice at one
 * instant (a "wake" at the instant it already woke at is asked again POLICY_RECHECK_MS later). A due
 * kernel trigger (the deadline guard) wakes the agent during the policy's sleep, so the guard
 * composes with any policy. A policy that throws or answers anything but "wake" or
 * {sleepUntil > now} fails open: the agent wakes (a `trigger_policy_error` note says why).
 */
export function policyTrigger(o: PolicyTriggerOptions): AgentTrigger {
  const done = defineTool({
    name: POLICY_DONE_TOOL,
    description: `Free. End this wake; the trigger policy (${o.policy.name}) decides when you wake next.`,
    args: z.object({ summary: z.string().max(2000).optional().describe("what you did, for your own record") }).strict(),
    kind: "meta",
    run() {
      o.slot.set({ kind: "next_trigger", why: { kind: "tool", tool: POLICY_DONE_TOOL } });
      return ok({ done: true });
    },
  });
  let since: number | null = null;
  const decide = (now: number): "wake" | { sleepUntil: number } | { error: string } => {
    const obs = o.observations(since ?? now, now);
    since = now;
    let raw: unknown;
    try {
      raw = o.policy.check(now, obs);
    } catch (err) {
      return { error: `check threw: ${(err as Error).message}` };
    }
    const d = TriggerDecisionSchema.safeParse(raw);
    if (!d.success)
      return { error: `check answered ${JSON.stringify(raw) ?? String(raw)}; expected "wake" or {sleepUntil}` };
    if (d.data !== "wake" && !(d.data.sleepUntil > now))
      return { error: `check answered sleepUntil ${d.data.sleepUntil}, not after now (${now})` };
    return d.data;
  };
  return {
    kind: "policy",
    tools: [done],
    waitToolName: POLICY_DONE_TOOL,
    maxToolCallsPerWake: null,
    howYouRun: [
      "## How you run",
      `Simulated time stands still while you work. A trigger policy (${o.policy.name}) decides when you wake: when you`,
      "are done for now, call `done(summary)`; the policy then watches the clock and what becomes visible and wakes you.",
      'Each wake opens with "(woke at <time> for <reason>)". If you end a turn without calling a tool you are',
      "nudged once, then the wake ends. `finish(summary)` ends your participation for good.",
    ].join("\n"),
    install() {},
    async wait(self, intent) {
      switch (intent.kind) {
        case "next_trigger":
          break;
        case "sleep":
        case "program":
          throw new Error(`the policy trigger cannot ${intent.kind}`);
        default: {
          const never: never = intent;
          throw new Error(`unknown intent ${JSON.stringify(never)}`);
        }
      }
      const awakeAt = self.now();
      for (;;) {
        const now = self.now();
        let d = decide(now);
        if (typeof d === "object" && "error" in d) {
          o.note("trigger_policy_error", `${o.policy.name} at ${new Date(now).toISOString()}: ${d.error}`);
          d = "wake";
        }
        if (d === "wake") {
          if (now > awakeAt) return { at: now, reason: "trigger", triggerId: POLICY_WAKE_ID };
          d = { sleepUntil: now + POLICY_RECHECK_MS };
        }
        const w = agentWakeOf(await self.sleepUntil(d.sleepUntil));
        if (w.reason !== "sleep") return w;
      }
    },
  };
}
