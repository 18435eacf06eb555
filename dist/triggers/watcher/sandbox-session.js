import { z } from "zod";
import { ENVKIT_PRELUDE, ENVKIT_PRELUDE_FILE } from "./envkit-prelude.js";
import {
  linearMemoryPages,
  MIN_LINEAR_MEMORY_BYTES,
  newSandboxInstance
} from "./quickjs-instance.js";
import { WorkspaceError } from "./workspace.js";
const HANDOVER_MAX_BYTES = 16 * 1024;
const MAX_STACK_CAP_BYTES = 256 * 1024;
const ZERO_ADVANCE_WAIT_POLLS = 1;
const DESCRIBE_POLLS = 20;
const MAX_MESSAGE_CHARS = 2100;
const iso = (t) => Number.isFinite(t) && Math.abs(t) <= 864e13 ? new Date(t).toISOString() : String(t);
const MB = (b) => `${Math.round(b / (1024 * 1024) * 100) / 100} MB`;
const KB = (b) => `${Math.round(b / 1024)} KB`;
class SandboxSession {
  constructor(instance, o) {
    this.instance = instance;
    this.o = o;
    this.budgetAt = o.now();
    this.rt = instance.module.newRuntime();
    if (o.memoryLimitBytes < MIN_LINEAR_MEMORY_BYTES) this.rt.setMemoryLimit(o.memoryLimitBytes);
    this.rt.setMaxStackSize(o.maxStackBytes);
    this.rt.setInterruptHandler(() => {
      if (this.describing) return ++this.describePolls > DESCRIBE_POLLS;
      if (this.halt !== null) return true;
      this.polls += 1;
      if (this.polls > this.o.stepBudget) {
        this.budgetExceeded = true;
        return true;
      }
      return false;
    });
    this.ctx = this.rt.newContext();
  }
  instance;
  o;
  rt;
  ctx;
  helpers = null;
  main = null;
  deferreds = /* @__PURE__ */ new Set();
  calls = [];
  wait = null;
  polls = 0;
  callsSinceWait = 0;
  /** the simulated instant the current step budget and call cap started (the last wait that moved the clock) */
  budgetAt;
  /** waits since budgetAt that did not move the clock */
  zeroWaits = 0;
  describing = false;
  describePolls = 0;
  budgetExceeded = false;
  halt = null;
  hostFailure = null;
  jobError = null;
  disposed = false;
  /** why releasing the VM failed (the program's end was already decided; the instance is dropped anyway) */
  releaseFailure = null;
  static async open(o) {
    if (o.maxStackBytes > MAX_STACK_CAP_BYTES)
      throw new RangeError(
        `maxStackBytes must be at most ${MAX_STACK_CAP_BYTES} (256 KiB), got ${o.maxStackBytes}: larger caps let recursion exhaust the host's native stack first`
      );
    return new SandboxSession(await newSandboxInstance(o.memoryLimitBytes), o);
  }
  // ---- lifecycle ---------------------------------------------------------------------------------
  /** Install envkit and evaluate the program up to its first suspension. */
  start() {
    this.guard(() => {
      const setup = this.ctx.evalCode(ENVKIT_PRELUDE, ENVKIT_PRELUDE_FILE, { type: "global", strict: true });
      if (setup.error) {
        const msg = JSON.stringify(this.ctx.dump(setup.error));
        setup.error.dispose();
        throw new Error(`envkit prelude failed to evaluate: ${msg}`);
      }
      const raw = this.rawFunctions();
      const names = this.ctx.newArray();
      this.o.toolNames.forEach((n, i) => {
        const s = this.ctx.newString(n);
        this.ctx.setProp(names, i, s);
        s.dispose();
      });
      const seed = this.ctx.newNumber(this.o.randomSeed);
      const made = this.ctx.callFunction(setup.value, this.ctx.undefined, raw, names, seed);
      setup.value.dispose();
      raw.dispose();
      names.dispose();
      seed.dispose();
      if (made.error) {
        const msg = JSON.stringify(this.ctx.dump(made.error));
        made.error.dispose();
        throw new Error(`envkit setup failed: ${msg}`);
      }
      this.helpers = {
        obj: made.value,
        fromJson: this.ctx.getProp(made.value, "fromJson"),
        describe: this.ctx.getProp(made.value, "describe")
      };
      this.polls = 0;
      const r = this.ctx.evalCode(this.o.source, this.o.path, { type: "module" });
      if (r.error) {
        this.main = this.promiseRejectedWith(r.error);
      } else {
        this.main = r.value;
      }
    });
  }
  /** Run queued promise jobs until the program is suspended again (or stopped). */
  drain() {
    if (this.hostFailure !== null) return;
    this.guard(() => {
      const r = this.rt.executePendingJobs(-1);
      if (r.error) {
        if (this.jobError === null) this.jobError = this.describe(r.error);
        r.error.dispose();
      }
    });
  }
  /** Whether the program has ended, and how (null while it is suspended on a request). */
  end() {
    const e = this.endRaw();
    if (e?.kind !== "error" || /out of memory/.test(e.error)) return e;
    const used = this.instance.memory.buffer.byteLength;
    const cap = linearMemoryPages(this.o.memoryLimitBytes) * 65536;
    if (used > cap - 1024 * 1024)
      return {
        kind: "error",
        // (what the failing allocation then looked like varies, so it is not reported: the text stays reproducible)
        error: `InternalError: out of memory (memory cap ${MB(this.o.memoryLimitBytes)}): the sandbox's memory is exhausted`
      };
    if (used >= cap / 2 && /(not an Error\): null$|threw an unknown|^sandbox failure)/.test(e.error))
      return {
        kind: "error",
        error: `${e.error} (the sandbox's memory had grown to ${MB(used)} of its ${MB(cap)} cap: probably out of memory)`
      };
    return e;
  }
  endRaw() {
    if (this.hostFailure !== null) return { kind: "error", error: this.hostFailure };
    if (this.halt !== null) {
      switch (this.halt.kind) {
        case "handover":
          return { kind: "handover", payload: this.halt.payload };
        case "stopped":
          return { kind: "stopped", at: this.halt.at };
        case "fatal":
          return { kind: "error", error: this.halt.error };
        default: {
          const never = this.halt;
          throw new Error(`unknown halt ${JSON.stringify(never)}`);
        }
      }
    }
    if (this.budgetExceeded)
      return {
        kind: "error",
        error: this.zeroWaits > 0 ? `step budget exceeded: ${this.o.stepBudget} interrupt polls (about ${this.o.stepBudget * 1e4} operations) without an envkit.wait that moves time forward (${this.zeroWaits} waits at ${iso(this.budgetAt)} did not; each costs ${ZERO_ADVANCE_WAIT_POLLS} poll); wait for a later time, e.g. envkit.wait(envkit.now() + 60000)` : `step budget exceeded: ${this.o.stepBudget} interrupt polls (about ${this.o.stepBudget * 1e4} operations) without an envkit.wait; a watcher must wait between checks`
      };
    if (this.jobError !== null) return { kind: "error", error: this.jobError };
    const main = this.main;
    if (main === null) return { kind: "error", error: "the program did not start" };
    let out = null;
    this.guard(() => {
      const st = this.ctx.getPromiseState(main);
      switch (st.type) {
        case "pending":
          out = null;
          break;
        case "fulfilled":
          if (st.value !== main) st.value.dispose();
          out = { kind: "returned" };
          break;
        case "rejected":
          out = { kind: "error", error: this.describe(st.error) };
          st.error.dispose();
          break;
        default: {
          const never = st;
          throw new Error(`unknown promise state ${JSON.stringify(never)}`);
        }
      }
    });
    if (this.hostFailure !== null) return { kind: "error", error: this.hostFailure };
    return out;
  }
  /** The oldest queued data tool call (calls are issued at the current instant, before any wait). */
  nextCall() {
    return this.calls.shift();
  }
  takeWait() {
    const w = this.wait;
    this.wait = null;
    return w;
  }
  resolveCall(call, result) {
    const json = JSON.stringify(
      result.ok ? { ok: true, value: result.value ?? null } : { ok: false, error: result.error }
    );
    this.settle(call.deferred, json);
  }
  /**
   * The wait is over at `at`. A wait that moved the clock resets the step budget and the call cap;
   * one that did not (a wait until now) costs polls instead, and the call cap keeps counting, so
   * no program can spin or issue unbounded calls at one instant.
   */
  resumeAfterWait(w, at) {
    if (at > this.budgetAt) {
      this.budgetAt = at;
      this.polls = 0;
      this.callsSinceWait = 0;
      this.zeroWaits = 0;
    } else {
      this.zeroWaits += 1;
      this.polls += ZERO_ADVANCE_WAIT_POLLS;
      if (this.polls > this.o.stepBudget) {
        this.budgetExceeded = true;
        return;
      }
    }
    this.settle(w.deferred, JSON.stringify(at));
  }
  /** Release the VM. Never throws: a failure here (QuickJS can abort at dispose) is recorded in `releaseFailure`. */
  dispose() {
    if (this.disposed) return;
    this.disposed = true;
    if (this.hostFailure !== null) return;
    try {
      for (const d of this.deferreds) if (d.alive) d.dispose();
      this.deferreds.clear();
      if (this.main?.alive) this.main.dispose();
      if (this.helpers !== null) {
        this.helpers.fromJson.dispose();
        this.helpers.describe.dispose();
        this.helpers.obj.dispose();
      }
      this.ctx.dispose();
      this.rt.dispose();
    } catch (e) {
      this.releaseFailure = `watcher sandbox could not be released cleanly (instance abandoned): ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  // ---- VM plumbing -------------------------------------------------------------------------------
  /**
   * Run `fn`, which calls into the VM. A host exception escaping the WebAssembly call (native stack
   * exhausted, an abort, anything else) ends the program; its instance is abandoned.
   */
  guard(fn) {
    if (this.hostFailure !== null) return;
    try {
      fn();
    } catch (e) {
      let msg;
      try {
        msg = e instanceof Error ? e.message : String(e);
      } catch {
        msg = "an unprintable host exception";
      }
      this.hostFailure = e instanceof RangeError && /call stack/i.test(msg) ? "stack overflow: the program exhausted the sandbox's native stack (deep recursion through built-ins, deeply nested data or expressions); the sandbox was reset" : `sandbox failure: ${clip(msg, 500)}; the sandbox was reset`;
    }
  }
  settle(deferred, json) {
    this.guard(() => {
      const helpers = this.helpers;
      const s = this.ctx.newString(json);
      const r = this.ctx.callFunction(helpers.fromJson, this.ctx.undefined, s);
      s.dispose();
      if (r.error) {
        deferred.reject(r.error);
        r.error.dispose();
      } else {
        deferred.resolve(r.value);
        r.value.dispose();
      }
      deferred.dispose();
      this.deferreds.delete(deferred);
    });
  }
  /** A promise already rejected with `error` (a compile error of the module), consuming `error`. */
  promiseRejectedWith(error) {
    const d = this.ctx.newPromise();
    d.reject(error);
    error.dispose();
    const h = d.handle.dup();
    d.dispose();
    return h;
  }
  /**
   * A readable message (with the program's line numbers) for a thrown value. The prelude's
   * `describe` reads it without running program code (no getters, toString or toJSON; only a
   * Proxy's traps, under a small poll budget, with envkit switched off), and its answer is checked
   * here; anything unexpected falls back to the value's type.
   */
  describe(error) {
    const helpers = this.helpers;
    let d = null;
    if (helpers !== null) {
      this.describing = true;
      this.describePolls = 0;
      try {
        const r = this.ctx.callFunction(helpers.describe, this.ctx.undefined, error);
        if (r.error) r.error.dispose();
        else {
          if (this.ctx.typeof(r.value) === "string") d = parseDescribed(this.ctx.getString(r.value));
          r.value.dispose();
        }
      } finally {
        this.describing = false;
      }
    }
    if (d === null) {
      const t = this.ctx.typeof(error);
      d = { thrown: t, shown: "(a value that could not be inspected, perhaps a Proxy)" };
    }
    return this.formatThrown(d);
  }
  formatThrown(d) {
    if ("thrown" in d) {
      const article = /^[aeiou]/.test(d.thrown) ? "an" : "a";
      return `uncaught exception: the program threw ${article} ${d.thrown} (not an Error): ${d.shown === "" ? "(empty)" : clip(d.shown, 300)}`;
    }
    const frames = d.stack.split("\n").map((l) => l.trim()).filter((l) => l.startsWith("at ") && !l.includes(ENVKIT_PRELUDE_FILE)).reduce((acc, frame) => {
      const last = acc[acc.length - 1];
      if (last !== void 0 && last.frame === frame) last.n += 1;
      else acc.push({ frame, n: 1 });
      return acc;
    }, []).slice(0, 6).map(({ frame, n }) => clip(n > 1 ? `${frame} (\xD7${n})` : frame, 200));
    let msg = `${clip(d.name, 200)}: ${clip(d.message, MAX_MESSAGE_CHARS)}`;
    if (/out of memory/i.test(d.message)) msg += ` (memory cap ${MB(this.o.memoryLimitBytes)})`;
    if (/stack overflow/i.test(d.message)) msg = `stack overflow: ${msg} (stack cap ${KB(this.o.maxStackBytes)})`;
    return frames.length > 0 ? `${msg}
    ${frames.join("\n    ")}` : `${msg} (in ${this.o.path})`;
  }
  // ---- raw host functions (see envkit-prelude.ts for the protocol) ------------------------------
  rawFunctions() {
    const ctx = this.ctx;
    const raw = ctx.newObject();
    const def = (name, fn) => {
      const f = ctx.newFunction(name, fn);
      ctx.setProp(raw, name, f);
      f.dispose();
    };
    const reply = (o) => ctx.newString(JSON.stringify(o));
    const fail = (t, e) => reply({ e, t });
    const HALT = () => reply({ halt: 1 });
    const str = (h) => h !== void 0 && ctx.typeof(h) === "string" ? ctx.getString(h) : null;
    const stop = (at) => {
      this.halt = { kind: "stopped", at };
      return HALT();
    };
    const ws = (what, fn) => {
      try {
        return reply({ v: fn() ?? null });
      } catch (e) {
        if (e instanceof WorkspaceError) return fail("Error", `envkit.workspace.${what}: ${e.message}`);
        throw e;
      }
    };
    def("now", () => ctx.newNumber(this.o.now()));
    def("deadline", () => this.o.deadline === null ? ctx.null : ctx.newNumber(this.o.deadline));
    const OFF = () => fail("Error", "envkit is unavailable while the sandbox describes an exception");
    def("wait", (h) => {
      if (this.describing) return OFF();
      if (this.halt !== null) return HALT();
      if (h === void 0 || ctx.typeof(h) !== "number")
        return fail(
          "TypeError",
          `envkit.wait(until): until must be an epoch-ms number (e.g. Date.parse("2026-03-02T09:00:00Z")), got ${h === void 0 ? "undefined" : ctx.typeof(h)}`
        );
      const asked = ctx.getNumber(h);
      if (!Number.isFinite(asked)) return fail("TypeError", `envkit.wait(until): until must be finite, got ${asked}`);
      const until = Math.ceil(asked);
      const now = this.o.now();
      if (until < now)
        return fail(
          "RangeError",
          `envkit.wait(until): until ${iso(until)} is before now ${iso(now)}; time only moves forward`
        );
      if (this.o.mode === "validate") return stop("envkit.wait");
      if (this.wait !== null)
        return fail(
          "Error",
          "envkit.wait: another wait is already pending; await each envkit.wait before starting the next"
        );
      const deferred = ctx.newPromise();
      this.deferreds.add(deferred);
      this.wait = { until, deferred };
      return deferred.handle.dup();
    });
    def("call", (nameH, argsH) => {
      if (this.describing) return OFF();
      if (this.halt !== null) return HALT();
      const name = str(nameH);
      if (name === null || !this.o.toolNames.includes(name))
        return fail("TypeError", `envkit.tools: unknown tool ${name}`);
      let args;
      if (argsH !== void 0 && ctx.typeof(argsH) !== "undefined") {
        const json = str(argsH);
        if (json === null) return fail("TypeError", `envkit.tools.${name}: arguments must be JSON`);
        args = JSON.parse(json);
      }
      if (this.o.mode === "validate") return stop(`envkit.tools.${name}`);
      this.callsSinceWait += 1;
      if (this.callsSinceWait > this.o.maxCallsBetweenWaits) {
        this.halt = {
          kind: "fatal",
          error: `wrapper flood: more than ${this.o.maxCallsBetweenWaits} envkit.tools calls without an envkit.wait that moves time forward (all at ${iso(this.budgetAt)}; last: ${name}); a watcher must wait between checks`
        };
        return HALT();
      }
      const deferred = ctx.newPromise();
      this.deferreds.add(deferred);
      this.calls.push({ name, args, deferred });
      return deferred.handle.dup();
    });
    def("handover", (h) => {
      if (this.describing) return OFF();
      if (this.halt !== null) return HALT();
      const json = str(h);
      if (json === null) return fail("TypeError", "envkit.handover: payload must be JSON-serializable");
      const bytes = Buffer.byteLength(json, "utf8");
      if (bytes > HANDOVER_MAX_BYTES)
        return fail(
          "RangeError",
          `envkit.handover: payload is ${bytes} bytes of JSON; the limit is ${HANDOVER_MAX_BYTES} bytes`
        );
      if (this.o.mode === "validate") return stop("envkit.handover");
      this.halt = { kind: "handover", payload: JSON.parse(json) };
      return HALT();
    });
    def("wsRead", (p) => {
      if (this.describing) return OFF();
      if (this.halt !== null) return HALT();
      const path = str(p);
      if (path === null) return fail("TypeError", "envkit.workspace.read(path): path must be a string");
      return ws("read", () => this.o.workspace.readText(path));
    });
    def("wsList", (p) => {
      if (this.describing) return OFF();
      if (this.halt !== null) return HALT();
      const path = str(p);
      if (path === null) return fail("TypeError", "envkit.workspace.list(path?): path must be a string");
      return ws("list", () => this.o.workspace.ls(path));
    });
    def("wsWrite", (p, c) => {
      if (this.describing) return OFF();
      if (this.halt !== null) return HALT();
      const path = str(p);
      const content = str(c);
      if (path === null || content === null)
        return fail("TypeError", "envkit.workspace.write(path, content): path and content must be strings");
      if (this.o.mode === "validate") return stop("envkit.workspace.write");
      return ws("write", () => this.o.workspace.writeFile(path, content));
    });
    return raw;
  }
}
const clip = (s, n) => s.length > n ? `${s.slice(0, n)}\u2026 (${s.length} characters)` : s;
const DescribedSchema = z.union([
  z.object({ name: z.string(), message: z.string(), stack: z.string() }).strict(),
  z.object({ thrown: z.string(), shown: z.string() }).strict()
]);
function parseDescribed(json) {
  try {
    const r = DescribedSchema.safeParse(JSON.parse(json));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}
export {
  HANDOVER_MAX_BYTES,
  MAX_STACK_CAP_BYTES,
  SandboxSession,
  ZERO_ADVANCE_WAIT_POLLS
};
//# sourceMappingURL=sandbox-session.js.map
