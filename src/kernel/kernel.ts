import type { Cron } from "croner";
import { nextUtcMidnight } from "../common/time.js";
import { BinaryHeap } from "./binary-heap.js";
import { compileCron, cronNext } from "./cron.js";

/**
 * The discrete-event kernel: the one simulated clock of a run (DESIGN invariant 1).
 *
 * Time is frozen while actor code runs. When every live actor waits, the kernel advances to the
 * earliest pending instant, calls the `onAdvance` hooks, runs the `at` callbacks due then (in
 * (t, insertion) order, awaiting each) and resumes the actors due then strictly one at a time in
 * waiter-id order (plain string comparison): one actor is resumed and awaited until it waits again
 * or its body returns before the next is considered. Nothing here reads wall time or uses
 * randomness; croner is only asked for `nextRun(simulatedInstant)` and never schedules timers.
 */

export type WakeReason = "start" | "sleep" | "trigger" | "cron" | "fallback" | "end";

export interface Wake {
  at: number;
  reason: WakeReason;
  triggerId?: string;
}

export interface TriggerInfo {
  id: string;
  kind: "once" | "cron";
  at?: number;
  cron?: string;
  next: number | null;
  note?: string;
}

export interface Actor {
  readonly id: string;
  now(): number;
  /**
   * Wait until t (t >= now) or an earlier due trigger of this actor: reason "sleep" at t, or
   * "trigger"/"cron" (triggerId set) if a trigger is due at or before t (a trigger due exactly at t
   * wins over sleep). If the earliest wake is >= end, resolves {at: end, reason: "end"}.
   */
  sleepUntil(t: number): Promise<Wake>;
  /**
   * Wait for this actor's next trigger; if it has none pending, a fallback wake at the next
   * 00:00 UTC strictly after now (reason "fallback"); "end" as above.
   */
  waitForTrigger(): Promise<Wake>;
}

type ActorBody = (self: Actor) => Promise<void>;
type AtCallback = (t: number) => void | Promise<void>;
type AdvanceHook = (from: number, to: number) => void | Promise<void>;

/** A scheduled heap entry: an environment callback, or the single live wake of a waiting actor. */
type Entry =
  | { kind: "at"; t: number; requested: number; seq: number; fn: AtCallback }
  | { kind: "wake"; t: number; actorId: string; seq: number; token: number };

type WaitSpec = { kind: "start" } | { kind: "sleep"; until: number } | { kind: "trigger"; fallbackAt: number };

interface ActorState {
  readonly id: string;
  readonly body: ActorBody;
  readonly handle: Actor;
  status: "waiting" | "running" | "done";
  wait: WaitSpec | null;
  /** token of the actor's one valid wake entry; older entries in the heap are stale */
  token: number;
  /** resolves the promise returned by the actor's current wait */
  deliver: ((w: Wake) => void) | null;
}

interface TriggerState {
  readonly id: string;
  readonly kind: "once" | "cron";
  readonly at?: number;
  readonly cron?: string;
  readonly job?: Cron;
  readonly note?: string;
  next: number | null;
  /** kernel-wide generation of the trigger's current heap entry */
  gen: number;
}

interface TriggerKey {
  next: number;
  id: string;
  gen: number;
}

interface TriggerTable {
  readonly byId: Map<string, TriggerState>;
  /** pending triggers by (next, id); entries whose gen no longer matches are stale */
  readonly heap: BinaryHeap<TriggerKey>;
}

interface Running {
  readonly actor: ActorState;
  readonly release: () => void;
}

function lessEntry(a: Entry, b: Entry): boolean {
  if (a.t !== b.t) return a.t < b.t;
  if (a.kind !== b.kind) return a.kind === "at";
  if (a.kind === "at" && b.kind === "at") {
    if (a.requested !== b.requested) return a.requested < b.requested;
    return a.seq < b.seq;
  }
  if (a.kind === "wake" && b.kind === "wake" && a.actorId !== b.actorId) return a.actorId < b.actorId;
  return a.seq < b.seq;
}

function lessTrigger(a: TriggerKey, b: TriggerKey): boolean {
  if (a.next !== b.next) return a.next < b.next;
  if (a.id !== b.id) return a.id < b.id;
  return a.gen < b.gen;
}

