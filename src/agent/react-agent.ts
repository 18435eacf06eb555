import { z } from "zod";
import { isoInstant, utcDayNumber } from "../common/time.js";
import type { Actor } from "../kernel/kernel.js";
import type { LedgerWriter } from "../ledger/ledger-writer.js";
import type { Wallet } from "../ledger/wallet.js";
import {
  type CallContext,
  type ChatMessage,
  type GenerateRequest,
  type GenerateResponse,
  isTruncated,
  ModelError,
  type ModelSettings,
  ProviderFailedError,
  type ToolSpec,
  type Usage,
} from "../models/model.js";
import { defineTool, ok, type ToolDef, type ToolResult } from "../tools/tool.js";
import type { ToolRuntime } from "../tools/tool-runtime.js";
import {
  type AgentTrigger,
  type AgentWake,
  type IntentSlot,
  type WaitIntent,
  waitToolOf,
  waitUntilOf,
} from "../triggers/trigger.js";
import {
  DAILY_RESET_LINE,
  lateInDay,
  MEMORY_PHASE_CALLS,
  MEMORY_PHASE_CONTEXT_SHARE,
  MEMORY_PHASE_OVER,
  type MemoryPhaseReason,
  memoryPhasePrompt,
  memoryPhaseRefusal,
} from "./memory-phase.js";
import { contextFeedbackLine, guidanceLine, NO_SCAFFOLDING, type Scaffolding } from "./scaffolding.js";
import { openItems, renderStateBlock, type StateBlockSection } from "./state-block.js";
import { procedureText, renderSystemPrompt } from "./system-prompt.js";
import { countTokens, toolSpecTokens } from "./token-counter.js";
import { Transcript } from "./transcript.js";

export const FINISH_TOOL = "finish";
/** tool calls without a clock-moving wait before the runaway guard ends the wake */
export const RUNAWAY_TOOL_CALLS = 200;
/** consecutive crashed wakes (no successful tool call) before the run is marked failed_degenerate */
export const DEGENERATE_WAKES = 5;
/** cut-off replies retried per wake before it ends as a crashed wake */
export const MAX_TRUNCATED_PER_WAKE = 3;

/** One provider attempt, as reported by the retry layer. */
export interface AttemptInfo {
  attempt: number;
  ok: boolean;
  error?: unknown;
  response?: GenerateResponse;
}

/** A model call with retries: resolves with the successful response or throws once retries are exhausted. */
export type GenerateFn = (
  req: GenerateRequest,
  ctx: CallContext,
  onAttempt: (a: AttemptInfo) => void,
) => Promise<GenerateResponse>;

export interface ReactAgentOptions {
  runtime: ToolRuntime;
  ledger: LedgerWriter;
  wallet: Wallet;
  trigger: AgentTrigger;
  slot: IntentSlot;
  /** the task's rendered instruction */
  instruction: string;
  /** `provider:model`, as ledgered in llm_call.model */
  modelName: string;
  /** the model's base URL, named in provider-failure messages */
  endpoint?: string;
  generate: GenerateFn;
  /** USD of a successful call's reported usage (the price table) */
  cost: (usage: Usage) => number;
  settings: ModelSettings;
  /** context limit in tokens (system + tools + messages) */
  contextTokens: number;
  /** the learned block, re-rendered before every call (empty until the learning issue) */
  learned?: () => string;
  /** the harness's additional instructions (src/run/harness-surface.ts), re-read before every call; absent: none */
  addendum?: () => string;
  /** run once at the first wake, after the trigger's install (e.g. the deadline guard) */
  onStart?: () => void;
  /** the latest daily cost brief line (the ledger's last daily_brief text); default: tracked from events ledgered after the agent starts */
  dailyBrief?: () => string | null;
  /** observes every request sent (benchmarks, tests) */
  onRequest?: (req: GenerateRequest, ctx: CallContext) => void;
  runawayToolCalls?: number;
  /** every transcript message as it is appended, at simulated time `t` (the run writes it to the workspace) */
  onTranscript?: (m: ChatMessage, t: number) => void;
  /** the task's text for a wake (TaskDefinition.wakeNote), appended to the marker; null adds nothing */
  wakeNote?: (wake: { at: number; reason: string }) => string | null;
  /** `agent.scaffolding.daily_reset`: clear the transcript at the first wake of each new simulated day */
  dailyReset?: boolean;
  /**
   * `agent.scaffolding.memory_phase`: a forced memory-only turn (only these tools run) at the first wake at or
   * after 23:00 of a day, or when the transcript reaches 90 % of its budget (src/agent/memory-phase.ts)
   */
  memoryPhaseTools?: readonly string[];
  /** the model's own token prices and the LLM cap (`modelCostText`), appended to the trigger's "how you run" */
  modelCost?: string;
  /** the task's decision-critical state (`TaskRun.state`), rendered into every wake marker with the trigger's own */
  state?: () => readonly StateBlockSection[];
  /** scaffolding switches (`agent.scaffolding`; default all off) */
  scaffolding?: Scaffolding;
  /** what guidance names: the task's goal, the run's window, and its known deadlines (`TaskRun.deadlines`) */
  guidance?: { goal: string; sim_start: number; sim_end: number; deadlines: (until: number) => readonly number[] };
}

