import { isoInstant, utcDayNumber } from "../common/time.js";
import type { Actor } from "../kernel/kernel.js";
import type { LedgerWriter } from "../ledger/ledger-writer.js";
import type { Redactor } from "../ledger/redactor.js";
import type { Wallet } from "../ledger/wallet.js";
import type { ToolResult } from "../tools/tool.js";
import type { ToolDoc, ToolRuntime } from "../tools/tool-runtime.js";
import { type AgentTrigger, type AgentWake, type IntentSlot, waitToolOf, waitUntilOf } from "../triggers/trigger.js";

/** The ledger note kind (and results flag) of an outside-agent run ended by its wall-clock idle timeout. */
export const EXTERNAL_IDLE_TIMEOUT = "external_idle_timeout";
/** Default wall-clock idle timeout of an outside agent (seconds without an MCP request). */
export const DEFAULT_IDLE_TIMEOUT_S = 600;

/** What the runner hands the outside actor: the same runtime, trigger and intent slot an LLM actor gets. */
export interface ExternalActorContext {
  /** the run's tools plus the trigger's clock tool and `finish` (every call is validated, priced, limited, ledgered) */
  runtime: ToolRuntime;
  trigger: AgentTrigger;
  slot: IntentSlot;
  ledger: LedgerWriter;
  /** the task's rendered instruction */
  instruction: string;
  /** the latest daily cost brief line */
  dailyBrief: () => string | null;
  /** the task's text for a wake (e.g. open-forecast's daily recap), or null */
  wakeNote: (w: { at: number; reason: string }) => string | null;
  /** the run's wallet (the metering proxy's model calls are refused once the LLM cap or the budget is spent) */
  wallet: Wallet;
  /** the run's secrets (redacted from llm.jsonl like the ledger) */
  secrets: Redactor;
  /** the run directory (the metering proxy appends to its llm.jsonl) */
  runDir: string;
}

/** Token usage as the provider reported it (input includes cached input). */
export interface MeteredUsage {
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
}

/** What the metering proxy reports for one forwarded model request (it never throws: failures are `ok: false`). */
export interface MeteredCall {
  ok: boolean;
  /** the price-table key the call is billed under (ledgered as `llm_call.model`) */
  model: string;
  usage: MeteredUsage;
  cost_usd: number;
  provider_cost_usd?: number;
  /** why the attempt failed (`HTTP <status>: <message>`, or the network error) */
  error?: string;
}

/**
 * How the actor answered a model request: forwarded (and billed); refused before it left (the LLM cap
 * or budget is spent); or not sent because the run is over (`ended`: the proxy closes the app's loop
 * with a reply of its own, unbilled).
 */
export type ModelCallReply =
  | { kind: "forwarded"; call: MeteredCall }
  | { kind: "refused"; reason: string }
  | { kind: "ended"; reason: string };

/** Where a forwarded model request sits in the run: its actor and model-call index, and where to log it. */
export interface ModelCallSlot {
  actor: string;
  callIndex: number;
  runDir: string;
  secrets: Redactor;
}

/** One model request waiting for the actor: `forward` runs inside the actor's turn (simulated time frozen). */
interface ModelJob {
  forward: (at: ModelCallSlot) => Promise<MeteredCall>;
  resolve: (r: ModelCallReply) => void;
  reject: (e: Error) => void;
}

/** Builds the kernel body of the one outside actor of a run. */
export type ExternalActorFactory = (ctx: ExternalActorContext) => (self: Actor) => Promise<void>;

/** One tool call as the MCP server returns it: the in-process tool text, and a line with the simulated time. */
export interface CallReply {
  ok: boolean;
  /** the tool's JSON value, or `ERROR: <reason>` (what an in-process agent sees) */
  text: string;
  /** `now: <ISO>`, or the wake marker after a clock tool, or how the run ended */
  clock: string;
}

/** How an outside agent's participation ended. */
export type EndCause = "finish" | "sim_end" | "session_closed" | "idle_timeout";

/** What the caller reports once the run is over (results.json written). */
export interface RunSettled {
  runDir: string;
  sim_end: number;
}

