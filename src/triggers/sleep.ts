import { z } from "zod";
import { isoInstant } from "../common/time.js";
import { defineTool, ok, reject, type ToolDef } from "../tools/tool.js";
import { type AgentTrigger, agentWakeOf, type IntentSlot, parseInstantArg } from "./trigger.js";

export const SLEEP_TOOL = "sleep";

const SleepArgs = z
  .object({
    until: z
      .union([z.string(), z.number()])
      .describe('when to wake: ISO-8601 ("2026-03-01T12:30:00Z") or epoch milliseconds; must be after now'),
  })
  .strict();

/** The `sleep(until)` tool: validates `until` (> now) and leaves a sleep intent; the wake ends after it. */
export function sleepTool(slot: IntentSlot): ToolDef {
  return defineTool({
    name: SLEEP_TOOL,
    description:
      "Free. End this wake and sleep until `until` (ISO-8601 or epoch ms, after now). You are woken then, earlier if " +
      "a scheduled trigger is due (the wake says why), or the experiment ends. The other tool calls of the same reply run first; a second wait in it is rejected.",
    args: SleepArgs,
    kind: "meta",
    run(a, ctx) {
      const t = parseInstantArg(a.until);
      if (t === null)
        return reject(
          `sleep: cannot read until=${JSON.stringify(a.until)}; use ISO-8601 like "2026-03-01T12:30:00Z" or epoch ms`,
        );
      const now = ctx.now();
      if (!(t > now)) return reject(`sleep: until ${isoInstant(t)} is not after now (${isoInstant(now)})`);
      slot.set({ kind: "sleep", until: t });
      return ok({ sleeping_until: isoInstant(t) });
    },
  });
}

/** The sleep trigger: the agent holds `sleep(until)`; only the bootstrap, fallback and guard wakes exist besides. */
export function sleepTrigger(slot: IntentSlot): AgentTrigger {
  return {
    kind: "sleep",
    tools: [sleepTool(slot)],
    waitToolName: SLEEP_TOOL,
    maxToolCallsPerWake: null,
    howYouRun: [
      "## How you run",
      "Simulated time stands still while you work and moves only while you sleep. Each time you wake, a line",
      '"(woke at <time> for <reason>)" tells you the time and why. When you are done for now, call',
      "`sleep(until)` with the time you want to wake next; choose it so you are awake when your work is due.",
      "If you end a turn without calling a tool you are nudged once, then you wait for the next trigger",
      "(at the latest the next midnight UTC). `finish(summary)` ends your participation for good.",
    ].join("\n"),
    install() {},
    async wait(self, intent) {
      switch (intent.kind) {
        case "sleep":
          return agentWakeOf(await self.sleepUntil(intent.until));
        case "next_trigger":
          return agentWakeOf(await self.waitForTrigger());
        case "program":
          throw new Error("the sleep trigger cannot run programs");
        default: {
          const never: never = intent;
          throw new Error(`unknown intent ${JSON.stringify(never)}`);
        }
      }
    },
  };
}
