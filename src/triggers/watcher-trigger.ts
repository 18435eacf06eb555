import { z } from "zod";
import { isoInstant } from "../common/time.js";
import { defineTool, ok, reject, type ToolResult } from "../tools/tool.js";
import type { ToolDoc } from "../tools/tool-runtime.js";
import { type AgentTrigger, agentWakeOf, type IntentSlot, parseInstantArg } from "./trigger.js";
import { runProgram, validateProgram } from "./watcher/run-program.js";
import { seedWorkspace } from "./watcher/seed.js";
import type { Workspace } from "./watcher/workspace.js";
import { workspaceTools } from "./watcher/workspace-tools.js";

export const RUN_PROGRAM_TOOL = "run_program";

export interface WatcherTriggerOptions {
  actorId: string;
  slot: IntentSlot;
  taskId: string;
  /** the task's own example watcher (absent: `exampleWatcher`, a generic hourly poll) */
  exampleWatcher?: string;
  workspace: Workspace;
  /** the task's data tools (one envkit wrapper each) */
  dataTools: () => ToolDoc[];
  /** runs one task tool for the program exactly like the agent's own call (billed, rate-limited, ledgered) */
  callTool: (name: string, args: unknown) => Promise<ToolResult>;
  /** ledgers a note (program failures) */
  note: (kind: string, message: string) => void;
  now: () => number;
  stepBudget?: number;
  memoryLimitBytes?: number;
}

/** A generic example watcher, for tasks without their own: poll one data tool hourly, hand over on change. */
export function exampleWatcher(tool: string | undefined): string {
  if (tool === undefined) return "// this task has no data tools for programs; use sleep.js\n";
  return [
    `// watcher.example.js: every hour, call envkit.tools.${tool}(ARGS) and hand over when the answer changes.`,
    "// Fill in ARGS (see envkit.d.ts), copy this file, and start it with run_program.",
    "const ARGS = {};",
    "const STEP = 60 * 60 * 1000;",
    "let last = null;",
    "for (;;) {",
    `  const r = await envkit.tools.${tool}(ARGS);`,
    "  const text = JSON.stringify(r);",
    "  if (last !== null && text !== last) envkit.handover({ changed: true, result: r });",
    "  last = text;",
    "  await envkit.wait(envkit.now() + STEP);",
    "}",
    "",
  ].join("\n");
}

/**
 * The watcher trigger: no sleep tool. The agent holds the workspace file tools and
 * `run_program(path, until?, validate?)`; a program runs on the kernel clock (its `envkit.wait` is
 * the only way time moves) until it hands over, returns, fails (fail open) or a trigger, its
 * deadline or the end of the experiment stops it, and the agent wakes with that outcome.
 */
