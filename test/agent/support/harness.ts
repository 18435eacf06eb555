import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { finishTool, type ReactAgentOptions, reactAgentBody } from "../../../src/agent/react-agent.js";
import { Kernel } from "../../../src/kernel/kernel.js";
import type { LedgerEvent } from "../../../src/ledger/events.js";
import { LedgerWriter } from "../../../src/ledger/ledger-writer.js";
import { Wallet } from "../../../src/ledger/wallet.js";
import {
  type CallContext,
  type GenerateRequest,
  type GenerateResponse,
  ModelError,
} from "../../../src/models/model.js";
import { defineTool, ok, type ToolDef } from "../../../src/tools/tool.js";
import { ToolRuntime } from "../../../src/tools/tool-runtime.js";
import { createTrigger } from "../../../src/triggers/create-trigger.js";
import { installDeadlineGuard } from "../../../src/triggers/deadline-guard.js";
import { IntentSlot, type TriggerKind } from "../../../src/triggers/trigger.js";

export const T0 = Date.parse("2026-03-01T00:00:00Z");
export const HOUR = 3_600_000;

export const reply = (...calls: [string, unknown][]): GenerateResponse => ({
  content: null,
  tool_calls: calls.map(([name, args], i) => ({
    id: `c${i}`,
    name,
    arguments: typeof args === "string" ? args : JSON.stringify(args),
  })),
  usage: { input_tokens: 1000, cached_input_tokens: 0, output_tokens: 10 },
});
export const text = (content: string): GenerateResponse => ({
  content,
  tool_calls: [],
  usage: { input_tokens: 1000, cached_input_tokens: 0, output_tokens: 10 },
});

/** A free echo tool and a free tool returning `n` words. */
export const testTools = (): ToolDef[] =>
  [
    defineTool({
      name: "echo",
      description: "Free. Echoes x.",
      args: z.object({ x: z.number() }).strict(),
      kind: "meta",
      run: (a) => ok({ x: a.x }),
    }),
    defineTool({
      name: "words",
      description: "Free. n words.",
      args: z.object({ n: z.number().int() }).strict(),
      kind: "data",
      run: (a) => ok(Array.from({ length: a.n }, (_, i) => `w${i}`).join(" ")),
    }),
  ] as unknown as ToolDef[];

export interface HarnessOptions {
  trigger?: TriggerKind;
  days?: number;
  /** the model: a reply per call (throw ModelError to fail the call) */
  model: (req: GenerateRequest, ctx: CallContext) => GenerateResponse;
  contextTokens?: number;
  llmCap?: number;
  deadlines?: number[];
  extra?: Partial<ReactAgentOptions>;
  /** cron: `when` gates run with the test tools as their data tools */
  cronGates?: boolean;
}

/** Runs the ReAct agent alone on a kernel with test tools; returns the ledger events and every request. */
export async function runAgent(o: HarnessOptions) {
  const kernel = new Kernel({ start: T0, end: T0 + (o.days ?? 1) * 24 * HOUR });
  const ledger = LedgerWriter.create(join(mkdtempSync(join(tmpdir(), "relive-agent-")), "ledger.jsonl"));
  const wallet = new Wallet({ budget_usd: 100, domain_caps: { llm: o.llmCap ?? 50 } });
  const events: LedgerEvent[] = [];
  let brief: string | null = null;
  ledger.subscribe((e) => {
    if (e.type === "daily_brief") brief = e.text;
    events.push(e);
    wallet.apply(e);
  });
  const slot = new IntentSlot();
  const trigger = createTrigger({
    kind: o.trigger ?? "sleep",
    kernel,
    actorId: "agent",
    slot,
    baseSchedule: "0 12 * * *",
    cronBase: "readonly",
    ...(o.cronGates
      ? {
          cronGate: {
            dataTools: () => ["words"],
            callTool: (name: string, args: unknown) => runtime.call("agent", name, args),
            note: (kind: string, message: string) =>
              ledger.append({ type: "note", t: kernel.now(), actor: "agent", kind, message }),
          },
        }
      : {}),
  });
  const runtime: ToolRuntime = new ToolRuntime({
    tools: [...testTools(), ...trigger.tools, finishTool(slot)],
    limiters: {},
    ledger,
    wallet,
    now: () => kernel.now(),
  });
  const requests: { req: GenerateRequest; ctx: CallContext; json: string }[] = [];
  kernel.spawn(
    "agent",
    reactAgentBody({
      runtime,
      ledger,
      wallet,
      trigger,
      slot,
      instruction: "# Test task\nDo the test.",
      modelName: "openai:gpt-4.1-mini",
      cost: (u) => (u.input_tokens * 0.4 + u.output_tokens * 1.6) / 1e6,
      settings: { maxOutputTokens: 4096 },
      contextTokens: o.contextTokens ?? 60_000,
      dailyBrief: () => brief,
      generate: async (req, ctx, onAttempt) => {
        requests.push({ req, ctx, json: JSON.stringify(req) });
        try {
          const r = o.model(req, ctx);
          onAttempt({ attempt: 1, ok: true, response: r });
          return r;
        } catch (err) {
          if (err instanceof ModelError) onAttempt({ attempt: 1, ok: false, error: err });
          throw err;
        }
      },
      ...(o.deadlines
        ? {
            onStart: () => {
              installDeadlineGuard({
                kernel,
                actorId: "agent",
                deadlines: (until) => (o.deadlines ?? []).filter((d) => d >= kernel.now() && d < until),
              });
            },
          }
        : {}),
      ...o.extra,
    }),
  );
  // daily briefs as the runner appends them
  let day = 1;
  ledger.append({
    type: "daily_brief",
    t: T0,
    day,
    days: o.days ?? 1,
    spent_usd: 0,
    left_usd: 100,
    llm_spent_usd: 0,
    llm_left_usd: 50,
    by_type: {},
    text: `day ${day} brief`,
  });
  kernel.onAdvance((_f, to) => {
    while (T0 + day * 24 * HOUR <= to && T0 + day * 24 * HOUR < kernel.end) {
      day++;
      ledger.append({
        type: "daily_brief",
        t: T0 + (day - 1) * 24 * HOUR,
        day,
        days: o.days ?? 1,
        spent_usd: 0,
        left_usd: 100,
        llm_spent_usd: 0,
        llm_left_usd: 50,
        by_type: {},
        text: `day ${day} brief`,
      });
    }
  });
  await kernel.run();
  ledger.close();
  return { events, requests, kernel };
}

/** The wake marker of the current (last) segment of a request. */
export const lastMarker = (req: GenerateRequest) =>
  [...req.messages].reverse().find((m) => m.role === "user" && m.content.startsWith("(woke at"))?.content ?? null;
export const markerTime = (req: GenerateRequest) => {
  const m = /^\(woke at (\S+) for/.exec(lastMarker(req) ?? "");
  return m ? Date.parse(m[1]!) : Number.NaN;
};
