import { z } from "zod";
import { isoInstant, utcDayNumber } from "../kernel/day.js";
import {
  isTruncated,
  ModelError,
  ProviderFailedError
} from "../models/model.js";
import { defineTool, ok } from "../tools/tool.js";
import { renderSystemPrompt } from "./system-prompt.js";
import { countTokens, toolSpecTokens } from "./token-counter.js";
import { Transcript } from "./transcript.js";
const FINISH_TOOL = "finish";
const RUNAWAY_TOOL_CALLS = 200;
const DEGENERATE_WAKES = 5;
const MAX_TRUNCATED_PER_WAKE = 3;
function finishTool(slot) {
  return defineTool({
    name: FINISH_TOOL,
    description: "Free. End your participation in the experiment for good (you will not be woken again); the clock still runs to the end so your open commitments settle. Use only when nothing useful is left to do.",
    args: z.object({ summary: z.string().max(2e3).describe("why you are finishing") }).strict(),
    kind: "meta",
    run(a) {
      slot.set({ kind: "finish", summary: a.summary });
      return ok({ finished: true });
    }
  });
}
function toolResultText(r) {
  return r.ok ? JSON.stringify(r.value) ?? "null" : `ERROR: ${r.error}`;
}
function wakeMarker(w, brief, note = null) {
  const head = `(woke at ${isoInstant(w.at)} for ${w.reason}${w.triggerId !== void 0 ? `: ${w.triggerId}` : ""})`;
  return [
    head,
    ...w.detail !== void 0 ? [w.detail] : [],
    ...brief !== null ? [brief] : [],
    ...note !== null ? [note] : []
  ].join("\n");
}
const truncatedHint = (cap) => `(your last reply was cut off at the output limit of ${cap} tokens, so none of its tool calls ran: reply again with shorter text and complete tool calls)`;
const attemptErrorText = (e) => e instanceof ModelError ? `${e.kind}: ${e.message}` : e instanceof Error ? e.message : String(e);
function reactAgentBody(o) {
  return async (self) => {
    const actor = self.id;
    const runaway = o.runawayToolCalls ?? RUNAWAY_TOOL_CALLS;
    const tools = o.runtime.docs().map((d) => ({ name: d.name, description: d.description, parameters: d.parameters }));
    const toolDocs = o.runtime.docs();
    const fixedTokens = toolSpecTokens(tools);
    const waitTools = /* @__PURE__ */ new Set([o.trigger.waitToolName, FINISH_TOOL]);
    const transcript = new Transcript(o.onTranscript ? (m) => o.onTranscript?.(m, self.now()) : void 0);
    let tracked = null;
    if (!o.dailyBrief)
      o.ledger.subscribe((e) => {
        if (e.type === "daily_brief") tracked = e.text;
      });
    const latestBrief = () => o.dailyBrief ? o.dailyBrief() : tracked;
    let callIndex = 0;
    let llmStopped = false;
    let crashedStreak = 0;
    let sinceClockMove = 0;
    let lastClock = self.now();
    let lastWakeDay = null;
    let serverLimit = Number.POSITIVE_INFINITY;
    const note = (kind, message) => o.ledger.append({ type: "note", t: self.now(), actor, kind, message });
    const system = () => renderSystemPrompt({
      instruction: o.instruction,
      howYouRun: o.trigger.howYouRun,
      tools: toolDocs,
      learned: o.learned?.() ?? ""
    });
    const callModel = async (req) => {
      const ctx = { actor, callIndex: callIndex++ };
      o.onRequest?.(req, ctx);
      const onAttempt = (a) => {
        const base = {
          type: "llm_call",
          t: self.now(),
          actor,
          model: o.modelName,
          call_index: ctx.callIndex,
          attempt: a.attempt
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
            ...a.response.provider_cost_usd !== void 0 ? { provider_cost_usd: a.response.provider_cost_usd } : {}
          });
        } else {
          o.ledger.append({
            ...base,
            status: "error",
            error: attemptErrorText(a.error),
            input_tokens: 0,
            cached_input_tokens: 0,
            output_tokens: 0,
            cost_usd: 0
          });
        }
      };
      try {
        return await o.generate(req, ctx, onAttempt);
      } catch (err) {
        if (!(err instanceof ModelError)) throw err;
        if (err.kind === "context_length") throw new ContextOverflow(err);
        if (err.endpointBroken) {
          const failure = new ProviderFailedError(o.modelName, o.endpoint, err, `model call ${ctx.callIndex}`);
          note("provider_failed", failure.message);
          throw failure;
        }
        note("model_failed", `model call ${ctx.callIndex} failed after its retries: ${attemptErrorText(err)}`);
        return null;
      }
    };
    const callFitted = async () => {
      for (let attempt = 0; ; attempt++) {
        if (attempt > 0) {
          const why = o.wallet.refusal("llm");
          if (why !== null) {
            o.ledger.append({ type: "llm_rejected", t: self.now(), actor, reason: why });
            return "no_llm";
          }
        }
        const sys = system();
        const budget = Math.max(0, Math.min(o.contextTokens, serverLimit) - fixedTokens - tokensOfSystem(sys));
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
            `the server refused ${sent} tokens (cl100k count) as too long (${err.error.message}); dropped the oldest ${dropped} wake segment(s) and retried; context limit now ${serverLimit}`
          );
        }
      }
    };
    const runWake = async (w) => {
      const day = utcDayNumber(w.at);
      const brief = day !== lastWakeDay ? latestBrief() : null;
      lastWakeDay = day;
      transcript.begin(wakeMarker(w, brief, o.wakeNote?.({ at: w.at, reason: w.reason }) ?? null));
      let calls = 0;
      let nudged = false;
      let okCall = false;
      let truncated = 0;
      const end = (intent, crashed = false) => ({ intent, crashed, okCall });
      for (; ; ) {
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
        const res = await callFitted();
        if (res === "no_llm") {
          llmStopped = true;
          return end({ kind: "next_trigger", tool: "no_llm" });
        }
        if (res === null) return end({ kind: "next_trigger", tool: "model_failed" }, true);
        if (isTruncated(res)) {
          if (++truncated > MAX_TRUNCATED_PER_WAKE) {
            note("truncated_limit", `${truncated - 1} cut-off replies in a row: the wake ends`);
            return end({ kind: "next_trigger", tool: "truncated" }, true);
          }
          transcript.push({ role: "assistant", content: res.content ?? "" });
          note(
            "truncated_reply",
            `reply cut off (finish_reason ${res.finish_reason}) with ${res.tool_calls.length} tool call(s)${res.tool_calls.length ? ` (${res.tool_calls.map((c) => c.name).join(", ")})` : ""}, none run: protocol retry`
          );
          transcript.push({ role: "user", content: truncatedHint(o.settings.maxOutputTokens) });
          continue;
        }
        truncated = 0;
        transcript.push({
          role: "assistant",
          content: res.content,
          ...res.tool_calls.length ? { tool_calls: res.tool_calls } : {}
        });
        if (res.tool_calls.length === 0) {
          if (nudged) return end({ kind: "next_trigger", tool: "implicit_wait" });
          nudged = true;
          transcript.push({
            role: "user",
            content: `(no tool call: use the tools, or call ${o.trigger.waitToolName} to wait; a second reply without a tool call ends this wake)`
          });
          continue;
        }
        const { intent, results } = await runCalls(
          res.tool_calls,
          () => calls,
          (n) => {
            calls = n;
          }
        );
        for (const r of results) {
          if (r.ok) okCall = true;
          transcript.push({ role: "tool", tool_call_id: r.call.id, name: r.call.name, content: r.text });
        }
        if (intent !== null) {
          if (intent.kind === "finish") return { intent, crashed: false, okCall };
          return end(intent);
        }
      }
    };
    const runCalls = async (list, getCalls, setCalls) => {
      const results = list.map((call) => ({
        call,
        ok: false,
        text: ""
      }));
      let intent = null;
      let waitName = "";
      const guard = () => {
        if (o.trigger.maxToolCallsPerWake !== null && getCalls() >= o.trigger.maxToolCallsPerWake)
          return `the episode's ${o.trigger.maxToolCallsPerWake} tool calls are used up`;
        if (sinceClockMove >= runaway) return `${runaway} tool calls without a wait (runaway guard)`;
        return null;
      };
      const run = async (i) => {
        const c = list[i];
        const stop = guard();
        if (stop !== null) {
          results[i].text = `ERROR: not run: ${stop}`;
          return;
        }
        setCalls(getCalls() + 1);
        sinceClockMove++;
        const r = await o.runtime.callJson(actor, c.name, c.arguments);
        results[i].ok = r.ok;
        results[i].text = toolResultText(r);
        const got = o.slot.take();
        if (got !== null) {
          waitTools.add(c.name);
          if (intent === null) {
            intent = got;
            waitName = c.name;
          } else {
            results[i].text = `ERROR: a second wait in the same reply is ignored: the wake already ends with ${waitName}`;
          }
        }
      };
      const waits = [];
      for (let i = 0; i < list.length; i++) {
        if (waitTools.has(list[i].name)) waits.push(i);
        else await run(i);
      }
      for (const i of waits) {
        if (intent !== null) {
          results[i].text = `ERROR: not run: a second wait in the same reply is rejected (the wake ends with ${waitName})`;
          continue;
        }
        await run(i);
      }
      return { intent, results };
    };
    let wake = { at: self.now(), reason: "start" };
    o.trigger.install();
    o.onStart?.();
    while (wake.reason !== "end") {
      o.ledger.append({
        type: "wake",
        t: wake.at,
        actor,
        reason: wake.reason,
        ...wake.triggerId !== void 0 ? { trigger_id: wake.triggerId } : {}
      });
      if (wake.at > lastClock) {
        sinceClockMove = 0;
        lastClock = wake.at;
      }
      let intent;
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
            `${crashedStreak} consecutive crashed wakes with no successful tool call: no more model calls`
          );
          llmStopped = true;
        }
      }
      o.ledger.append({
        type: "wait",
        t: self.now(),
        actor,
        until: intent.kind === "sleep" ? intent.until : intent.kind === "program" ? intent.until : null,
        tool: intent.kind === "sleep" ? intent.tool ?? "sleep" : intent.kind === "program" ? "run_program" : intent.tool
      });
      wake = await o.trigger.wait(self, intent);
    }
  };
}
class ContextOverflow extends Error {
  constructor(error) {
    super(error.message);
    this.error = error;
  }
  error;
}
const systemTokenCache = /* @__PURE__ */ new Map();
function tokensOfSystem(s) {
  let n = systemTokenCache.get(s);
  if (n === void 0) {
    n = countTokens(s);
    if (systemTokenCache.size > 64) systemTokenCache.clear();
    systemTokenCache.set(s, n);
  }
  return n;
}
export {
  DEGENERATE_WAKES,
  FINISH_TOOL,
  MAX_TRUNCATED_PER_WAKE,
  RUNAWAY_TOOL_CALLS,
  attemptErrorText,
  finishTool,
  reactAgentBody,
  toolResultText,
  truncatedHint,
  wakeMarker
};
//# sourceMappingURL=react-agent.js.map