export function watcherTrigger(o: WatcherTriggerOptions): AgentTrigger {
  const ws = o.workspace;
  const runTool = defineTool({
    name: RUN_PROGRAM_TOOL,
    description:
      "Free. Start the watcher program at `path` (JavaScript in the workspace; see envkit.d.ts and sleep.js) and end this wake: " +
      "you wake when it calls envkit.handover(payload), returns, fails, a schedule is due, `until` passes or the experiment ends. " +
      "`validate: true` only checks the program (zero cost, zero time) up to its first envkit effect.",
    args: z
      .object({
        path: z.string().describe("workspace path of the program"),
        until: z
          .union([z.string(), z.number()])
          .optional()
          .describe("deadline (ISO-8601 or epoch ms): envkit.deadline(); the program stops there"),
        validate: z.boolean().optional().describe("only check the program"),
      })
      .strict(),
    kind: "meta",
    async run(a, ctx) {
      let source: string;
      try {
        source = ws.readText(a.path);
      } catch (err) {
        return reject(`run_program: ${(err as Error).message}`);
      }
      let until: number | null = null;
      if (a.until !== undefined) {
        until = parseInstantArg(a.until);
        if (until === null)
          return reject(`run_program: cannot read until=${JSON.stringify(a.until)}; use ISO-8601 or epoch ms`);
        if (!(until > ctx.now()))
          return reject(`run_program: until ${isoInstant(until)} is not after now (${isoInstant(ctx.now())})`);
      }
      if (a.validate) {
        const v = await validateProgram({
          source,
          path: a.path,
          toolNames: o.dataTools().map((d) => d.name),
          now: ctx.now(),
          deadline: until,
          workspace: ws,
          ...(o.stepBudget ? { stepBudget: o.stepBudget } : {}),
          ...(o.memoryLimitBytes ? { memoryLimitBytes: o.memoryLimitBytes } : {}),
        });
        return ok(v.ok ? { valid: true } : { valid: false, error: v.error });
      }
      o.slot.set({ kind: "program", path: a.path, until });
      return ok({ started: a.path, until: until === null ? null : isoInstant(until) });
    },
  });

  return {
    kind: "watcher",
    tools: [...workspaceTools(ws), runTool],
    waitToolName: RUN_PROGRAM_TOOL,
    maxToolCallsPerWake: null,
    howYouRun: [
      "## How you run",
      "Simulated time stands still while you work. You have no sleep tool: to let time pass, write a watcher",
      "program (JavaScript) in your workspace and start it with `run_program(path, until?)`. The program runs in a",
      "sandbox with one global, `envkit` (see envkit.d.ts): `await envkit.wait(t)` lets time pass, `await",
      "envkit.tools.<name>(args)` calls a data tool (billed and rate-limited like your own calls), and",
      "`envkit.handover(payload)` wakes you with the payload. sleep.js is the simplest program. Programs can call",
      "only the data tools: they cannot commit (claims, reports, forecasts and every other commitment are yours",
      "alone), so a program that finds something to act on hands over to you.",
      'Each wake opens with "(woke at <time> for <reason>)" and what the program did. A crashing program wakes you',
      "with its error. If you end a turn without calling a tool you are nudged once, then you wait until the next",
      "midnight UTC. `finish(summary)` ends your participation for good.",
    ].join("\n"),
    install() {
      const docs = o.dataTools();
      seedWorkspace(ws, {
        taskId: o.taskId,
        wrapperDocs: docs.map((d) => ({ name: d.name, description: d.description, parameters: d.parameters })),
        exampleWatcher: o.exampleWatcher ?? exampleWatcher(docs[0]?.name),
      });
    },
    async wait(self, intent) {
      switch (intent.kind) {
        case "next_trigger":
          return agentWakeOf(await self.waitForTrigger());
        case "sleep":
          // no agent tool leaves one (the agent has no sleep tool); the scripted agent does when its
          // program ended at the instant it started (so it cannot spin)
          return agentWakeOf(await self.sleepUntil(intent.until));
        case "program": {
          let source: string;
          try {
            source = ws.readText(intent.path);
          } catch (err) {
            return {
              at: self.now(),
              reason: "program_end",
              detail: `program ${intent.path} could not start: ${(err as Error).message}`,
            };
          }
          const wrappers: Record<string, (args: unknown) => Promise<ToolResult>> = {};
          for (const d of o.dataTools()) wrappers[d.name] = (args) => o.callTool(d.name, args);
          const end = await runProgram({
            source,
            path: intent.path,
            actor: self,
            deadline: intent.until,
            wrappers,
            workspace: ws,
            ...(o.stepBudget ? { stepBudget: o.stepBudget } : {}),
            ...(o.memoryLimitBytes ? { memoryLimitBytes: o.memoryLimitBytes } : {}),
            onReleaseFailure: (m) => o.note("sandbox_release_failed", `${intent.path}: ${m}`),
          });
          switch (end.kind) {
            case "handover":
              return {
                at: self.now(),
                reason: "handover",
                detail: `program ${intent.path} handed over: ${JSON.stringify(end.payload)}`,
              };
            case "woken": {
              const w = agentWakeOf(end.wake);
              if (w.reason === "end") return w;
              return { ...w, detail: `program ${intent.path} was stopped by this wake` };
            }
            case "returned":
              return {
                at: self.now(),
                reason: "program_end",
                detail: `program ${intent.path} returned without handing over`,
              };
            case "error":
              o.note("program_error", `${intent.path}: ${end.error}`);
              return { at: self.now(), reason: "program_end", detail: `program ${intent.path} failed: ${end.error}` };
            default: {
              const never: never = end;
              throw new Error(`unknown program end ${JSON.stringify(never)}`);
            }
          }
        }
        default: {
          const never: never = intent;
          throw new Error(`unknown intent ${JSON.stringify(never)}`);
        }
      }
    },
  };
}