function assertInstant(what: string, t: number): void {
  if (typeof t !== "number" || !Number.isFinite(t))
    throw new RangeError(`${what}: not a finite epoch-ms instant: ${t}`);
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class Kernel {
  readonly start: number;
  readonly end: number;

  private clock: number;
  private seq = 0;
  private gen = 0;
  private phase: "idle" | "running" | "finished" = "idle";
  private readonly heap = new BinaryHeap<Entry>(lessEntry);
  private readonly actors = new Map<string, ActorState>();
  private readonly triggers = new Map<string, TriggerTable>();
  private readonly advanceHooks: AdvanceHook[] = [];
  private running: Running | null = null;
  private failure: { error: Error } | null = null;

  /** `start` and `end` are UTC epoch ms; `end` is exclusive and must be after `start`. */
  constructor(opts: { start: number; end: number }) {
    assertInstant("start", opts.start);
    assertInstant("end", opts.end);
    if (!(opts.end > opts.start)) throw new RangeError(`end (${opts.end}) must be after start (${opts.start})`);
    this.start = opts.start;
    this.end = opts.end;
    this.clock = opts.start;
  }

  now(): number {
    return this.clock;
  }

  /**
   * Environment callback at sim time t (settlement etc). Runs when the clock reaches t, BEFORE any
   * actor due at t, in (t, insertion) order; `fn` receives the instant it runs at. t < now throws.
   * t >= end runs at end (still in (t, insertion) order) before the end wakes. A callback added for
   * the current instant runs as soon as the running actor (if any) waits.
   */
  at(t: number, fn: (t: number) => void | Promise<void>): void {
    assertInstant("at", t);
    if (t < this.clock) throw new RangeError(`at(${t}) is in the past (now ${this.clock})`);
    if (this.phase === "finished") throw new Error("kernel has finished");
    this.heap.push({ kind: "at", t: Math.min(t, this.end), requested: t, seq: this.seq++, fn });
  }

  /** Hook called each time the clock moves from `from` to `to` (now() is already `to`), before the `at` callbacks at `to`. */
  onAdvance(fn: (from: number, to: number) => void | Promise<void>): void {
    this.advanceHooks.push(fn);
  }

  /**
   * Register an actor (a "waiter"). All actors spawned before run() start at `start` in id order;
   * one spawned during run() starts at the current instant (after the running actor waits).
   */
  spawn(id: string, body: (self: Actor) => Promise<void>): void {
    if (typeof id !== "string" || id.length === 0) throw new Error("actor id must be a non-empty string");
    if (this.actors.has(id)) throw new Error(`actor "${id}" already exists`);
    if (this.phase === "finished") throw new Error("kernel has finished");
    const handle: Actor = {
      id,
      now: () => this.clock,
      sleepUntil: (t: number) => this.sleepUntilFor(state, t),
      waitForTrigger: () => this.waitForTriggerFor(state),
    };
    const state: ActorState = { id, body, handle, status: "waiting", wait: { kind: "start" }, token: 0, deliver: null };
    this.actors.set(id, state);
    if (this.phase === "running") this.schedule(state);
  }

  /**
   * Drive the simulation until every actor's body has returned and every `at` callback has run;
   * the clock finishes at `end` (advanced there, with hooks, if the actors finished earlier).
   * Rejects if an actor body throws (the message names the actor), or if a hook/callback throws.
   */
  async run(): Promise<void> {
    if (this.phase !== "idle") throw new Error("run() may be called only once");
    this.phase = "running";
    for (const a of this.actors.values()) this.schedule(a);
    try {
      for (;;) {
        this.throwIfFailed();
        const entry = this.peekLive();
        if (entry === undefined) {
          if (this.clock >= this.end) break;
          // every actor has returned early: the clock still runs to end (hooks may schedule more)
          await this.advanceTo(this.end);
          continue;
        }
        if (entry.t > this.clock) {
          // hooks may add callbacks or change triggers at the new instant: look again afterwards
          await this.advanceTo(entry.t);
          continue;
        }
        this.heap.pop();
        switch (entry.kind) {
          case "at":
            await entry.fn(this.clock);
            break;
          case "wake": {
            const actor = this.actors.get(entry.actorId) as ActorState;
            await this.resume(actor, this.wakeFor(actor));
            break;
          }
          default: {
            const never: never = entry;
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
  addOnce(actorId: string, triggerId: string, at: number, note?: string): void {
    assertInstant("addOnce", at);
    if (!(at > this.clock)) throw new RangeError(`trigger "${triggerId}" at ${at} must be after now (${this.clock})`);
    const table = this.newTrigger(actorId, triggerId);
    const state: TriggerState = { id: triggerId, kind: "once", at, next: at, gen: ++this.gen, ...noteOf(note) };
    this.install(actorId, table, state);
  }

  /** Cron trigger (croner syntax, UTC); it fires strictly after install time, then strictly after each fire. */
  addCron(actorId: string, triggerId: string, expr: string, note?: string): void {
    const job = compileCron(expr);
    const table = this.newTrigger(actorId, triggerId);
    const next = cronNext(job, this.clock);
    const state: TriggerState = {
      id: triggerId,
      kind: "cron",
      cron: expr,
      job,
      next,
      gen: ++this.gen,
      ...noteOf(note),
    };
    this.install(actorId, table, state);
  }

  removeTrigger(actorId: string, triggerId: string): boolean {
    const table = this.triggers.get(actorId);
    if (table === undefined || !table.byId.delete(triggerId)) return false;
    this.reschedule(actorId);
    return true;
  }

  /** The actor's triggers (pending or exhausted crons), sorted by id. */
  listTriggers(actorId: string): TriggerInfo[] {
    const table = this.triggers.get(actorId);
    if (table === undefined) return [];
    const ids = [...table.byId.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return ids.map((id) => {
      const s = table.byId.get(id) as TriggerState;
      const info: TriggerInfo = { id: s.id, kind: s.kind, next: s.next };
      if (s.at !== undefined) info.at = s.at;
      if (s.cron !== undefined) info.cron = s.cron;
      if (s.note !== undefined) info.note = s.note;
      return info;
    });
  }

  // ---- actor waits -------------------------------------------------------------------------------

  private sleepUntilFor(a: ActorState, t: number): Promise<Wake> {
    this.assertRunning(a, "sleepUntil");
    if (this.clock >= this.end) return Promise.resolve({ at: this.end, reason: "end" });
    assertInstant(`actor "${a.id}" sleepUntil`, t);
    if (t < this.clock) throw new RangeError(`actor "${a.id}" sleepUntil(${t}) is in the past (now ${this.clock})`);
    return this.park(a, { kind: "sleep", until: t });
  }

  private waitForTriggerFor(a: ActorState): Promise<Wake> {
    this.assertRunning(a, "waitForTrigger");
    if (this.clock >= this.end) return Promise.resolve({ at: this.end, reason: "end" });
    return this.park(a, { kind: "trigger", fallbackAt: nextUtcMidnight(this.clock) });
  }

  private assertRunning(a: ActorState, what: string): void {
    if (this.running?.actor !== a) {
      const why =
        a.status === "done"
          ? "its body has returned"
          : a.status === "waiting"
            ? "it is already waiting"
            : "it is not the running actor";
      throw new Error(`actor "${a.id}" cannot ${what}: ${why}`);
    }
  }

  private park(a: ActorState, wait: WaitSpec): Promise<Wake> {
    const running = this.running as Running;
    const wake = new Promise<Wake>((resolve) => {
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
  private resume(a: ActorState, wake: Wake): Promise<void> {
    return new Promise<void>((release) => {
      this.running = { actor: a, release };
      a.status = "running";
      a.wait = null;
      if (wake.reason === "start") {
        this.startBody(a);
        return;
      }
      const deliver = a.deliver as (w: Wake) => void;
      a.deliver = null;
      deliver(wake);
    });
  }

  private startBody(a: ActorState): void {
    let done: Promise<void>;
    try {
      done = Promise.resolve(a.body(a.handle));
    } catch (e) {
      done = Promise.reject(e);
    }
    done.then(
      () => this.finishActor(a),
      (e: unknown) => {
        this.finishActor(a);
        this.fail(new Error(`actor "${a.id}" failed: ${messageOf(e)}`, { cause: e }));
      },
    );
  }

  private finishActor(a: ActorState): void {
    a.status = "done";
    a.wait = null;
    a.deliver = null;
    if (this.running?.actor === a) {
      const running = this.running;
      this.running = null;
      running.release();
    }
  }

  private fail(error: Error): void {
    if (this.failure !== null) return;
    this.failure = { error };
    // stop awaiting whoever runs now (an actor can fail from a stray promise while another runs)
    const running = this.running;
    this.running = null;
    running?.release();
  }

  private throwIfFailed(): void {
    if (this.failure !== null) throw this.failure.error;
  }

  // ---- scheduling --------------------------------------------------------------------------------

  private async advanceTo(t: number): Promise<void> {
    const from = this.clock;
    this.clock = t;
    for (const hook of this.advanceHooks) await hook(from, t);
  }

  /** The earliest entry that is not stale (stale wake entries are dropped on the way). */
  private peekLive(): Entry | undefined {
    for (;;) {
      const e = this.heap.peek();
      if (e === undefined || e.kind === "at") return e;
      const a = this.actors.get(e.actorId);
      if (a !== undefined && a.status === "waiting" && a.token === e.token) return e;
      this.heap.pop();
    }
  }

  /** (Re)compute the waiting actor's single wake entry. */
  private schedule(a: ActorState): void {
    a.token += 1;
    this.heap.push({ kind: "wake", t: this.wakeTime(a), actorId: a.id, seq: this.seq++, token: a.token });
  }

  private reschedule(actorId: string): void {
    const a = this.actors.get(actorId);
    if (this.phase !== "running" || a === undefined || a.status !== "waiting" || a.wait?.kind === "start") return;
    this.schedule(a);
  }

  private wakeTime(a: ActorState): number {
    const wait = a.wait as WaitSpec;
    let t: number;
    switch (wait.kind) {
      case "start":
        t = this.phase === "running" ? this.clock : this.start;
        break;
      case "sleep":
        t = Math.min(wait.until, this.earliestTrigger(a.id)?.next ?? Number.POSITIVE_INFINITY);
        break;
      case "trigger": {
        const trig = this.earliestTrigger(a.id);
        if (trig !== undefined) {
          t = trig.next as number;
        } else {
          // the fallback instant may have been passed while a (since removed) trigger was pending
          if (wait.fallbackAt < this.clock) wait.fallbackAt = nextUtcMidnight(this.clock);
          t = wait.fallbackAt;
        }
        break;
      }
      default: {
        const never: never = wait;
        throw new Error(`unknown wait ${JSON.stringify(never)}`);
      }
    }
    return Math.min(t, this.end);
  }

  /** Decide (and consume) the wake of actor `a`, whose live entry is due now. */
  private wakeFor(a: ActorState): Wake {
    const wait = a.wait as WaitSpec;
    const at = this.clock;
    if (wait.kind === "start") return { at, reason: "start" };
    if (at >= this.end) return { at: this.end, reason: "end" };
    const trig = this.earliestTrigger(a.id);
    if (trig !== undefined && (trig.next as number) <= at) return this.fire(a.id, trig);
    switch (wait.kind) {
      case "sleep":
        if (wait.until <= at) return { at, reason: "sleep" };
        break;
      case "trigger":
        if (trig === undefined && wait.fallbackAt <= at) return { at, reason: "fallback" };
        break;
      default: {
        const never: never = wait;
        throw new Error(`unknown wait ${JSON.stringify(never)}`);
      }
    }
    throw new Error(`kernel invariant broken: actor "${a.id}" woken at ${at} with nothing due`);
  }

  private fire(actorId: string, trig: TriggerState): Wake {
    const table = this.triggers.get(actorId) as TriggerTable;
    const at = this.clock;
    switch (trig.kind) {
      case "once":
        table.byId.delete(trig.id);
        return { at, reason: "trigger", triggerId: trig.id };
      case "cron":
        trig.next = cronNext(trig.job as Cron, at);
        trig.gen = ++this.gen;
        if (trig.next !== null) table.heap.push({ next: trig.next, id: trig.id, gen: trig.gen });
        return { at, reason: "cron", triggerId: trig.id };
      default: {
        const never: never = trig.kind;
        throw new Error(`unknown trigger kind ${String(never)}`);
      }
    }
  }

  /** The actor's pending trigger with the smallest (next, id), dropping stale heap keys. */
  private earliestTrigger(actorId: string): TriggerState | undefined {
    const table = this.triggers.get(actorId);
    if (table === undefined) return undefined;
    for (;;) {
      const key = table.heap.peek();
      if (key === undefined) return undefined;
      const s = table.byId.get(key.id);
      if (s !== undefined && s.gen === key.gen) return s;
      table.heap.pop();
    }
  }

  private newTrigger(actorId: string, triggerId: string): TriggerTable {
    if (typeof triggerId !== "string" || triggerId.length === 0)
      throw new Error("trigger id must be a non-empty string");
    if (this.phase === "finished") throw new Error("kernel has finished");
    let table = this.triggers.get(actorId);
    if (table === undefined) {
      table = { byId: new Map(), heap: new BinaryHeap<TriggerKey>(lessTrigger) };
      this.triggers.set(actorId, table);
    }
    if (table.byId.has(triggerId)) throw new Error(`actor "${actorId}" already has a trigger "${triggerId}"`);
    return table;
  }

  private install(actorId: string, table: TriggerTable, state: TriggerState): void {
    table.byId.set(state.id, state);
    if (state.next !== null) table.heap.push({ next: state.next, id: state.id, gen: state.gen });
    this.reschedule(actorId);
  }
}

function noteOf(note: string | undefined): { note?: string } {
  return note === undefined ? {} : { note };
}
