import { MAX_STACK_CAP_BYTES, SandboxSession } from "./sandbox-session.js";
const DEFAULT_STEP_BUDGET = 200;
const DEFAULT_MEMORY_LIMIT_BYTES = 64 * 1024 * 1024;
const DEFAULT_MAX_STACK_BYTES = 192 * 1024;
const DEFAULT_MAX_CALLS_BETWEEN_WAITS = 200;
const DEFAULT_RANDOM_SEED = 1;
const iso = (t) => new Date(t).toISOString();
function positiveInt(what, v, dflt) {
  const x = v ?? dflt;
  if (!Number.isInteger(x) || x <= 0) throw new RangeError(`${what} must be a positive integer, got ${x}`);
  return x;
}
function limits(o) {
  const maxStackBytes = positiveInt("maxStackBytes", o.maxStackBytes, DEFAULT_MAX_STACK_BYTES);
  if (maxStackBytes > MAX_STACK_CAP_BYTES)
    throw new RangeError(
      `maxStackBytes must be at most ${MAX_STACK_CAP_BYTES} (256 KiB), got ${maxStackBytes}: larger caps let recursion exhaust the host's native stack before QuickJS's own check`
    );
  return {
    stepBudget: positiveInt("stepBudget", o.stepBudget, DEFAULT_STEP_BUDGET),
    memoryLimitBytes: positiveInt("memoryLimitBytes", o.memoryLimitBytes, DEFAULT_MEMORY_LIMIT_BYTES),
    maxStackBytes
  };
}
async function runProgram(o) {
  const start = o.actor.now();
  if (o.deadline !== null && !(o.deadline >= start))
    return { kind: "error", error: `run_program: until ${iso(o.deadline)} is before now ${iso(start)}` };
  const opts = {
    mode: "run",
    source: o.source,
    path: o.path,
    now: () => o.actor.now(),
    deadline: o.deadline,
    toolNames: Object.keys(o.wrappers).sort(),
    workspace: o.workspace,
    ...limits(o),
    maxCallsBetweenWaits: positiveInt("maxCallsBetweenWaits", o.maxCallsBetweenWaits, DEFAULT_MAX_CALLS_BETWEEN_WAITS),
    randomSeed: o.randomSeed ?? DEFAULT_RANDOM_SEED
  };
  const session = await SandboxSession.open(opts);
  try {
    session.start();
    for (; ; ) {
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
            const never = end;
            throw new Error(`unknown program end ${JSON.stringify(never)}`);
          }
        }
      }
      const call = session.nextCall();
      if (call !== void 0) {
        const wrapper = o.wrappers[call.name];
        session.resolveCall(call, await wrapper(call.args));
        continue;
      }
      const wait = session.takeWait();
      if (wait !== null) {
        const target = o.deadline === null ? wait.until : Math.min(wait.until, o.deadline);
        const wake = await o.actor.sleepUntil(target);
        if (wake.reason !== "sleep" || o.deadline !== null && wake.at >= o.deadline) return { kind: "woken", wake };
        session.resumeAfterWait(wait, wake.at);
        continue;
      }
      return {
        kind: "error",
        error: "the program is awaiting a promise that can never settle (only envkit.wait and envkit.tools.* calls are settled by the host; timers do not exist)"
      };
    }
  } finally {
    session.dispose();
    if (session.releaseFailure !== null) o.onReleaseFailure?.(session.releaseFailure);
  }
}
async function validateProgram(o) {
  const session = await SandboxSession.open({
    mode: "validate",
    source: o.source,
    path: o.path,
    now: () => o.now,
    deadline: o.deadline,
    toolNames: [...o.toolNames].sort(),
    workspace: o.workspace,
    ...limits(o),
    maxCallsBetweenWaits: DEFAULT_MAX_CALLS_BETWEEN_WAITS,
    randomSeed: DEFAULT_RANDOM_SEED
  });
  try {
    session.start();
    session.drain();
    const end = session.end();
    if (end === null)
      return {
        ok: false,
        error: "the program is awaiting a promise that can never settle (only envkit.wait and envkit.tools.* calls are settled by the host; timers do not exist)"
      };
    switch (end.kind) {
      case "stopped":
      case "returned":
      case "handover":
        return { ok: true };
      case "error":
        return { ok: false, error: end.error };
      default: {
        const never = end;
        throw new Error(`unknown program end ${JSON.stringify(never)}`);
      }
    }
  } finally {
    session.dispose();
  }
}
export {
  DEFAULT_MAX_CALLS_BETWEEN_WAITS,
  DEFAULT_MAX_STACK_BYTES,
  DEFAULT_MEMORY_LIMIT_BYTES,
  DEFAULT_RANDOM_SEED,
  DEFAULT_STEP_BUDGET,
  runProgram,
  validateProgram
};
//# sourceMappingURL=run-program.js.map