interface Pending {
  name: string;
  args: unknown;
  resolve: (r: CallReply) => void;
  reject: (e: Error) => void;
}

type Item = { kind: "call"; call: Pending } | { kind: "model"; job: ModelJob };
type Next = Item | { kind: "closed" } | { kind: "idle" };

const resultText = (r: ToolResult) => (r.ok ? (JSON.stringify(r.value) ?? "null") : `ERROR: ${r.error}`);

/**
 * The outside agent as ONE kernel actor. The MCP server pushes tool calls into a queue; the actor
 * body (running inside the kernel, so simulated time is frozen) takes them one at a time in arrival
 * order and runs each through the run's `ToolRuntime.call`. The clock moves only when a call leaves
 * a wait intent (the trigger's `sleep`, or a task tool such as open-forecast's `next_day`): the body
 * ledgers the wait, the kernel advances (settling outcomes, daily briefs), and the reply to that call
 * is sent at the wake, with the wake marker. `finish`, the end of the episode, a closed session and
 * the wall-clock idle timeout end the actor (each ledgered); the clock then runs to sim_end and the
 * reply to the last call is sent once results.json is written. Calls after that are free rejections.
 */
export class OutsideAgent {
  private ctx: ExternalActorContext | null = null;
  private readonly queue: Item[] = [];
  private waiting: ((n: Next) => void) | null = null;
  private closed = false;
  private ended: { cause: EndCause; last: { call: Pending; result: ToolResult } | null } | null = null;
  private settled: { cause: EndCause; runDir: string; sim_end: number } | null = null;
  private failure: Error | null = null;
  private readyResolve!: () => void;
  private readyReject!: (e: Error) => void;
  /** resolves once the runner has spawned the actor (the run's tools exist) */
  readonly ready: Promise<void>;

  constructor(
    private readonly o: {
      idleTimeoutMs: number;
      /** ledger notes written when the actor starts (e.g. how an `--agent-cmd` app is confined) */
      startNotes?: { kind: string; message: string }[];
    },
  ) {
    this.ready = new Promise<void>((res, rej) => {
      this.readyResolve = res;
      this.readyReject = rej;
    });
    this.ready.catch(() => {});
  }

  /** The task instruction plus how the clock works for an outside agent (MCP `instructions`). */
  instructions(): string {
    const c = this.context();
    return [
      c.instruction,
      "",
      "## How you run",
      "You are connected over MCP to a simulated world. Simulated time stands still while you work and moves only",
      `when you call \`${c.trigger.waitToolName}\`: its reply comes when you wake, with a line "(woke at <time> for <reason>)"`,
      "and, on the first wake of a day, the daily cost brief. Every other tool reply ends with a `now: <time>` line (the",
      "simulated UTC time). Calls run one at a time in the order they arrive. `finish(summary)` ends your participation",
      "for good; so does closing the session. The clock then runs to the end of the episode so your open commitments",
      "settle. If you send no request for a long while (wall time), the run is ended and marked as timed out.",
    ].join("\n");
  }

  /** The tools of the run (JSON Schemas from zod, as the in-process runtime documents them). */
  async tools(): Promise<ToolDoc[]> {
    await this.ready;
    return this.context().runtime.docs();
  }

  /** One tool call from the MCP client; resolves with the reply (after the wake for a clock tool). */
  async call(name: string, args: unknown): Promise<CallReply> {
    await this.ready;
    if (this.failure) throw this.failure;
    const over = this.ended?.cause ?? (this.closed ? "session_closed" : null);
    if (over !== null) return this.afterEnd(over);
    return new Promise<CallReply>((resolve, reject) =>
      this.enqueue({ kind: "call", call: { name, args, resolve, reject } }),
    );
  }

