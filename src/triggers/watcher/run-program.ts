import type { Actor, Wake } from "../../kernel/kernel.js";
import type { ToolResult } from "../../tools/tool.js";
import { MAX_STACK_CAP_BYTES, SandboxSession, type SessionOptions } from "./sandbox-session.js";
import type { Workspace } from "./workspace.js";

/**
 * Watcher programs: JavaScript run in a QuickJS sandbox with one frozen global, `envkit`
 * (harness.md, Triggers → watcher). Suspension uses the promise API of the synchronous QuickJS
 * build: the program is an ES module, `await envkit.wait(until)` and
 * `await envkit.tools.<name>(args)` return promises that the host settles, so nothing blocks and
 * many suspended programs can share one WebAssembly instance. The host settles requests strictly
 * in the order the program issued them: every data tool call issued at an instant runs (through
 * the caller's billed, rate-limited wrapper) before the clock moves, and a wait is the only thing
 * that moves it. Same source + same wrapper results + same clock → the same waits and results.
 */

export type ProgramEnd =
  /** envkit.handover(payload) ended the program (payload: JSON ≤ 16 KB, parsed) */
  | { kind: "handover"; payload: unknown }
  /** a trigger became due, the deadline passed or the experiment ended during envkit.wait */
  | { kind: "woken"; wake: Wake }
  /** the program finished without handing over */
  | { kind: "returned" }
  /** crash (message with line numbers), step budget, memory, stack, oversized handover, wait into the past, ...: fails open */
  | { kind: "error"; error: string };

export interface RunProgramOptions {
  source: string;
  /** workspace path of the program, used in error messages */
  path: string;
  /** waits go through actor.sleepUntil (the only way time moves) */
  actor: Actor;
  /** run_program's `until` (envkit.deadline()); a wait reaching it ends the program with kind "woken", reason "sleep", at the deadline */
  deadline: number | null;
  /** one per task data tool, billed and rate-limited by the caller (they call ToolRuntime) */
  wrappers: Record<string, (args: unknown) => Promise<ToolResult>>;
  workspace: Workspace;
  /** interrupt-handler polls (about 10,000 operations each) allowed between consecutive waits; default 200 */
  stepBudget?: number;
  /** default 64 MB: the sandbox's linear memory (all its allocations, typed arrays and strings included) never exceeds it (nor 16 MiB, the build's minimum, if smaller) */
  memoryLimitBytes?: number;
  /** QuickJS stack cap; default 192 KB, at most 256 KiB (see README: larger values let recursion reach the host's native stack first) */
  maxStackBytes?: number;
  /** envkit.tools calls allowed at one simulated instant (between waits that move the clock); default 200 (the agent's runaway guard) */
  maxCallsBetweenWaits?: number;
  /** seed of the sandbox's Math.random; default 1 */
  randomSeed?: number;
  /** told when releasing the sandbox failed after the program ended (the end stands; the instance is dropped) */
  onReleaseFailure?: (message: string) => void;
}

export interface ValidateProgramOptions {
  source: string;
  path: string;
  /** names of the task data tools (envkit.tools.<name>) */
  toolNames: string[];
  /** simulated now (envkit.now(), Date) */
  now: number;
  deadline: number | null;
  workspace: Workspace;
  stepBudget?: number;
  memoryLimitBytes?: number;
  maxStackBytes?: number;
}

export const DEFAULT_STEP_BUDGET = 200;
export const DEFAULT_MEMORY_LIMIT_BYTES = 64 * 1024 * 1024;
export const DEFAULT_MAX_STACK_BYTES = 192 * 1024;
export const DEFAULT_MAX_CALLS_BETWEEN_WAITS = 200;
export const DEFAULT_RANDOM_SEED = 1;

const iso = (t: number) => new Date(t).toISOString();

function positiveInt(what: string, v: number | undefined, dflt: number): number {
  const x = v ?? dflt;
  if (!Number.isInteger(x) || x <= 0) throw new RangeError(`${what} must be a positive integer, got ${x}`);
  return x;
}

