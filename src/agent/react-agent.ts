import { z } from "zod";
import { isoInstant, utcDayNumber } from "../kernel/day.js";
import type { Actor } from "../kernel/kernel.js";
import type { LedgerWriter } from "../ledger/ledger-writer.js";
import type { Wallet } from "../ledger/wallet.js";
import {
  type CallContext,
  type ChatMessage,
  type GenerateRequest,
  type GenerateResponse,
  ModelError,
  type ModelSettings,
  type ToolSpec,
  type Usage,
} from "../models/model.js";
import { defineTool, ok, type ToolDef, type ToolResult } from "../tools/tool.js";
import type { ToolRuntime } from "../tools/tool-runtime.js";
import type { AgentTrigger, AgentWake, IntentSlot, WaitIntent } from "../triggers/trigger.js";
import { renderSystemPrompt } from "./system-prompt.js";
import { countTokens, toolSpecTokens } from "./token-counter.js";
import { Transcript } from "./transcript.js";

export const FINISH_TOOL = "finish";
/** tool calls without a clock-moving wait before the runaway guard ends the wake */
export const RUNAWAY_TOOL_CALLS = 200;
/** consecutive crashed wakes (no successful tool call) before the run is marked failed_degenerate */
export const DEGENERATE_WAKES = 5;

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
  generate: GenerateFn;
  /** USD of a successful call's reported usage (the price table) */
  cost: (usage: Usage) => number;
  settings: ModelSettings;
  /** context limit in tokens (system + tools + messages) */
  contextTokens: number;
  /** the learned block, re-rendered before every call (empty until the learning issue) */
  learned?: () => string;
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
}

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

/** `(woke at <ISO> for <reason>[: <trigger id>])`, plus detail and brief lines. */
export function wakeMarker(
  w: Exclude<AgentWake, { reason: "end" }>,
  brief: string | null,
  note: string | null = null,
): string {
  const head = `(woke at ${isoInstant(w.at)} for ${w.reason}${w.triggerId !== undefined ? `: ${w.triggerId}` : ""})`;
  return [
    head,
    ...(w.detail !== undefined ? [w.detail] : []),
    ...(brief !== null ? [brief] : []),
    ...(note !== null ? [note] : []),
  ].join("\n");
}

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
    const toolDocs = o.runtime.docs();
    const fixedTokens = toolSpecTokens(tools);
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
    const note = (kind: string, message: string) =>
      o.ledger.append({ type: "note", t: self.now(), actor, kind, message });

    const system = () =>
      renderSystemPrompt({
        instruction: o.instruction,
        howYouRun: o.trigger.howYouRun,
        tools: toolDocs,
        learned: o.learned?.() ?? "",
      });

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
        note("model_failed", `model call ${ctx.callIndex} failed after its retries: ${attemptErrorText(err)}`);
        return null;
      }
    };

    /** Runs one wake's model turns; returns how it ends and whether it crashed / called a tool successfully. */
    const runWake = async (
      w: Exclude<AgentWake, { reason: "end" }>,
    ): Promise<WakeEnd & { crashed: boolean; okCall: boolean }> => {
      const day = utcDayNumber(w.at);
      const brief = day !== lastWakeDay ? latestBrief() : null;
      lastWakeDay = day;
      transcript.begin(wakeMarker(w, brief, o.wakeNote?.({ at: w.at, reason: w.reason }) ?? null));
      let calls = 0;
      let nudged = false;
      let okCall = false;
      const end = (intent: Exclude<WaitIntent, { kind: "finish" }>, crashed = false) => ({ intent, crashed, okCall });
      for (;;) {
        if (o.trigger.maxToolCallsPerWake !== null && calls >= o.trigger.maxToolCallsPerWake)
          return end({ kind: "next_trigger", tool: "episode_cap" });
        if (sinceClockMove >= runaway) {
          note("runaway", `${sinceClockMove} tool calls without a clock-moving wait: the wake ends`);
          return end({ kind: "next_trigger", tool: "runaway" });
        }
        const why = o.wallet.refusal("llm");
        if (why !== null) {
          o.ledger.append({ type: "llm_rejected", t: self.now(), actor, reason: why });
          llmStopped = true;
          return end({ kind: "next_trigger", tool: "no_llm" });
        }
        const sys = system();
        transcript.fit(Math.max(0, o.contextTokens - fixedTokens - tokensOfSystem(sys)));
        const res = await callModel({ system: sys, messages: transcript.messages(), tools, settings: o.settings });
        if (res === null) return end({ kind: "next_trigger", tool: "model_failed" }, true);
        transcript.push({
          role: "assistant",
          content: res.content,
          ...(res.tool_calls.length ? { tool_calls: res.tool_calls } : {}),
        });
        if (res.tool_calls.length === 0) {
          if (nudged) return end({ kind: "next_trigger", tool: "implicit_wait" });
          nudged = true;
          transcript.push({
            role: "user",
            content: `(no tool call: use the tools, or call ${o.trigger.waitToolName} to wait; a second reply without a tool call ends this wake)`,
          });
          continue;
        }
        let intent: WaitIntent | null = null;
        let stop: string | null = null;
        for (const c of res.tool_calls) {
          if (intent === null && stop === null) {
            if (o.trigger.maxToolCallsPerWake !== null && calls >= o.trigger.maxToolCallsPerWake)
              stop = `the episode's ${o.trigger.maxToolCallsPerWake} tool calls are used up`;
            else if (sinceClockMove >= runaway) stop = `${runaway} tool calls without a wait (runaway guard)`;
          }
          if (intent !== null || stop !== null) {
            const why =
              intent !== null ? `the wake ended with ${intent.kind === "finish" ? FINISH_TOOL : "a wait"}` : stop;
            transcript.push({ role: "tool", tool_call_id: c.id, name: c.name, content: `ERROR: not run: ${why}` });
            continue;
          }
          calls++;
          sinceClockMove++;
          const r = await o.runtime.callJson(actor, c.name, c.arguments);
          if (r.ok) okCall = true;
          transcript.push({ role: "tool", tool_call_id: c.id, name: c.name, content: toolResultText(r) });
          intent = o.slot.take();
        }
        if (intent !== null) {
          if (intent.kind === "finish") return { intent, crashed: false, okCall };
          return end(intent);
        }
      }
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
        intent = { kind: "next_trigger", tool: "no_llm" };
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
        until: intent.kind === "sleep" ? intent.until : intent.kind === "program" ? intent.until : null,
        tool:
          intent.kind === "sleep" ? (intent.tool ?? "sleep") : intent.kind === "program" ? "run_program" : intent.tool,
      });
      wake = await o.trigger.wait(self, intent);
    }
  };
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