  /**
   * One model request from the metering proxy. It waits its turn in the same queue as tool calls
   * (one at a time, arrival order; a request made while a clock call is pending runs after the wake),
   * then the actor checks the wallet: refused once the LLM cap or the budget is spent (the first
   * refusal is ledgered `llm_rejected`, as in-process), else `forward` runs with the run's next
   * model-call index and its usage is ledgered as an `llm_call` at the frozen simulated time. Once
   * the run is over (or the session closed) it is `ended` at once: nothing is forwarded or ledgered.
   */
  async modelCall(forward: (at: ModelCallSlot) => Promise<MeteredCall>): Promise<ModelCallReply> {
    await this.ready;
    if (this.failure) throw this.failure;
    const over = this.ended?.cause ?? (this.closed ? "session_closed" : null);
    if (over !== null) return { kind: "ended", reason: `the run has ended (${ENDED_BY[over]})` };
    return new Promise<ModelCallReply>((resolve, reject) =>
      this.enqueue({ kind: "model", job: { forward, resolve, reject } }),
    );
  }

  private enqueue(item: Item): void {
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      w(item);
    } else this.queue.push(item);
  }

  /** The client went away (stdio closed): treated as `finish`. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      w({ kind: "closed" });
    }
  }

  /** The run is over and results.json written: answer the last call, if one is pending. */
  settle(s: RunSettled): void {
    const cause = this.ended?.cause ?? "session_closed";
    this.settled = { cause, runDir: s.runDir, sim_end: s.sim_end };
    const last = this.ended?.last;
    if (last) {
      const why = ENDED_BY[cause];
      last.call.resolve({
        ok: last.result.ok,
        text: resultText(last.result),
        clock: `(the run ended at ${isoInstant(s.sim_end)}: ${why}; results in ${s.runDir}/results.json)`,
      });
    }
    for (const q of this.queue.splice(0))
      if (q.kind === "call") q.call.resolve(this.afterEnd(cause));
      else q.job.resolve({ kind: "ended", reason: `the run has ended (${ENDED_BY[cause]})` });
  }

  /** The run failed (a system error): every pending and later call gets an MCP error. */
  fail(err: Error): void {
    this.failure = err;
    this.readyReject(err);
    this.ended?.last?.call.reject(err);
    for (const q of this.queue.splice(0)) (q.kind === "call" ? q.call : q.job).reject(err);
  }

  /** How the outside agent's participation ended (null while it runs). */
  endCause(): EndCause | null {
    return this.ended?.cause ?? null;
  }

  /** true once `settle` was called */
  isSettled(): boolean {
    return this.settled !== null;
  }

  /** The factory the runner calls to spawn the actor (`RunOptions.externalActor`). */
  readonly actor: ExternalActorFactory = (ctx) => {
    if (this.ctx) throw new Error("internal: an OutsideAgent drives one run");
    this.ctx = ctx;
    this.readyResolve();
    return (self) => this.body(self, ctx);
  };

  private context(): ExternalActorContext {
    if (!this.ctx) throw new Error("internal: the run has not spawned the outside actor yet");
    return this.ctx;
  }

  private afterEnd(cause: EndCause): CallReply {
    const error =
      cause === "finish" ? "not run: the wake ended with finish" : `not run: the run has ended (${ENDED_BY[cause]})`;
    return {
      ok: false,
      text: `ERROR: ${error}`,
      clock: this.settled ? `now: ${isoInstant(this.settled.sim_end)}` : "(the run is ending)",
    };
  }

  /** the next call, a closed session or the idle timeout (wall clock, measured while no call is pending) */
  private next(): Promise<Next> {
    if (this.closed) return Promise.resolve({ kind: "closed" });
    const queued = this.queue.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise<Next>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        resolve({ kind: "idle" });
      }, this.o.idleTimeoutMs);
      this.waiting = (n) => {
        clearTimeout(timer);
        resolve(n);
      };
    });
  }

  private async body(self: Actor, c: ExternalActorContext): Promise<void> {
    const actor = self.id;
    const note = (kind: string, message: string) =>
      c.ledger.append({ type: "note", t: self.now(), actor, kind, message });
    const ledgerWake = (w: Exclude<AgentWake, { reason: "end" }>) =>
      c.ledger.append({
        type: "wake",
        t: w.at,
        actor,
        reason: w.reason,
        ...(w.triggerId !== undefined ? { trigger_id: w.triggerId } : {}),
      });
    const end = (cause: EndCause, last: { call: Pending; result: ToolResult } | null) => {
      this.ended = { cause, last };
    };
    c.trigger.install();
    ledgerWake({ at: self.now(), reason: "start" });
    for (const n of this.o.startNotes ?? []) note(n.kind, n.message);
    let lastWakeDay: number | null = null;
    let modelCalls = 0;
    let llmRefused = false;
    const marker = (w: Exclude<AgentWake, { reason: "end" }>) => {
      const day = utcDayNumber(w.at);
      const brief = day !== lastWakeDay ? c.dailyBrief() : null;
      lastWakeDay = day;
      const extra = c.wakeNote({ at: w.at, reason: w.reason });
      const head = `(woke at ${isoInstant(w.at)} for ${w.reason}${w.triggerId !== undefined ? `: ${w.triggerId}` : ""})`;
      return [
        head,
        ...(w.detail !== undefined ? [w.detail] : []),
        ...(brief ? [brief] : []),
        ...(extra ? [extra] : []),
      ].join("\n");
    };
    for (;;) {
      const n = await this.next();
      if (n.kind === "closed") {
        note("finished_early", "the MCP session closed without finish: treated as finish");
        return end("session_closed", null);
      }
      if (n.kind === "idle") {
        note(
          EXTERNAL_IDLE_TIMEOUT,
          `no MCP request for ${this.o.idleTimeoutMs / 1000} s of wall time: the outside agent's run is ended (the clock runs to sim_end)`,
        );
        return end("idle_timeout", null);
      }
      if (n.kind === "model") {
        const { job } = n;
        const why = c.wallet.refusal("llm");
        if (why !== null) {
          // ledgered once, like the in-process agent that stops calling the model; later refusals are free and silent
          if (!llmRefused) c.ledger.append({ type: "llm_rejected", t: self.now(), actor, reason: why });
          llmRefused = true;
          job.resolve({ kind: "refused", reason: why });
          continue;
        }
        const callIndex = modelCalls++;
        let m: MeteredCall;
        try {
          m = await job.forward({ actor, callIndex, runDir: c.runDir, secrets: c.secrets });
        } catch (err) {
          job.reject(err as Error);
          throw err;
        }
        c.ledger.append({
          type: "llm_call",
          t: self.now(),
          actor,
          model: m.model,
          call_index: callIndex,
          attempt: 1,
          status: m.ok ? "ok" : "error",
          ...(m.ok ? {} : { error: m.error ?? "failed" }),
          input_tokens: m.ok ? m.usage.input_tokens : 0,
          cached_input_tokens: m.ok ? m.usage.cached_input_tokens : 0,
          output_tokens: m.ok ? m.usage.output_tokens : 0,
          cost_usd: m.ok ? m.cost_usd : 0,
          ...(m.ok && m.provider_cost_usd !== undefined ? { provider_cost_usd: m.provider_cost_usd } : {}),
        });
        job.resolve({ kind: "forwarded", call: m });
        continue;
      }
      const { call } = n;
      let result: ToolResult;
      try {
        result = await c.runtime.call(actor, call.name, call.args);
      } catch (err) {
        call.reject(err as Error);
        throw err;
      }
      const intent = c.slot.take();
      if (intent === null) {
        call.resolve({ ok: result.ok, text: resultText(result), clock: `now: ${isoInstant(self.now())}` });
        continue;
      }
      if (intent.kind === "finish") {
        note("finished_early", intent.summary);
        return end("finish", { call, result });
      }
      c.ledger.append({
        type: "wait",
        t: self.now(),
        actor,
        until: waitUntilOf(intent),
        tool: waitToolOf(intent),
      });
      const w = await c.trigger.wait(self, intent);
      if (w.reason === "end") return end("sim_end", { call, result });
      ledgerWake(w);
      call.resolve({ ok: result.ok, text: resultText(result), clock: marker(w) });
    }
  }
}

const ENDED_BY: Record<EndCause, string> = {
  finish: "you called finish",
  sim_end: "the episode is over",
  session_closed: "the MCP session closed",
  idle_timeout: "no request within the idle timeout",
};