/** Tools that write memory (the harness's memory tool set, open-forecast's notes): the procedure's memory step names them. */
const MEMORY_WRITE_TOOLS = new Set(["memory_append", "write_note", "write_insights"]);

/** `finish(summary)`: ends the agent's participation; the clock still runs to sim_end. */
export function finishTool(slot: IntentSlot): ToolDef {
  return defineTool({
    name: FINISH_TOOL,
    description:
      "Free. End your participation in the experiment for good (you will not be woken again); the clock still runs " +
      "to the end so your open commitments settle. Use only when nothing useful is left to do.",
    args: z.object({ summary: z.string().max(2000).describe("why you are finishing") }).strict(),
    kind: "meta",
    run(a) {
      slot.set({ kind: "finish", summary: a.summary });
      return ok({ finished: true });
    },
  });
}

/** What the model sees for a tool result: the JSON value, or `ERROR: <reason>`. */
export function toolResultText(r: ToolResult): string {
  return r.ok ? (JSON.stringify(r.value) ?? "null") : `ERROR: ${r.error}`;
}

/**
 * `(woke at <ISO> for <reason>[: <trigger id>])`, plus detail and brief lines, the task's note, the
 * state block and the guidance line (each only when present).
 */
export function wakeMarker(
  w: Exclude<AgentWake, { reason: "end" }>,
  brief: string | null,
  note: string | null = null,
  state: string | null = null,
  guidance: string | null = null,
): string {
  const head = `(woke at ${isoInstant(w.at)} for ${w.reason}${w.triggerId !== undefined ? `: ${w.triggerId}` : ""})`;
  return [
    head,
    ...(w.detail !== undefined ? [w.detail] : []),
    ...(brief !== null ? [brief] : []),
    ...(note !== null ? [note] : []),
    ...(state !== null ? [state] : []),
    ...(guidance !== null ? [guidance] : []),
  ].join("\n");
}

/** the hint after a truncated reply (no call of it ran) */
export const truncatedHint = (cap: number) =>
  `(your last reply was cut off at the output limit of ${cap} tokens, so none of its tool calls ran: ` +
  "reply again with shorter text and complete tool calls)";

/** How a failed attempt is ledgered: `<kind>: <message>` for provider errors. */
export const attemptErrorText = (e: unknown) =>
  e instanceof ModelError ? `${e.kind}: ${e.message}` : e instanceof Error ? e.message : String(e);

type WakeEnd =
  | { intent: Exclude<WaitIntent, { kind: "finish" }> }
  | { intent: Extract<WaitIntent, { kind: "finish" }> };

/**
 * The ReAct agent (native tool calling). One loop serves every trigger: the trigger only decides which
 * wait tools the agent holds and how it is woken. Per wake: a user marker (plus the daily cost brief
 * on the first wake of a simulated day), then model turns (each preceded by the wallet's LLM check)
 * and tool calls until a wait tool ends the wake. Every wake, wait, tool call, model attempt,
 * refusal and guard is ledgered.
 *
 * A reply without tool calls is nudged once; a second one ends the wake as an implicit wait for the
 * next trigger (the fallback midnight wake at the latest).
 */
