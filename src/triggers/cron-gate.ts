import { z } from "zod";
import type { ToolResult } from "../tools/tool.js";
import { DEFAULT_MAX_CALLS_BETWEEN_WAITS, DEFAULT_RANDOM_SEED, sandboxLimits } from "./watcher/run-program.js";
import { SandboxSession } from "./watcher/sandbox-session.js";

/**
 * The cron `when` gate (spec/harness.md, Triggers → cron `when` gate): a cheap check attached to a
 * cron entry, run in the watcher's QuickJS sandbox (same envkit, same caps) at the firing instant,
 * before the agent wakes. It decides with `envkit.handover("wake" | "skip")` (or
 * `{ decision, reason? }`). Time stands still while it runs: `envkit.wait` throws, there is no
 * workspace, and it calls only the task's data tools (billed and ledgered like the agent's own
 * calls), so it sees exactly what was visible at the firing. It cannot commit. Anything else (a
 * crash, the step budget, returning without a decision, a malformed decision) fails open: the agent
 * wakes and the error is ledgered.
 */

/** at most this many characters of gate source (a cheap check, shown back by list_schedules) */
export const MAX_GATE_SOURCE_CHARS = 4000;

export const GATE_NO_WAIT =
  'envkit.wait: a when gate runs at the firing instant and cannot let time pass; decide with envkit.handover("wake") or envkit.handover("skip")';

const Decision = z.enum(["wake", "skip"]);
export const GateDecisionSchema = z.union([
  Decision,
  z.object({ decision: Decision, reason: z.string().max(500).optional() }).strict(),
]);

export interface GateLimits {
  /** interrupt polls (about 10,000 operations each) for the whole gate; default 200, the watcher's */
  stepBudget?: number;
  /** the sandbox's linear memory cap; default 64 MB */
  memoryLimitBytes?: number;
}

/** What one gate run gave: `error` set means it failed open (decision "wake"). */
export interface GateOutcome {
  decision: "wake" | "skip";
  reason?: string;
  error?: string;
  /** interrupt polls the gate used (its sandbox time) */
  polls: number;
  /** envkit.tools calls it made (each billed and ledgered as a tool call) */
  toolCalls: number;
}

export interface RunGateOptions extends GateLimits {
  source: string;
  /** shown in error messages, e.g. `when:<schedule id>` */
  path: string;
  /** the firing instant (envkit.now(), Date) */
  now: number;
  /** one per task data tool, billed, rate-limited and ledgered by the caller */
  wrappers: Record<string, (args: unknown) => Promise<ToolResult>>;
  onReleaseFailure?: (message: string) => void;
}

/** Runs a gate to its decision. Never throws for anything the program does: it fails open. */
export async function runGate(o: RunGateOptions): Promise<GateOutcome> {
  let toolCalls = 0;
  const session = await SandboxSession.open({
    mode: "run",
    source: o.source,
    path: o.path,
    now: () => o.now,
    deadline: null,
    toolNames: Object.keys(o.wrappers).sort(),
    workspace: null,
    noWait: GATE_NO_WAIT,
    ...sandboxLimits(o),
    maxCallsBetweenWaits: DEFAULT_MAX_CALLS_BETWEEN_WAITS,
    randomSeed: DEFAULT_RANDOM_SEED,
  });
  const failOpen = (error: string): GateOutcome => ({
    decision: "wake",
    error,
    polls: session.pollsUsed,
    toolCalls,
  });
  try {
    session.start();
    for (;;) {
      session.drain();
      const end = session.end();
      if (end !== null) {
        switch (end.kind) {
          case "handover": {
            const d = GateDecisionSchema.safeParse(end.payload);
            if (!d.success)
              return failOpen(
                `the gate handed over ${JSON.stringify(end.payload).slice(0, 200)}; expected "wake", "skip" or { decision: "wake" | "skip", reason? }`,
              );
            const out: GateOutcome =
              typeof d.data === "string"
                ? { decision: d.data, polls: session.pollsUsed, toolCalls }
                : {
                    decision: d.data.decision,
                    ...(d.data.reason !== undefined ? { reason: d.data.reason } : {}),
                    polls: session.pollsUsed,
                    toolCalls,
                  };
            return out;
          }
          case "returned":
            return failOpen('the gate returned without a decision (call envkit.handover("wake") or ("skip"))');
          case "error":
            return failOpen(end.error);
          case "stopped":
            throw new Error(`when gate stopped at ${end.at} outside validation`);
          default: {
            const never: never = end;
            throw new Error(`unknown program end ${JSON.stringify(never)}`);
          }
        }
      }
      const call = session.nextCall();
      if (call !== undefined) {
        toolCalls += 1;
        const wrapper = o.wrappers[call.name] as (args: unknown) => Promise<ToolResult>;
        session.resolveCall(call, await wrapper(call.args));
        continue;
      }
      if (session.takeWait() !== null) return failOpen(GATE_NO_WAIT); // (envkit.wait throws first; a backstop)
      return failOpen(
        "the gate is awaiting a promise that can never settle (only envkit.tools.* calls are settled; timers do not exist)",
      );
    }
  } finally {
    session.dispose();
    if (session.releaseFailure !== null) o.onReleaseFailure?.(session.releaseFailure);
  }
}

/**
 * Checks a gate at zero cost and zero simulated time, as `run_program`'s `validate` checks a
 * watcher: it runs up to its first data tool call or handover (which stop it) and reports syntax
 * and runtime errors with line numbers, a wait, a workspace call, or source over the size cap.
 */
export async function validateGate(
  o: { source: string; path: string; now: number; toolNames: string[] } & GateLimits,
): Promise<{ ok: true } | { ok: false; error: string }> {
  if (o.source.trim() === "") return { ok: false, error: "the gate is empty" };
  if (o.source.length > MAX_GATE_SOURCE_CHARS)
    return { ok: false, error: `the gate is ${o.source.length} characters; at most ${MAX_GATE_SOURCE_CHARS}` };
  const session = await SandboxSession.open({
    mode: "validate",
    source: o.source,
    path: o.path,
    now: () => o.now,
    deadline: null,
    toolNames: [...o.toolNames].sort(),
    workspace: null,
    noWait: GATE_NO_WAIT,
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
          "the gate is awaiting a promise that can never settle (only envkit.tools.* calls are settled; timers do not exist)",
      };
    switch (end.kind) {
      case "stopped":
      case "handover":
        return { ok: true };
      case "returned":
        return { ok: false, error: 'the gate returns without a decision (call envkit.handover("wake") or ("skip"))' };
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
