import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from "quickjs-emscripten";
import { z } from "zod";
import type { ToolResult } from "../../tools/tool.js";
import { ENVKIT_PRELUDE, ENVKIT_PRELUDE_FILE } from "./envkit-prelude.js";
import {
  linearMemoryPages,
  MIN_LINEAR_MEMORY_BYTES,
  newSandboxInstance,
  type SandboxInstance,
} from "./quickjs-instance.js";
import { type Workspace, WorkspaceError } from "./workspace.js";

/**
 * One watcher program inside its own QuickJS instance, runtime and context: installs `envkit`,
 * evaluates the program as an ES module (top-level await allowed), queues the program's
 * asynchronous requests (data tool calls, waits) for the driver (`run-program.ts`), and enforces
 * the step budget, the per-instant call cap and the memory and stack caps. The driver decides
 * what each request does; this class only talks to the VM. Every handle it creates is disposed in
 * `dispose()`. Any failure of the VM itself (a host exception out of a WebAssembly call: native
 * stack exhausted, an abort, also at dispose) is contained: the program ends with an error, the
 * instance is abandoned and never touched again (see `quickjs-instance.ts`).
 */

export const HANDOVER_MAX_BYTES = 16 * 1024;
/** stack caps above this make QuickJS overrun the host's native stack before its own check fires */
export const MAX_STACK_CAP_BYTES = 256 * 1024;
/** interrupt polls a wait that does not move the clock costs (so a loop of them meets the step budget) */
export const ZERO_ADVANCE_WAIT_POLLS = 1;
/** polls the host's error description may use (it runs only Proxy traps of the program) */
const DESCRIBE_POLLS = 20;
const MAX_MESSAGE_CHARS = 2100;

export interface SessionOptions {
  mode: "run" | "validate";
  source: string;
  path: string;
  now: () => number;
  deadline: number | null;
  toolNames: string[];
  /** null: no workspace (a cron `when` gate); envkit.workspace calls throw inside the program */
  workspace: Workspace | null;
  /** set: envkit.wait throws this message inside the program (a cron `when` gate cannot let time pass) */
  noWait?: string;
  stepBudget: number;
  memoryLimitBytes: number;
  maxStackBytes: number;
  maxCallsBetweenWaits: number;
  randomSeed: number;
}

export interface PendingCall {
  name: string;
  args: unknown;
  /** the request's id inside the sandbox (its promise is the prelude's; `settle` resolves it) */
  id: number;
}

export interface PendingWait {
  until: number;
}

/** the id `settle` gives the pending wait (calls count up from 0) */
const WAIT_ID = -1;

/** Why the VM stopped for good (checked by the driver after each drain). */
export type SessionEnd =
  | { kind: "handover"; payload: unknown }
  | { kind: "returned" }
  | { kind: "stopped"; at: string }
  | { kind: "error"; error: string };

type Halt = { kind: "handover"; payload: unknown } | { kind: "fatal"; error: string } | { kind: "stopped"; at: string };

const iso = (t: number) => (Number.isFinite(t) && Math.abs(t) <= 8.64e15 ? new Date(t).toISOString() : String(t));
const MB = (b: number) => `${Math.round((b / (1024 * 1024)) * 100) / 100} MB`;
const KB = (b: number) => `${Math.round(b / 1024)} KB`;

export class SandboxSession {
  private readonly rt: QuickJSRuntime;
  private readonly ctx: QuickJSContext;
  private helpers: {
    obj: QuickJSHandle;
    settleCall: QuickJSHandle;
    settleWait: QuickJSHandle;
    reject: QuickJSHandle;
    setNow: QuickJSHandle;
    describe: QuickJSHandle;
    /** the prelude's request mailbox and queued calls (names, argument JSON) by id */
    box: QuickJSHandle;
    qName: QuickJSHandle;
    qArgs: QuickJSHandle;
    /** property keys of the mailbox */
    kTop: QuickJSHandle;
    kAllow: QuickJSHandle;
    kOff: QuickJSHandle;
    kW: QuickJSHandle;
  } | null = null;
  private main: QuickJSHandle | null = null;
  private readonly calls: PendingCall[] = [];
  /** calls below this id have been read from the mailbox */
  private pulled = 0;
  /** the simulated now the sandbox holds (sent with every settle; refreshed before running jobs if the clock moved) */
  private vmNow = Number.NaN;
  private wait: PendingWait | null = null;
  private polls = 0;
  private callsSinceWait = 0;
  /** the simulated instant the current step budget and call cap started (the last wait that moved the clock) */
  private budgetAt: number;
  /** waits since budgetAt that did not move the clock */
  private zeroWaits = 0;
  private describing = false;
  private describePolls = 0;
  private budgetExceeded = false;
  private halt: Halt | null = null;
  private hostFailure: string | null = null;
  private jobError: string | null = null;
  private disposed = false;
  /** why releasing the VM failed (the program's end was already decided; the instance is dropped anyway) */
  releaseFailure: string | null = null;

