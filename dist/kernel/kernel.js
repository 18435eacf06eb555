import { BinaryHeap } from "./binary-heap.js";
import { compileCron, cronNext } from "./cron.js";
import { nextUtcMidnight } from "./day.js";
function lessEntry(a, b) {
  if (a.t !== b.t) return a.t < b.t;
  if (a.kind !== b.kind) return a.kind === "at";
  if (a.kind === "at" && b.kind === "at") {
    if (a.requested !== b.requested) return a.requested < b.requested;
    return a.seq < b.seq;
  }
  if (a.kind === "wake" && b.kind === "wake" && a.actorId !== b.actorId) return a.actorId < b.actorId;
  return a.seq < b.seq;
}
function lessTrigger(a, b) {
  if (a.next !== b.next) return a.next < b.next;
  if (a.id !== b.id) return a.id < b.id;
  return a.gen < b.gen;
}
function assertInstant(what, t) {
  if (typeof t !== "number" || !Number.isFinite(t))
    throw new RangeError(`${what}: not a finite epoch-ms instant: ${t}`);
}
function messageOf(e) {
  return e instanceof Error ? e.message : String(e);
}
class Kernel {
  start;
  end;
  clock;
  seq = 0;
  gen = 0;
  phase = "idle";
  heap = new BinaryHeap(lessEntry);
  actors = /* @__PURE__ */ new Map();
  triggers = /* @__PURE__ */ new Map();
  advanceHooks = [];
  running = null;
  failure = null;
  /** `start` and `end` are UTC epoch ms; `end` is exclusive and must be after `start`. */
  constructor(opts) {
    assertInstant("start", opts.start);
    assertInstant("end", opts.end);
    if (!(opts.end > opts.start)) throw new RangeError(`end (${opts.end}) must be after start (${opts.start})`);
    this.start = opts.start;
    this.end = opts.end;
    this.clock = opts.start;
  }
  now() {
    return this.clock;
  }
  /**
   * Environment callback at sim time t (settlement etc). Runs when the clock reaches t, BEFORE any
   * actor due at t, in (t, insertion) order; `fn` receives the instant it runs at. t < now throws.
   * t >= end runs at end (still in (t, insertion) order) before the end wakes. A callback added for
   * the current instant runs as soon as the running actor (if any) waits.
   */
  at(t, fn) {
    assertInstant("at", t);
    if (t < this.clock) throw new RangeError(`at(${t}) is in the past (now ${this.clock})`);
    if (this.phase === "finished") throw new Error("kernel has finished");
    this.heap.push({ kind: "at", t: Math.min(t, this.end), requested: t, seq: this.seq++, fn });
  }
  /** Hook called each time the clock moves from `from` to `to` (now() is already `to`), before the `at` callbacks at `to`. */
  onAdvance(fn) {
    this.advanceHooks.push(fn);
  }
  /**
   * Register an actor (a "waiter"). All actors spawned before run() start at `start` in id order;
   * one spawned during run() starts at the current instant (after the running actor waits).
   */
  spawn(id, body) {
    if (typeof id !== "string" || id.length === 0) throw new Error("actor id must be a non-empty string");
    if (this.actors.has(id)) throw new Error(`actor "${id}" already exists`);
    if (this.phase === "finished") throw new Error("kernel has finished");
    const handle = {
      id,
      now: () => this.clock,
      sleepUntil: (t) => this.sleepUntilFor(state, t),
      waitForTrigger: () => this.waitForTriggerFor(state)
    };
    const state = { id, body, handle, status: "waiting", wait: { kind: "start" }, token: 0, deliver: null };
    this.actors.set(id, state);
    if (this.phase === "running") this.schedule(state);
  }
  /**
   * Drive the simulation until every actor's body has returned and every `at` callback has run;
   * the clock finishes at `end` (advanced there, with hooks, if the actors finished earlier).
   * Rejects if an actor body throws (the message names the actor), or if a hook/callback throws.
   */
  async run() {
    if (this.phase !== "idle") throw new Error("run() may be called only once");
    this.phase = "running";
    for (const a of this.actors.values()) this.schedule(a);
    try {
      for (; ; ) {
        this.throwIfFailed();
        const entry = this.peekLive();
        if (entry === void 0) {
          if (this.clock >= this.end) break;
          await this.advanceTo(this.end);
          continue;
        }
        if (entry.t > this.clock) {
          await this.advanceTo(entry.t);
          continue;
        }
        this.heap.pop();
        switch (entry.kind) {
          case "at":
            await entry.fn(this.clock);
            break;
          case "wake": {
            const actor = this.actors.get(entry.actorId);
            await this.resume(actor, this.wakeFor(actor));
            break;
          }
          default: {
            const never = entry;
            throw new Error(`unknown entry ${JSON.stringify(never)}`);
          }
        }
      }
      this.throwIfFailed();
    } finally {
      this.phase = "finished";
    }
  }
  /** One-shot trigger for `actorId` at `at` (must be > now); removed after it fires. Trigger ids are unique per actor. */
  addOnce(actorId, triggerId, at, note) {
    assertInstant("addOnce", at);
    if (!(at > this.clock)) throw new RangeError(`trigger "${triggerId}" at ${at} must be after now (${this.clock})`);
    const table = this.newTrigger(actorId, triggerId);
    const state = { id: triggerId, kind: "once", at, next: at, gen: ++this.gen, ...noteOf(note) };
    this.install(actorId, table, state);
  }
  /** Cron trigger (croner syntax, UTC); it fires strictly after install time, then strictly after each fire. */
  addCron(actorId, triggerId, expr, note) {
    const job = compileCron(expr);
    const table = this.newTrigger(actorId, triggerId);
    const next = cronNext(job, this.clock);
    const state = {
      id: triggerId,
      kind: "cron",
      cron: expr,
      job,
      next,
      gen: ++this.gen,
      ...noteOf(note)
    };
    this.install(actorId, table, state);
  }
  removeTrigger(actorId, triggerId) {
    const table = this.triggers.get(actorId);
    if (table === void 0 || !table.byId.delete(triggerId)) return false;
    this.reschedule(actorId);
    return true;
  }
  /** The actor's triggers (pending or exhausted crons), sorted by id. */
  listTriggers(actorId) {
    const table = this.triggers.get(actorId);
    if (table === void 0) return [];
    const ids = [...table.byId.keys()].sort((a, b) => a < b ? -1 : a > b ? 1 : 0);
    return ids.map((id) => {
      const s = table.byId.get(id);
      const info = { id: s.id, kind: s.kind, next: s.next };
      if (s.at !== void 0) info.at = s.at;
      if (s.cron !== void 0) info.cron = s.cron;
      if (s.note !== void 0) info.note = s.note;
      return info;
    });
  }
  // ---- actor waits -------------------------------------------------------------------------------
  sleepUntilFor(a, t) {
    this.assertRunning(a, "sleepUntil");
    if (this.clock >= this.end) return Promise.resolve({ at: this.end, reason: "end" });
    assertInstant(`actor "${a.id}" sleepUntil`, t);
    if (t < this.clock) throw new RangeError(`actor "${a.id}" sleepUntil(${t}) is in the past (now ${this.clock})`);
    return this.park(a, { kind: "sleep", until: t });
  }
  waitForTriggerFor(a) {
    this.assertRunning(a, "waitForTrigger");
    if (this.clock >= this.end) return Promise.resolve({ at: this.end, reason: "end" });
    return this.park(a, { kind: "trigger", fallbackAt: nextUtcMidnight(this.clock) });
  }
  assertRunning(a, what) {
    if (this.running?.actor !== a) {
      const why = a.status === "done" ? "its body has returned" : a.status === "waiting" ? "it is already waiting" : "it is not the running actor";
      throw new Error(`actor "${a.id}" cannot ${what}: ${why}`);
    }
  }
  park(a, wait) {
    const running = this.running;
    const wake = new Promise((resolve) => {
      a.deliver = resolve;
    });
    a.status = "waiting";
    a.wait = wait;
    this.schedule(a);
    this.running = null;
    running.release();
    return wake;
  }
  /** Resume `a` with `wake` and resolve once it waits again or its body settles. */
  resume(a, wake) {
    return new Promise((release) => {
      this.running = { actor: a, release };
      a.status = "running";
      a.wait = null;
      if (wake.reason === "start") {
        this.startBody(a);
        return;
      }
      const deliver = a.deliver;
      a.deliver = null;
      deliver(wake);
    });
  }
  startBody(a) {
    let done;
    try {
      done = Promise.resolve(a.body(a.handle));
    } catch (e) {
      done = Promise.reject(e);
    }
    done.then(
      () => this.finishActor(a),
      (e) => {
        this.finishActor(a);
        this.fail(new Error(`actor "${a.id}" failed: ${messageOf(e)}`, { cause: e }));
      }
    );
  }
  finishActor(a) {
    a.status = "done";
    a.wait = null;
    a.deliver = null;
    if (this.running?.actor === a) {
      const running = this.running;
      this.running = null;
      running.release();
    }
  }
  fail(error) {
    if (this.failure !== null) return;
    this.failure = { error };
    const running = this.running;
    this.running = null;
    running?.release();
  }
  throwIfFailed() {
    if (this.failure !== null) throw this.failure.error;
  }
  // ---- scheduling --------------------------------------------------------------------------------
  async advanceTo(t) {
    const from = this.clock;
    this.clock = t;
    for (const hook of this.advanceHooks) await hook(from, t);
  }
  /** The earliest entry that is not stale (stale wake entries are dropped on the way). */
  peekLive() {
    for (; ; ) {
      const e = this.heap.peek();
      if (e === void 0 || e.kind === "at") return e;
      const a = this.actors.get(e.actorId);
      if (a !== void 0 && a.status === "waiting" && a.token === e.token) return e;
      this.heap.pop();
    }
  }
  /** (Re)compute the waiting actor's single wake entry. */
  schedule(a) {
    a.token += 1;
    this.heap.push({ kind: "wake", t: this.wakeTime(a), actorId: a.id, seq: this.seq++, token: a.token });
  }
  reschedule(actorId) {
    const a = this.actors.get(actorId);
    if (this.phase !== "running" || a === void 0 || a.status !== "waiting" || a.wait?.kind === "start") return;
    this.schedule(a);
  }
  wakeTime(a) {
    const wait = a.wait;
    let t;
    switch (wait.kind) {
      case "start":
        t = this.phase === "running" ? this.clock : this.start;
        break;
      case "sleep":
        t = Math.min(wait.until, this.earliestTrigger(a.id)?.next ?? Number.POSITIVE_INFINITY);
        break;
      case "trigger": {
        const trig = this.earliestTrigger(a.id);
        if (trig !== void 0) {
          t = trig.next;
        } else {
          if (wait.fallbackAt < this.clock) wait.fallbackAt = nextUtcMidnight(this.clock);
          t = wait.fallbackAt;
        }
        break;
      }
      default: {
        const never = wait;
        throw new Error(`unknown wait ${JSON.stringify(never)}`);
      }
    }
    return Math.min(t, this.end);
  }
  /** Decide (and consume) the wake of actor `a`, whose live entry is due now. */
  wakeFor(a) {
    const wait = a.wait;
    const at = this.clock;
    if (wait.kind === "start") return { at, reason: "start" };
    if (at >= this.end) return { at: this.end, reason: "end" };
    const trig = this.earliestTrigger(a.id);
    if (trig !== void 0 && trig.next <= at) return this.fire(a.id, trig);
    switch (wait.kind) {
      case "sleep":
        if (wait.until <= at) return { at, reason: "sleep" };
        break;
      case "trigger":
        if (trig === void 0 && wait.fallbackAt <= at) return { at, reason: "fallback" };
        break;
      default: {
        const never = wait;
        throw new Error(`unknown wait ${JSON.stringify(never)}`);
      }
    }
    throw new Error(`kernel invariant broken: actor "${a.id}" woken at ${at} with nothing due`);
  }
  fire(actorId, trig) {
    const table = this.triggers.get(actorId);
    const at = this.clock;
    switch (trig.kind) {
      case "once":
        table.byId.delete(trig.id);
        return { at, reason: "trigger", triggerId: trig.id };
      case "cron":
        trig.next = cronNext(trig.job, at);
        trig.gen = ++this.gen;
        if (trig.next !== null) table.heap.push({ next: trig.next, id: trig.id, gen: trig.gen });
        return { at, reason: "cron", triggerId: trig.id };
      default: {
        const never = trig.kind;
        throw new Error(`unknown trigger kind ${String(never)}`);
      }
    }
  }
  /** The actor's pending trigger with the smallest (next, id), dropping stale heap keys. */
  earliestTrigger(actorId) {
    const table = this.triggers.get(actorId);
    if (table === void 0) return void 0;
    for (; ; ) {
      const key = table.heap.peek();
      if (key === void 0) return void 0;
      const s = table.byId.get(key.id);
      if (s !== void 0 && s.gen === key.gen) return s;
      table.heap.pop();
    }
  }
  newTrigger(actorId, triggerId) {
    if (typeof triggerId !== "string" || triggerId.length === 0)
      throw new Error("trigger id must be a non-empty string");
    if (this.phase === "finished") throw new Error("kernel has finished");
    let table = this.triggers.get(actorId);
    if (table === void 0) {
      table = { byId: /* @__PURE__ */ new Map(), heap: new BinaryHeap(lessTrigger) };
      this.triggers.set(actorId, table);
    }
    if (table.byId.has(triggerId)) throw new Error(`actor "${actorId}" already has a trigger "${triggerId}"`);
    return table;
  }
  install(actorId, table, state) {
    table.byId.set(state.id, state);
    if (state.next !== null) table.heap.push({ next: state.next, id: state.id, gen: state.gen });
    this.reschedule(actorId);
  }
}
function noteOf(note) {
  return note === void 0 ? {} : { note };
}
export {
  Kernel
};
//# sourceMappingURL=kernel.js.map