/** The sandbox caps of a program (defaults filled in, refused when out of range). */
export function sandboxLimits(o: { stepBudget?: number; memoryLimitBytes?: number; maxStackBytes?: number }) {
  const maxStackBytes = positiveInt("maxStackBytes", o.maxStackBytes, DEFAULT_MAX_STACK_BYTES);
  if (maxStackBytes > MAX_STACK_CAP_BYTES)
    throw new RangeError(
      `maxStackBytes must be at most ${MAX_STACK_CAP_BYTES} (256 KiB), got ${maxStackBytes}: larger caps let recursion exhaust the host's native stack before QuickJS's own check`,
    );
  return {
    stepBudget: positiveInt("stepBudget", o.stepBudget, DEFAULT_STEP_BUDGET),
    memoryLimitBytes: positiveInt("memoryLimitBytes", o.memoryLimitBytes, DEFAULT_MEMORY_LIMIT_BYTES),
    maxStackBytes,
  };
}

/** Run a watcher program until it hands over, returns, fails or a wait is interrupted. */
export async function runProgram(o: RunProgramOptions): Promise<ProgramEnd> {
  const start = o.actor.now();
  if (o.deadline !== null && !(o.deadline >= start))
    return { kind: "error", error: `run_program: until ${iso(o.deadline)} is before now ${iso(start)}` };
  const opts: SessionOptions = {
    mode: "run",
    source: o.source,
    path: o.path,
    now: () => o.actor.now(),
    deadline: o.deadline,
    toolNames: Object.keys(o.wrappers).sort(),
    workspace: o.workspace,
    ...sandboxLimits(o),
    maxCallsBetweenWaits: positiveInt("maxCallsBetweenWaits", o.maxCallsBetweenWaits, DEFAULT_MAX_CALLS_BETWEEN_WAITS),
    randomSeed: o.randomSeed ?? DEFAULT_RANDOM_SEED,
  };
  const session = await SandboxSession.open(opts);
  try {
    session.start();
    for (;;) {
      session.drain();
      const end = session.end();
      if (end !== null) {
        switch (end.kind) {
          case "handover":
          case "returned":
          case "error":
            return end;
          case "stopped":
            throw new Error(`watcher program stopped at ${end.at} outside validation`);
          default: {
            const never: never = end;
            throw new Error(`unknown program end ${JSON.stringify(never)}`);
          }
        }
      }
      const call = session.nextCall();
      if (call !== undefined) {
        const wrapper = o.wrappers[call.name] as (args: unknown) => Promise<ToolResult>;
        session.resolveCall(call, await wrapper(call.args));
        continue;
      }
      const wait = session.takeWait();
      if (wait !== null) {
        const target = o.deadline === null ? wait.until : Math.min(wait.until, o.deadline);
        const wake = await o.actor.sleepUntil(target);
        if (wake.reason !== "sleep" || (o.deadline !== null && wake.at >= o.deadline)) return { kind: "woken", wake };
        session.resumeAfterWait(wait, wake.at);
        continue;
      }
      return {
        kind: "error",
        error:
          "the program is awaiting a promise that can never settle (only envkit.wait and envkit.tools.* calls are settled by the host; timers do not exist)",
      };
    }
  } finally {
    session.dispose();
    if (session.releaseFailure !== null) o.onReleaseFailure?.(session.releaseFailure);
  }
}

/**
 * Check a program at zero cost and zero simulated time: evaluate it up to its first envkit call
 * with an effect (wait, a data tool, handover, workspace.write), which stops it (now, deadline,
 * workspace.read/list run). Reports syntax and runtime errors with line numbers.
 */
export async function validateProgram(o: ValidateProgramOptions): Promise<{ ok: true } | { ok: false; error: string }> {
  const session = await SandboxSession.open({
    mode: "validate",
    source: o.source,
    path: o.path,
    now: () => o.now,
    deadline: o.deadline,
    toolNames: [...o.toolNames].sort(),
    workspace: o.workspace,
    ...sandboxLimits(o),
    maxCallsBetweenWaits: DEFAULT_MAX_CALLS_BETWEEN_WAITS,
    randomSeed: DEFAULT_RANDOM_SEED,
  });
  try {
    session.start();
    session.drain();
    const end = session.end();
    if (end === null)
      return {
        ok: false,
        error:
          "the program is awaiting a promise that can never settle (only envkit.wait and envkit.tools.* calls are settled by the host; timers do not exist)",
      };
    switch (end.kind) {
      case "stopped":
      case "returned":
      case "handover":
        return { ok: true };
      case "error":
        return { ok: false, error: end.error };
      default: {
        const never: never = end;
        throw new Error(`unknown program end ${JSON.stringify(never)}`);
      }
    }
  } finally {
    session.dispose();
  }
}