export function reactAgentBody(o: ReactAgentOptions): (self: Actor) => Promise<void> {
  return async (self) => {
    const actor = self.id;
    const runaway = o.runawayToolCalls ?? RUNAWAY_TOOL_CALLS;
    const tools: ToolSpec[] = o.runtime
      .docs()
      .map((d) => ({ name: d.name, description: d.description, parameters: d.parameters }));
    const fixedTokens = toolSpecTokens(tools);
    const scaffolding = o.scaffolding ?? NO_SCAFFOLDING;
    const procedure = scaffolding.procedure
      ? procedureText({
          trigger: o.trigger.kind,
          memory: o.runtime.names().some((n) => MEMORY_WRITE_TOOLS.has(n)),
        })
      : undefined;
    /** tools whose call ends the wake: the trigger's wait tool, finish, and task tools seen to leave a wait */
    const waitTools = new Set<string>([o.trigger.waitToolName, FINISH_TOOL]);
    const transcript = new Transcript(o.onTranscript ? (m) => o.onTranscript?.(m, self.now()) : undefined);
    let tracked: string | null = null;
    if (!o.dailyBrief)
      o.ledger.subscribe((e) => {
        if (e.type === "daily_brief") tracked = e.text;
      });
    const latestBrief = () => (o.dailyBrief ? o.dailyBrief() : tracked);

    let callIndex = 0;
    let llmStopped = false;
    let crashedStreak = 0;
    let sinceClockMove = 0;
    let lastClock = self.now();
    let lastWakeDay: number | null = null;
    /** the day of the last day-end memory phase, and whether the current fill of the context had its phase */
    let phaseDay: number | null = null;
    let phasedFull = false;
    /** the context the server accepts (lowered after a context-length error) */
    let serverLimit = Number.POSITIVE_INFINITY;
    const note = (kind: string, message: string) =>
      o.ledger.append({ type: "note", t: self.now(), actor, kind, message });

    const system = () =>
      renderSystemPrompt({
        instruction: o.instruction,
        howYouRun: o.trigger.howYouRun,
        ...(o.modelCost !== undefined ? { modelCost: o.modelCost } : {}),
        ...(procedure !== undefined ? { procedure } : {}),
        learned: o.learned?.() ?? "",
        ...(o.addendum ? { addendum: o.addendum() } : {}),
      });
    /** the context limit in force (the configured one, lowered after a context-length error) */
    const contextLimit = () => Math.min(o.contextTokens, serverLimit);

    /** the transcript's token budget under system prompt `sys` */
    const budgetOf = (sys: string) => Math.max(0, contextLimit() - fixedTokens - tokensOfSystem(sys));
    const budgetNow = () => budgetOf(system());

    /** One model call with its attempts ledgered; null when it failed for good. */
    const callModel = async (req: GenerateRequest): Promise<GenerateResponse | null> => {
      const ctx: CallContext = { actor, callIndex: callIndex++ };
      o.onRequest?.(req, ctx);
      const onAttempt = (a: AttemptInfo) => {
        const base = {
          type: "llm_call" as const,
          t: self.now(),
          actor,
          model: o.modelName,
          call_index: ctx.callIndex,
          attempt: a.attempt,
        };
        if (a.ok && a.response) {
          const u = a.response.usage;
          o.ledger.append({
            ...base,
            status: "ok",
            input_tokens: u.input_tokens,
            cached_input_tokens: u.cached_input_tokens,
            output_tokens: u.output_tokens,
            cost_usd: o.cost(u),
            ...(a.response.provider_cost_usd !== undefined ? { provider_cost_usd: a.response.provider_cost_usd } : {}),
          });
        } else {
          o.ledger.append({
            ...base,
            status: "error",
            error: attemptErrorText(a.error),
            input_tokens: 0,
            cached_input_tokens: 0,
            output_tokens: 0,
            cost_usd: 0,
          });
        }
      };
      try {
        return await o.generate(req, ctx, onAttempt);
      } catch (err) {
        // provider failures end the wake (a crashed wake); anything else (a cassette mismatch, a bug) fails the run loudly
        if (!(err instanceof ModelError)) throw err;
        if (err.kind === "context_length") throw new ContextOverflow(err);
        if (err.endpointBroken) {
          // no later call can succeed: stop the run before it scores (the run directory stays resumable)
          const failure = new ProviderFailedError(o.modelName, o.endpoint, err, `model call ${ctx.callIndex}`);
          note("provider_failed", failure.message);
          throw failure;
        }
        note("model_failed", `model call ${ctx.callIndex} failed after its retries: ${attemptErrorText(err)}`);
        return null;
      }
    };

    /**
     * A model call over the transcript fitted to the context limit. A context-length error from the
     * server drops the oldest whole wake segment (never the current one) and retries, ledgered as a
     * `context_overflow` note; the limit then stays below what the server refused, so later wakes do
     * not hit it again. Null when the call failed for good (a crashed wake).
     */
    const callFitted = async (): Promise<GenerateResponse | null | "no_llm"> => {
      for (let attempt = 0; ; attempt++) {
        if (attempt > 0) {
          const why = o.wallet.refusal("llm");
          if (why !== null) {
            o.ledger.append({ type: "llm_rejected", t: self.now(), actor, reason: why });
            return "no_llm";
          }
        }
        const sys = system();
        const budget = budgetOf(sys);
        transcript.fit(budget);
        try {
          return await callModel({ system: sys, messages: transcript.messages(), tools, settings: o.settings });
        } catch (err) {
          if (!(err instanceof ContextOverflow)) throw err;
          const sent = transcript.tokens + fixedTokens + tokensOfSystem(sys);
          if (transcript.segmentCount <= 1) {
            note("model_failed", `the current wake alone exceeds the model's context: ${attemptErrorText(err.error)}`);
            return null;
          }
          serverLimit = Math.min(serverLimit, Math.floor(sent * 0.9));
          const dropped = transcript.dropOldest();
          note(
            "context_overflow",
            `the server refused ${sent} tokens (cl100k count) as too long (${err.error.message}); dropped the oldest ${dropped} wake segment(s) and retried; context limit now ${serverLimit}`,
          );
        }
      }
    };

    /** The memory phase: a forced turn in which only the memory tools run (every other call is refused unrun). */
    const memoryTurn = async (why: MemoryPhaseReason): Promise<"ok" | "no_llm" | "failed"> => {
      const allowed = o.memoryPhaseTools ?? [];
      note("memory_phase", why === "day_end" ? "first wake after 23:00 of the day" : "transcript at 90% of its budget");
      transcript.push({ role: "user", content: memoryPhasePrompt(why, allowed) });
      try {
        for (let i = 0; i < MEMORY_PHASE_CALLS; i++) {
          const why2 = o.wallet.refusal("llm");
          if (why2 !== null) {
            o.ledger.append({ type: "llm_rejected", t: self.now(), actor, reason: why2 });
            return "no_llm";
          }
          const res = await callFitted();
          if (res === "no_llm" || res === null) return res === null ? "failed" : res;
          const cut = isTruncated(res);
          transcript.push({
            role: "assistant",
            content: res.content ?? (cut ? "" : null),
            ...(res.tool_calls.length && !cut ? { tool_calls: res.tool_calls } : {}),
          });
          if (cut || res.tool_calls.length === 0) return "ok";
          let used = false;
          for (const c of res.tool_calls) {
            let text = memoryPhaseRefusal(c.name, allowed);
            if (allowed.includes(c.name)) {
              used = true;
              sinceClockMove++;
              text = toolResultText(await o.runtime.callJson(actor, c.name, c.arguments));
            }
            transcript.push({ role: "tool", tool_call_id: c.id, name: c.name, content: text });
          }
          if (!used) return "ok";
        }
        return "ok";
      } finally {
        transcript.push({ role: "user", content: MEMORY_PHASE_OVER });
      }
    };

    /** Runs one wake's model turns; returns how it ends and whether it crashed / called a tool successfully. */
    const runWake = async (
      w: Exclude<AgentWake, { reason: "end" }>,
    ): Promise<WakeEnd & { crashed: boolean; okCall: boolean }> => {
      const day = utcDayNumber(w.at);
      const brief = day !== lastWakeDay ? latestBrief() : null;
      const reset = o.dailyReset === true && lastWakeDay !== null && day !== lastWakeDay;
      if (reset) note("daily_reset", `a new simulated day: ${transcript.clear()} wake segment(s) cleared`);
      lastWakeDay = day;
      const taskNote = o.wakeNote?.({ at: w.at, reason: w.reason }) ?? null;
      const sections = [...(o.trigger.state?.() ?? []), ...(o.state?.() ?? [])];
      const guidance =
        o.guidance !== undefined
          ? guidanceLine(scaffolding.guidance, { ...o.guidance, at: w.at, openItems: openItems(sections) })
          : null;
      const marker = wakeMarker(w, brief, taskNote, renderStateBlock(sections, w.at), guidance);
      transcript.begin(reset ? `${marker}\n${DAILY_RESET_LINE}` : marker);
      let calls = 0;
      let nudged = false;
      let okCall = false;
      let truncated = 0;
      const end = (intent: Exclude<WaitIntent, { kind: "finish" }>, crashed = false) => ({ intent, crashed, okCall });
      if (o.memoryPhaseTools && phaseDay !== day && lateInDay(w.at)) {
        phaseDay = day;
        const m = await memoryTurn("day_end");
        if (m === "no_llm") {
          llmStopped = true;
          return end({ kind: "next_trigger", why: { kind: "no_llm" } });
        }
        if (m === "failed") return end({ kind: "next_trigger", why: { kind: "model_failed" } }, true);
      }
      for (;;) {
        if (o.trigger.maxToolCallsPerWake !== null && calls >= o.trigger.maxToolCallsPerWake)
          return end({ kind: "next_trigger", why: { kind: "episode_cap" } });
        if (sinceClockMove >= runaway) {
          note("runaway", `${sinceClockMove} tool calls without a clock-moving wait: the wake ends`);
          return end({ kind: "next_trigger", why: { kind: "runaway" } });
        }
        const why = o.wallet.refusal("llm");
        if (why !== null) {
          o.ledger.append({ type: "llm_rejected", t: self.now(), actor, reason: why });
          llmStopped = true;
          return end({ kind: "next_trigger", why: { kind: "no_llm" } });
        }
        if (o.memoryPhaseTools) {
          const full = transcript.tokens >= MEMORY_PHASE_CONTEXT_SHARE * budgetNow();
          if (full && !phasedFull) {
            phasedFull = true;
            const m = await memoryTurn("context_full");
            if (m === "no_llm") {
              llmStopped = true;
              return end({ kind: "next_trigger", why: { kind: "no_llm" } });
            }
            if (m === "failed") return end({ kind: "next_trigger", why: { kind: "model_failed" } }, true);
          } else if (!full) phasedFull = false;
        }
        const res = await callFitted();
        if (res === "no_llm") {
          llmStopped = true;
          return end({ kind: "next_trigger", why: { kind: "no_llm" } });
        }
        if (res === null) return end({ kind: "next_trigger", why: { kind: "model_failed" } }, true);
        if (isTruncated(res)) {
          if (++truncated > MAX_TRUNCATED_PER_WAKE) {
            note("truncated_limit", `${truncated - 1} cut-off replies in a row: the wake ends`);
            return end({ kind: "next_trigger", why: { kind: "truncated" } }, true);
          }
          // a cut-off reply: none of its calls runs, even when their arguments happen to validate; the
          // transcript keeps its text only (cut JSON arguments echoed back make some servers answer 400)
          transcript.push({ role: "assistant", content: res.content ?? "" });
          note(
            "truncated_reply",
            `reply cut off (finish_reason ${res.finish_reason}) with ${res.tool_calls.length} tool call(s)` +
              `${res.tool_calls.length ? ` (${res.tool_calls.map((c) => c.name).join(", ")})` : ""}, none run: protocol retry`,
          );
          transcript.push({ role: "user", content: truncatedHint(o.settings.maxOutputTokens) });
          continue;
        }
        truncated = 0;
        transcript.push({
          role: "assistant",
          content: res.content,
          ...(res.tool_calls.length ? { tool_calls: res.tool_calls } : {}),
        });
        if (res.tool_calls.length === 0) {
          if (nudged) return end({ kind: "next_trigger", why: { kind: "implicit_wait" } });
          nudged = true;
          transcript.push({
            role: "user",
            content: `(no tool call: use the tools, or call ${o.trigger.waitToolName} to wait; a second reply without a tool call ends this wake)`,
          });
          continue;
        }
        const { intent, results } = await runCalls(
          res.tool_calls,
          () => calls,
          (n) => {
            calls = n;
          },
        );
        for (const r of results) {
          if (r.ok) okCall = true;
          let content = r.text;
          if (scaffolding.context_feedback) {
            // tokens of everything the next request holds up to and including this result (cl100k), before this line
            const used = fixedTokens + tokensOfSystem(system()) + transcript.tokens + countTokens(content);
            content = `${content}\n${contextFeedbackLine(used, contextLimit())}`;
          }
          transcript.push({ role: "tool", tool_call_id: r.call.id, name: r.call.name, content });
        }
        if (intent !== null) {
          if (intent.kind === "finish") return { intent, crashed: false, okCall };
          return end(intent);
        }
      }
    };

    /**
     * Runs one reply's calls: every non-waiting call in the order given, then the first wait (the
     * trigger's wait tool, `finish`, or a task tool seen to wait, e.g. `next_day`); a second wait in the
     * same reply is rejected unrun. Calls over the episode cap or the runaway guard are not run.
     * Results come back in the reply's order.
     */
    const runCalls = async (
      list: readonly { id: string; name: string; arguments: string }[],
      getCalls: () => number,
      setCalls: (n: number) => void,
    ) => {
      const results: { call: (typeof list)[number]; ok: boolean; text: string }[] = list.map((call) => ({
        call,
        ok: false,
        text: "",
      }));
      let intent: WaitIntent | null = null;
      let waitName = "";
      const guard = (): string | null => {
        if (o.trigger.maxToolCallsPerWake !== null && getCalls() >= o.trigger.maxToolCallsPerWake)
          return `the episode's ${o.trigger.maxToolCallsPerWake} tool calls are used up`;
        if (sinceClockMove >= runaway) return `${runaway} tool calls without a wait (runaway guard)`;
        return null;
      };
      const run = async (i: number) => {
        const c = list[i]!;
        const stop = guard();
        if (stop !== null) {
          results[i]!.text = `ERROR: not run: ${stop}`;
          return;
        }
        setCalls(getCalls() + 1);
        sinceClockMove++;
        const r = await o.runtime.callJson(actor, c.name, c.arguments);
        results[i]!.ok = r.ok;
        results[i]!.text = toolResultText(r);
        const got = o.slot.take();
        if (got !== null) {
          waitTools.add(c.name);
          if (intent === null) {
            intent = got;
            waitName = c.name;
          } else {
            // a task tool that waits was not known as one yet: its wait is dropped, the first one stands
            results[i]!.text =
              `ERROR: a second wait in the same reply is ignored: the wake already ends with ${waitName}`;
          }
        }
      };
      const waits: number[] = [];
      for (let i = 0; i < list.length; i++) {
        if (waitTools.has(list[i]!.name)) waits.push(i);
        else await run(i);
      }
      for (const i of waits) {
        if (intent !== null) {
          results[i]!.text =
            `ERROR: not run: a second wait in the same reply is rejected (the wake ends with ${waitName})`;
          continue;
        }
        await run(i);
      }
      return { intent: intent as WaitIntent | null, results };
    };

    let wake: AgentWake = { at: self.now(), reason: "start" };
    o.trigger.install();
    o.onStart?.();
    while (wake.reason !== "end") {
      o.ledger.append({
        type: "wake",
        t: wake.at,
        actor,
        reason: wake.reason,
        ...(wake.triggerId !== undefined ? { trigger_id: wake.triggerId } : {}),
      });
      if (wake.at > lastClock) {
        sinceClockMove = 0;
        lastClock = wake.at;
      }
      let intent: Exclude<WaitIntent, { kind: "finish" }>;
      if (llmStopped) {
        intent = { kind: "next_trigger", why: { kind: "no_llm" } };
      } else {
        const r = await runWake(wake);
        if (r.intent.kind === "finish") {
          note("finished_early", r.intent.summary);
          return;
        }
        intent = r.intent;
        crashedStreak = r.crashed && !r.okCall ? crashedStreak + 1 : 0;
        if (crashedStreak >= DEGENERATE_WAKES) {
          note(
            "failed_degenerate",
            `${crashedStreak} consecutive crashed wakes with no successful tool call: no more model calls`,
          );
          llmStopped = true;
        }
      }
      o.ledger.append({
        type: "wait",
        t: self.now(),
        actor,
        until: waitUntilOf(intent),
        tool: waitToolOf(intent),
      });
      wake = await o.trigger.wait(self, intent);
    }
  };
}

/** a context-length refusal, handled by dropping the oldest wake segments */
class ContextOverflow extends Error {
  constructor(readonly error: ModelError) {
    super(error.message);
  }
}

const systemTokenCache = new Map<string, number>();
/** cl100k tokens of a system prompt (cached: the prompt rarely changes within a run). */
function tokensOfSystem(s: string): number {
  let n = systemTokenCache.get(s);
  if (n === undefined) {
    n = countTokens(s);
    if (systemTokenCache.size > 64) systemTokenCache.clear();
    systemTokenCache.set(s, n);
  }
  return n;
}
