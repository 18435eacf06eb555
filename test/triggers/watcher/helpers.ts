import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Actor, Kernel } from "../../../src/kernel/kernel.js";
import type { ToolResult } from "../../../src/tools/tool.js";
import { type ProgramEnd, type RunProgramOptions, runProgram } from "../../../src/triggers/watcher/run-program.js";
import { Workspace } from "../../../src/triggers/watcher/workspace.js";

export const START = Date.parse("2026-03-01T00:00:00Z");
export const MIN = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

export function tmpWorkspace(): Workspace {
  return new Workspace(mkdtempSync(join(tmpdir(), "relive-watcher-")));
}

export interface Driven {
  end: ProgramEnd;
  kernel: Kernel;
  /** sim times of every sleepUntil the program caused */
  sleeps: number[];
  /** every wrapper call: tool, args, sim time */
  calls: { tool: string; args: unknown; at: number }[];
  /** the actor's clock when runProgram returned */
  endedAt: number;
}

export interface DriveOptions extends Partial<Omit<RunProgramOptions, "source" | "actor" | "wrappers">> {
  days?: number;
  /** results of the fake wrappers (default: ok({ tool, args, at })) */
  result?: (tool: string, args: unknown, at: number) => ToolResult;
  tools?: string[];
  /** set up triggers etc. before the run */
  before?: (kernel: Kernel) => void;
}

/** Run `source` as a watcher program in the body of actor "agent" of a fresh kernel. */
export async function drive(source: string, o: DriveOptions = {}): Promise<Driven> {
  const kernel = new Kernel({ start: START, end: START + (o.days ?? 28) * DAY });
  const sleeps: number[] = [];
  const calls: Driven["calls"] = [];
  const workspace = o.workspace ?? tmpWorkspace();
  let end: ProgramEnd | undefined;
  let endedAt = Number.NaN;
  const wrappers: RunProgramOptions["wrappers"] = {};
  for (const tool of o.tools ?? ["quote"]) {
    wrappers[tool] = async (args) => {
      const at = kernel.now();
      calls.push({ tool, args, at });
      return o.result ? o.result(tool, args, at) : { ok: true, value: { tool, args: args ?? null, at } };
    };
  }
  o.before?.(kernel);
  kernel.spawn("agent", async (actor) => {
    const spy: Actor = {
      id: actor.id,
      now: () => actor.now(),
      sleepUntil: (t) => {
        sleeps.push(t);
        return actor.sleepUntil(t);
      },
      waitForTrigger: () => actor.waitForTrigger(),
    };
    end = await runProgram({
      source,
      path: o.path ?? "watch.js",
      actor: spy,
      deadline: o.deadline ?? null,
      wrappers,
      workspace,
      ...(o.stepBudget !== undefined ? { stepBudget: o.stepBudget } : {}),
      ...(o.memoryLimitBytes !== undefined ? { memoryLimitBytes: o.memoryLimitBytes } : {}),
      ...(o.maxStackBytes !== undefined ? { maxStackBytes: o.maxStackBytes } : {}),
      ...(o.maxCallsBetweenWaits !== undefined ? { maxCallsBetweenWaits: o.maxCallsBetweenWaits } : {}),
      ...(o.randomSeed !== undefined ? { randomSeed: o.randomSeed } : {}),
      ...(o.onReleaseFailure !== undefined ? { onReleaseFailure: o.onReleaseFailure } : {}),
    });
    endedAt = actor.now();
  });
  await kernel.run();
  if (end === undefined) throw new Error("runProgram did not return");
  return { end, kernel, sleeps, calls, endedAt };
}

export function errorOf(end: ProgramEnd): string {
  if (end.kind !== "error") throw new Error(`expected kind "error", got ${JSON.stringify(end)}`);
  return end.error;
}

export function payloadOf(end: ProgramEnd): unknown {
  if (end.kind !== "handover") throw new Error(`expected kind "handover", got ${JSON.stringify(end)}`);
  return end.payload;
}