  /** interrupt polls used since the last wait that moved the clock (a gate's whole run: it never waits) */
  get pollsUsed(): number {
    return this.polls;
  }

  static async open(o: SessionOptions): Promise<SandboxSession> {
    if (o.maxStackBytes > MAX_STACK_CAP_BYTES)
      throw new RangeError(
        `maxStackBytes must be at most ${MAX_STACK_CAP_BYTES} (256 KiB), got ${o.maxStackBytes}: larger caps let recursion exhaust the host's native stack first`,
      );
    return new SandboxSession(await newSandboxInstance(o.memoryLimitBytes), o);
  }

  private constructor(
    private readonly instance: SandboxInstance,
    private readonly o: SessionOptions,
  ) {
    this.budgetAt = o.now();
    this.rt = instance.module.newRuntime();
    // The cap is the linear memory's maximum (real bytes). QuickJS's own allocation count misses
    // typed arrays and strings, so it is used only below the build's 16 MiB minimum.
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

  // ---- lifecycle ---------------------------------------------------------------------------------

  /** Install envkit and evaluate the program up to its first suspension. */
  start(): void {
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
      const now = this.o.now();
      const nowH = this.ctx.newNumber(now);
      // requests the prelude may queue itself: calls in run mode, waits in run mode when waits are allowed
      const run = this.o.mode === "run";
      const fast = this.ctx.newNumber((run ? 1 : 0) | (run && this.o.noWait === undefined ? 2 : 0));
      const made = this.ctx.callFunction(setup.value, this.ctx.undefined, raw, names, seed, nowH, fast);
      fast.dispose();
      setup.value.dispose();
      raw.dispose();
      names.dispose();
      seed.dispose();
      nowH.dispose();
      if (made.error) {
        const msg = JSON.stringify(this.ctx.dump(made.error));
        made.error.dispose();
        throw new Error(`envkit setup failed: ${msg}`);
      }
      this.vmNow = now;
      this.helpers = {
        obj: made.value,
        settleCall: this.ctx.getProp(made.value, "settleCall"),
        settleWait: this.ctx.getProp(made.value, "settleWait"),
        reject: this.ctx.getProp(made.value, "reject"),
        setNow: this.ctx.getProp(made.value, "setNow"),
        describe: this.ctx.getProp(made.value, "describe"),
        box: this.ctx.getProp(made.value, "box"),
        qName: this.ctx.getProp(made.value, "qName"),
        qArgs: this.ctx.getProp(made.value, "qArgs"),
        kTop: this.ctx.newString("top"),
        kAllow: this.ctx.newString("allow"),
        kOff: this.ctx.newString("off"),
        kW: this.ctx.newString("w"),
      };
      this.setAllowance();
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
  drain(): void {
    if (this.hostFailure !== null) return;
    this.guard(() => {
      this.syncNow();
      const r = this.rt.executePendingJobs(-1);
      if (r.error) {
        if (this.jobError === null) this.jobError = this.describe(r.error);
        r.error.dispose();
      }
      this.pull();
    });
  }

  /** Whether the program has ended, and how (null while it is suspended on a request). */
  end(): SessionEnd | null {
    const e = this.endRaw();
    if (e?.kind !== "error" || /out of memory/.test(e.error)) return e;
    // Allocation failures can surface oddly (a thrown null, an undescribable value, a trap):
    // say so when the linear memory is at, or well on the way to, its cap (it never shrinks).
    const used = this.instance.memory.buffer.byteLength;
    const cap = linearMemoryPages(this.o.memoryLimitBytes) * 65536;
    if (used > cap - 1024 * 1024)
      return {
        kind: "error",
        // (what the failing allocation then looked like varies, so it is not reported: the text stays reproducible)
        error: `InternalError: out of memory (memory cap ${MB(this.o.memoryLimitBytes)}): the sandbox's memory is exhausted`,
      };
    if (used >= cap / 2 && /(not an Error\): null$|threw an unknown|^sandbox failure)/.test(e.error))
      return {
        kind: "error",
        error: `${e.error} (the sandbox's memory had grown to ${MB(used)} of its ${MB(cap)} cap: probably out of memory)`,
      };
    return e;
  }

  private endRaw(): SessionEnd | null {
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
          const never: never = this.halt;
          throw new Error(`unknown halt ${JSON.stringify(never)}`);
        }
      }
    }
    if (this.budgetExceeded)
      return {
        kind: "error",
        error:
          this.zeroWaits > 0
            ? `step budget exceeded: ${this.o.stepBudget} interrupt polls (about ${this.o.stepBudget * 10_000} operations) without an envkit.wait that moves time forward (${this.zeroWaits} waits at ${iso(this.budgetAt)} did not; each costs ${ZERO_ADVANCE_WAIT_POLLS} poll); wait for a later time, e.g. envkit.wait(envkit.now() + 60000)`
            : `step budget exceeded: ${this.o.stepBudget} interrupt polls (about ${this.o.stepBudget * 10_000} operations) without an envkit.wait; a watcher must wait between checks`,
      };
    if (this.jobError !== null) return { kind: "error", error: this.jobError };
    const main = this.main;
    if (main === null) return { kind: "error", error: "the program did not start" };
    let out: SessionEnd | null = null;
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
          const never: never = st;
          throw new Error(`unknown promise state ${JSON.stringify(never)}`);
        }
      }
    });
    if (this.hostFailure !== null) return { kind: "error", error: this.hostFailure };
    return out;
  }

  /** The oldest queued data tool call (calls are issued at the current instant, before any wait). */
  nextCall(): PendingCall | undefined {
    return this.calls.shift();
  }

  takeWait(): PendingWait | null {
    const w = this.wait;
    this.wait = null;
    const h = this.helpers;
    // the prelude queues no other wait until this one is settled
    if (w !== null && h !== null) this.guard(() => this.ctx.setProp(h.box, h.kW, this.ctx.undefined));
    return w;
  }

  resolveCall(call: PendingCall, result: ToolResult): void {
    const json = JSON.stringify(
      result.ok ? { ok: true, value: result.value ?? null } : { ok: false, error: result.error },
    );
    this.settle(call.id, json, this.vmNow);
  }

  /**
   * The wait is over at `at`. A wait that moved the clock resets the step budget and the call cap;
   * one that did not (a wait until now) costs polls instead, and the call cap keeps counting, so
   * no program can spin or issue unbounded calls at one instant.
   */
  resumeAfterWait(_w: PendingWait, at: number): void {
    if (at > this.budgetAt) {
      this.budgetAt = at;
      this.polls = 0;
      this.callsSinceWait = 0;
      this.zeroWaits = 0;
      this.guard(() => this.setAllowance());
    } else {
      this.zeroWaits += 1;
      this.polls += ZERO_ADVANCE_WAIT_POLLS;
      if (this.polls > this.o.stepBudget) {
        this.budgetExceeded = true;
        return; // left unsettled: end() reports the budget, dispose() frees the promise
      }
    }
    this.settle(WAIT_ID, JSON.stringify(at), at);
  }

  /** Release the VM. Never throws: a failure here (QuickJS can abort at dispose) is recorded in `releaseFailure`. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.hostFailure !== null) return; // abandoned with its instance
    try {
      if (this.main?.alive) this.main.dispose();
      if (this.helpers !== null) {
        for (const h of [this.helpers.box, this.helpers.qName, this.helpers.qArgs]) h.dispose();
        for (const h of [this.helpers.kTop, this.helpers.kAllow, this.helpers.kOff, this.helpers.kW]) h.dispose();
        this.helpers.settleCall.dispose();
        this.helpers.settleWait.dispose();
        this.helpers.reject.dispose();
        this.helpers.setNow.dispose();
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
  private guard(fn: () => void): void {
    if (this.hostFailure !== null) return;
    try {
      fn();
    } catch (e) {
      let msg: string;
      try {
        msg = e instanceof Error ? e.message : String(e);
      } catch {
        msg = "an unprintable host exception";
      }
      this.hostFailure =
        e instanceof RangeError && /call stack/i.test(msg)
          ? "stack overflow: the program exhausted the sandbox's native stack (deep recursion through built-ins, deeply nested data or expressions); the sandbox was reset"
          : `sandbox failure: ${clip(msg, 500)}; the sandbox was reset`;
    }
  }

  /**
   * Settle request `id` (WAIT_ID: the wait) with the value of `json`, in one call into the sandbox.
   * The prelude resolves the request's promise with the parsed value; if parsing throws, the
   * promise rejects with that error. A wait's value is the instant it ended at, which becomes the
   * sandbox's now (`vmNow`: what the sandbox holds afterwards; `drain` brings it up to the clock if
   * they differ).
   */
  private settle(id: number, json: string, vmNowAfter: number): void {
    this.guard(() => {
      const helpers = this.helpers as NonNullable<typeof this.helpers>;
      const s = this.ctx.newString(json);
      const i = id === WAIT_ID ? null : this.ctx.newNumber(id);
      const r =
        i === null
          ? this.ctx.callFunction(helpers.settleWait, this.ctx.undefined, s)
          : this.ctx.callFunction(helpers.settleCall, this.ctx.undefined, i, s);
      s.dispose();
      this.vmNow = vmNowAfter;
      if (r.error) {
        // the parse failed (deeply nested or huge data): the request's promise rejects with that error
        const idH = i ?? this.ctx.newNumber(id);
        const j = this.ctx.callFunction(helpers.reject, this.ctx.undefined, idH, r.error);
        r.error.dispose();
        if (i === null) idH.dispose();
        if (j.error) j.error.dispose();
        else j.value.dispose();
      } else r.value.dispose();
      i?.dispose();
    });
  }

  /**
   * Read the requests the prelude queued since the last read (see "Requests" in README.md): calls
   * (ids in order) and the wait. Property reads only: no program code runs. Each is checked again
   * here as the raw host function would; one that fails (the prelude never queues such) ends the
   * program with a protocol error.
   */
  private pull(): void {
    const h = this.helpers;
    if (h === null || this.halt !== null || this.o.mode !== "run") return;
    const ctx = this.ctx;
    const topH = ctx.getProp(h.box, h.kTop);
    const top = ctx.typeof(topH) === "number" ? ctx.getNumber(topH) : Number.NaN;
    topH.dispose();
    if (!Number.isInteger(top) || top < this.pulled) {
      this.protocolError(`call id ${top}`);
      return;
    }
    for (let id = this.pulled; id < top; id++) {
      const nameH = ctx.getProp(h.qName, id);
      const name = ctx.typeof(nameH) === "string" ? ctx.getString(nameH) : null;
      nameH.dispose();
      const argsH = ctx.getProp(h.qArgs, id);
      const argsType = ctx.typeof(argsH);
      let json = argsType === "string" ? ctx.getString(argsH) : null;
      argsH.dispose();
      let args: unknown;
      try {
        args = json === null ? undefined : JSON.parse(json);
      } catch {
        json = null;
      }
      this.callsSinceWait += 1;
      if (name === null || !this.o.toolNames.includes(name) || (json === null && argsType !== "undefined")) {
        this.protocolError(`call ${id}`);
        return;
      }
      if (this.callsSinceWait > this.o.maxCallsBetweenWaits) {
        this.protocolError(`call ${id} beyond the cap`);
        return;
      }
      this.calls.push({ name, args, id });
    }
    this.pulled = top;
    if (this.wait !== null) return; // read already (the mailbox keeps it until takeWait)
    const wH = ctx.getProp(h.box, h.kW);
    const wType = ctx.typeof(wH);
    const until = wType === "number" ? ctx.getNumber(wH) : Number.NaN;
    wH.dispose();
    if (wType === "undefined") return;
    if (!Number.isInteger(until) || until < this.o.now() || this.o.noWait !== undefined) {
      this.protocolError(`wait until ${until}`);
      return;
    }
    this.wait = { until };
  }

  private protocolError(what: string): void {
    this.halt = {
      kind: "fatal",
      error: `sandbox protocol error: the envkit prelude queued an invalid request (${what})`,
    };
  }

  /** Tell the prelude how many calls it may queue at this instant. */
  private setAllowance(): void {
    const h = this.helpers;
    if (h === null) return;
    const n = this.ctx.newNumber(Math.max(0, this.o.maxCallsBetweenWaits - this.callsSinceWait));
    this.ctx.setProp(h.box, h.kAllow, n);
    n.dispose();
  }

  /** Bring the sandbox's now up to the clock before program code runs (a no-op unless the clock moved since the last settle). */
  private syncNow(): void {
    const now = this.o.now();
    if (now === this.vmNow || this.helpers === null) return;
    const h = this.ctx.newNumber(now);
    const r = this.ctx.callFunction(this.helpers.setNow, this.ctx.undefined, h);
    h.dispose();
    this.vmNow = now;
    if (r.error) r.error.dispose();
    else r.value.dispose();
  }

  /** A promise already rejected with `error` (a compile error of the module), consuming `error`. */
  private promiseRejectedWith(error: QuickJSHandle): QuickJSHandle {
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
  private describe(error: QuickJSHandle): string {
    const helpers = this.helpers;
    let d: Described | null = null;
    if (helpers !== null) {
      this.describing = true;
      this.describePolls = 0;
      this.ctx.setProp(helpers.box, helpers.kOff, this.ctx.true);
      try {
        const r = this.ctx.callFunction(helpers.describe, this.ctx.undefined, error);
        if (r.error) r.error.dispose();
        else {
          if (this.ctx.typeof(r.value) === "string") d = parseDescribed(this.ctx.getString(r.value));
          r.value.dispose();
        }
      } finally {
        this.describing = false;
        this.ctx.setProp(helpers.box, helpers.kOff, this.ctx.false);
      }
    }
    if (d === null) {
      const t = this.ctx.typeof(error);
      d = { thrown: t, shown: "(a value that could not be inspected, perhaps a Proxy)" };
    }
    return this.formatThrown(d);
  }

  private formatThrown(d: Described): string {
    if ("thrown" in d) {
      const article = /^[aeiou]/.test(d.thrown) ? "an" : "a";
      return `uncaught exception: the program threw ${article} ${d.thrown} (not an Error): ${d.shown === "" ? "(empty)" : clip(d.shown, 300)}`;
    }
    const frames = d.stack
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l.startsWith("at ") && !l.includes(ENVKIT_PRELUDE_FILE))
      .reduce<{ frame: string; n: number }[]>((acc, frame) => {
        const last = acc[acc.length - 1];
        if (last !== undefined && last.frame === frame) last.n += 1;
        else acc.push({ frame, n: 1 });
        return acc;
      }, [])
      .slice(0, 6)
      .map(({ frame, n }) => clip(n > 1 ? `${frame} (×${n})` : frame, 200));
    // the prelude already clipped these (name 100, message 2,000 characters); this is a backstop
    let msg = `${clip(d.name, 200)}: ${clip(d.message, MAX_MESSAGE_CHARS)}`;
    if (/out of memory/i.test(d.message)) msg += ` (memory cap ${MB(this.o.memoryLimitBytes)})`;
    if (/stack overflow/i.test(d.message)) msg = `stack overflow: ${msg} (stack cap ${KB(this.o.maxStackBytes)})`;
    return frames.length > 0 ? `${msg}\n    ${frames.join("\n    ")}` : `${msg} (in ${this.o.path})`;
  }

  // ---- raw host functions (see envkit-prelude.ts for the protocol) ------------------------------

  private rawFunctions(): QuickJSHandle {
    const ctx = this.ctx;
    const raw = ctx.newObject();
    const def = (name: string, fn: (...args: QuickJSHandle[]) => QuickJSHandle) => {
      const f = ctx.newFunction(name, fn);
      ctx.setProp(raw, name, f);
      f.dispose();
    };
    const reply = (o: object) => ctx.newString(JSON.stringify(o));
    const fail = (t: "TypeError" | "RangeError" | "Error", e: string) => reply({ e, t });
    const HALT = () => reply({ halt: 1 });
    const str = (h: QuickJSHandle | undefined) =>
      h !== undefined && ctx.typeof(h) === "string" ? ctx.getString(h) : null;
    const stop = (at: string) => {
      this.halt = { kind: "stopped", at };
      return HALT();
    };
    const ws = <T>(what: string, fn: (w: Workspace) => T) => {
      const w = this.o.workspace;
      if (w === null)
        return fail(
          "Error",
          `envkit.workspace.${what}: there is no workspace here (a when gate only reads data tools)`,
        );
      try {
        return reply({ v: fn(w) ?? null });
      } catch (e) {
        if (e instanceof WorkspaceError) return fail("Error", `envkit.workspace.${what}: ${e.message}`);
        throw e;
      }
    };

    def("deadline", () => (this.o.deadline === null ? ctx.null : ctx.newNumber(this.o.deadline)));

    const OFF = () => fail("Error", "envkit is unavailable while the sandbox describes an exception");
    def("wait", (h) => {
      this.pull(); // a wait the prelude queued in this same run is pending
      if (this.describing) return OFF();
      if (this.halt !== null) return HALT();
      if (this.o.noWait !== undefined) return fail("Error", this.o.noWait);
      if (h === undefined || ctx.typeof(h) !== "number")
        return fail(
          "TypeError",
          `envkit.wait(until): until must be an epoch-ms number (e.g. Date.parse("2026-03-02T09:00:00Z")), got ${h === undefined ? "undefined" : ctx.typeof(h)}`,
        );
      const asked = ctx.getNumber(h);
      if (!Number.isFinite(asked)) return fail("TypeError", `envkit.wait(until): until must be finite, got ${asked}`);
      // whole milliseconds: a fractional step below the clock's resolution would not move it
      const until = Math.ceil(asked);
      const now = this.o.now();
      if (until < now)
        return fail(
          "RangeError",
          `envkit.wait(until): until ${iso(until)} is before now ${iso(now)}; time only moves forward`,
        );
      if (this.o.mode === "validate") return stop("envkit.wait");
      if (this.wait !== null)
        return fail(
          "Error",
          "envkit.wait: another wait is already pending; await each envkit.wait before starting the next",
        );
      // the prelude queues every wait that gets this far itself (see pull)
      this.protocolError("a wait it should have queued");
      return HALT();
    });

    def("call", (nameH, argsH) => {
      this.pull(); // calls the prelude queued in this same run count towards the cap
      if (this.describing) return OFF();
      if (this.halt !== null) return HALT();
      const name = str(nameH);
      if (name === null || !this.o.toolNames.includes(name))
        return fail("TypeError", `envkit.tools: unknown tool ${name}`);
      const argsType = argsH === undefined ? "undefined" : ctx.typeof(argsH);
      if (argsType !== "undefined" && argsType !== "string")
        return fail("TypeError", `envkit.tools.${name}: arguments must be JSON`);
      if (this.o.mode === "validate") return stop(`envkit.tools.${name}`);
      this.callsSinceWait += 1;
      if (this.callsSinceWait > this.o.maxCallsBetweenWaits) {
        this.halt = {
          kind: "fatal",
          error: `wrapper flood: more than ${this.o.maxCallsBetweenWaits} envkit.tools calls without an envkit.wait that moves time forward (all at ${iso(this.budgetAt)}; last: ${name}); a watcher must wait between checks`,
        };
        return HALT();
      }
      // the prelude queues every call that gets this far itself (see pull)
      this.protocolError(`a call of ${name} it should have queued`);
      return HALT();
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
          `envkit.handover: payload is ${bytes} bytes of JSON; the limit is ${HANDOVER_MAX_BYTES} bytes`,
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
      return ws("read", (w) => w.readText(path));
    });
    def("wsList", (p) => {
      if (this.describing) return OFF();
      if (this.halt !== null) return HALT();
      const path = str(p);
      if (path === null) return fail("TypeError", "envkit.workspace.list(path?): path must be a string");
      return ws("list", (w) => w.ls(path));
    });
    def("wsWrite", (p, c) => {
      if (this.describing) return OFF();
      if (this.halt !== null) return HALT();
      const path = str(p);
      const content = str(c);
      if (path === null || content === null)
        return fail("TypeError", "envkit.workspace.write(path, content): path and content must be strings");
      if (this.o.mode === "validate") return stop("envkit.workspace.write");
      return ws("write", (w) => w.writeFile(path, content));
    });
    return raw;
  }
}

type Described = { name: string; message: string; stack: string } | { thrown: string; shown: string };

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}… (${s.length} characters)` : s);

const DescribedSchema = z.union([
  z.object({ name: z.string(), message: z.string(), stack: z.string() }).strict(),
  z.object({ thrown: z.string(), shown: z.string() }).strict(),
]);

/** The prelude's description of a thrown value, or null if it is not one (it comes from the guest). */
function parseDescribed(json: string): Described | null {
  try {
    const r = DescribedSchema.safeParse(JSON.parse(json));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}
