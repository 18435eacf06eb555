import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Kernel } from "../../src/kernel/kernel.js";
import type { LedgerEvent } from "../../src/ledger/events.js";
import { readLedgerLines } from "../../src/ledger/ledger-reader.js";
import { LedgerWriter } from "../../src/ledger/ledger-writer.js";
import { Wallet } from "../../src/ledger/wallet.js";
import { defineTool, ok } from "../../src/tools/tool.js";
import { ToolRuntime } from "../../src/tools/tool-runtime.js";
import { cronTrigger } from "../../src/triggers/cron.js";
import { runGate } from "../../src/triggers/cron-gate.js";
import { type AgentWake, IntentSlot } from "../../src/triggers/trigger.js";

const T0 = Date.parse("2026-03-01T00:00:00Z");
const H = 3_600_000;

/** a priced data tool: the hour of now, so a gate's decision can depend on what it read */
const hourTool = defineTool({
  name: "hour",
  description: "the hour of now",
  args: z.object({}).strict(),
  kind: "data",
  price: () => 0.001,
  run: (_a, ctx) => ok({ hour: new Date(ctx.now()).getUTCHours() }),
});

function setup(o: { baseWhen?: string; stepBudget?: number; days?: number } = {}) {
  const kernel = new Kernel({ start: T0, end: T0 + (o.days ?? 1) * 24 * H });
  const path = join(mkdtempSync(join(tmpdir(), "relive-gate-")), "ledger.jsonl");
  const ledger = LedgerWriter.create(path);
  const slot = new IntentSlot();
  let runtime: ToolRuntime | null = null;
  const trig = cronTrigger({
    kernel,
    actorId: "agent",
    slot,
    baseSchedule: "0 * * * *",
    base: "readonly",
    ...(o.baseWhen !== undefined ? { baseWhen: o.baseWhen } : {}),
    gate: {
      dataTools: () => ["hour"],
      callTool: (name, args) => (runtime as ToolRuntime).call("agent", name, args),
      note: (kind, message) => ledger.append({ type: "note", t: kernel.now(), actor: "agent", kind, message }),
      ...(o.stepBudget !== undefined ? { stepBudget: o.stepBudget } : {}),
    },
  });
  runtime = new ToolRuntime({
    tools: [hourTool, ...trig.tools],
    limiters: {},
    ledger,
    wallet: new Wallet({ budget_usd: 10, domain_caps: {} }),
    now: () => kernel.now(),
  });
  const call = (name: string, args: unknown) => (runtime as ToolRuntime).call("agent", name, args);
  /** runs the agent: install, then wait for every firing until the end; returns its wakes */
  const drive = async (before?: () => Promise<void>) => {
    const wakes: AgentWake[] = [];
    kernel.spawn("agent", async (self) => {
      trig.install();
      await before?.();
      for (;;) {
        const w = await trig.wait(self, { kind: "next_trigger", why: { kind: "tool", tool: "done" } });
        if (w.reason === "end") break;
        wakes.push(w);
      }
    });
    await kernel.run();
    ledger.close();
    const events = readLedgerLines(path).map((l) => JSON.parse(l) as LedgerEvent);
    return { wakes, events };
  };
  return { kernel, call, drive };
}

const notes = (events: LedgerEvent[], kind: string) =>
  events.flatMap((e) => (e.type === "note" && e.kind === kind ? [e] : []));

describe("cron when gate", () => {
  it("skip and wake are both ledgered; a skipped firing does not wake the agent; the gate's data calls are billed", async () => {
    // wake only at even hours, decided from a data tool's answer
    const gate =
      'const r = await envkit.tools.hour({}); envkit.handover(r.value.hour % 2 === 0 ? "wake" : { decision: "skip", reason: "odd hour " + r.value.hour });';
    const { drive } = setup({ baseWhen: gate });
    const { wakes, events } = await drive();
    // 24 firings strictly after 00:00 and before the end (01:00 ... 23:00); 11 even hours wake
    expect(wakes.map((w) => new Date(w.at).getUTCHours())).toEqual([2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22]);
    expect(wakes.every((w) => w.reason !== "end" && w.triggerId === "base")).toBe(true);
    expect(notes(events, "cron_gate_wake")).toHaveLength(11);
    const skips = notes(events, "cron_gate_skip");
    expect(skips).toHaveLength(12);
    expect(skips[0]).toMatchObject({
      t: T0 + H,
      message: "base: skip (odd hour 1); sandbox: 0 polls, 1 data tool call",
    });
    // one billed data call per firing, at the firing instant, ledgered like the agent's own
    const calls = events.filter((e) => e.type === "tool_call" && e.tool === "hour");
    expect(calls).toHaveLength(23);
    expect(calls.reduce((s, e) => s + (e.type === "tool_call" ? e.cost_usd : 0), 0)).toBeCloseTo(0.023, 12);
    // the wake says what its gate decided
    expect(wakes[0]).toMatchObject({ detail: expect.stringContaining('when gate of "base": wake') });
  });

  it("a crashing gate fails open: the agent wakes with the error, which is ledgered", async () => {
    const { drive } = setup({ baseWhen: "const x = 1;\nthrow new Error('gate broke');" });
    const { wakes, events } = await drive();
    expect(wakes).toHaveLength(23);
    const errs = notes(events, "cron_gate_error");
    expect(errs).toHaveLength(23);
    expect(errs[0]!.message).toMatch(/^base: failed open \(wake\): Error: gate broke/);
    expect(errs[0]!.message).toContain("when:base:2");
    expect(wakes[0]).toMatchObject({ detail: expect.stringContaining("gate broke") });
  });

  it("a gate that loops past its step budget fails open", async () => {
    const { drive } = setup({ baseWhen: "for (;;) {}", stepBudget: 3, days: 0.25 });
    const { wakes, events } = await drive();
    expect(wakes).toHaveLength(5); // 01:00 ... 05:00
    const errs = notes(events, "cron_gate_error");
    expect(errs).toHaveLength(5);
    expect(errs[0]!.message).toContain("step budget exceeded: 3 interrupt polls");
  });

  it("other ways to fail open: waiting, returning without a decision, a malformed decision", async () => {
    const run = (source: string) => runGate({ source, path: "when:x", now: T0, wrappers: {} });
    expect(await run("await envkit.wait(envkit.now() + 1000);")).toMatchObject({
      decision: "wake",
      error: expect.stringContaining("cannot let time pass"),
    });
    expect(await run("const a = 1;")).toMatchObject({
      decision: "wake",
      error: expect.stringContaining("without a decision"),
    });
    expect(await run('envkit.handover("maybe");')).toMatchObject({
      decision: "wake",
      error: expect.stringContaining('expected "wake"'),
    });
    expect(await run('envkit.workspace.read("x")')).toMatchObject({
      decision: "wake",
      error: expect.stringContaining("no workspace"),
    });
    expect(await run('envkit.handover("skip");')).toEqual({ decision: "skip", polls: 0, toolCalls: 0 });
  });

  it("create_schedule validates `when` like a watcher program; list_schedules shows it; update and delete keep the map right", async () => {
    const { call, drive } = setup();
    const { wakes, events } = await drive(async () => {
      expect(await call("create_schedule", { id: "g", cron_expr: "30 * * * *", when: "let a = ;" })).toMatchObject({
        ok: false,
        error: expect.stringMatching(/create_schedule rejected: the when gate does not validate: SyntaxError/),
      });
      expect(
        await call("create_schedule", {
          id: "g",
          cron_expr: "30 * * * *",
          when: "await envkit.wait(envkit.now() + 1);",
        }),
      ).toMatchObject({ ok: false, error: expect.stringContaining("cannot let time pass") });
      expect(await call("create_schedule", { id: "g", cron_expr: "30 * * * *", when: "x".repeat(4001) })).toMatchObject(
        { ok: false, error: expect.stringContaining("invalid arguments") },
      );
      // validation is free and takes no time: no tool_call of `hour` is made while validating
      const skip = 'await envkit.tools.hour({}); envkit.handover("skip");';
      expect(await call("create_schedule", { id: "g", cron_expr: "30 * * * *", when: skip })).toMatchObject({
        ok: true,
      });
      const list = await call("list_schedules", {});
      expect(list).toMatchObject({ ok: true, value: { schedules: [{ id: "base" }, { id: "g", when: skip }] } });
      // the base entry is not gated: a one-shot that wakes at 03:10 via its own gate
      expect(
        await call("create_schedule", { id: "once", at: T0 + 3 * H + 10 * 60_000, when: 'envkit.handover("wake")' }),
      ).toMatchObject({ ok: true });
      // update keeps the gate when `when` is omitted
      expect(await call("update_schedule", { id: "g", cron_expr: "45 * * * *" })).toMatchObject({
        ok: true,
        value: { updated: { id: "g", cron_expr: "45 * * * *", when: skip } },
      });
    });
    // g (:45) is always skipped; base (:00) and the one-shot wake
    expect(wakes.filter((w) => w.reason !== "end" && w.triggerId === "g")).toHaveLength(0);
    expect(wakes.filter((w) => w.reason !== "end" && w.triggerId === "base")).toHaveLength(23);
    expect(wakes.filter((w) => w.reason !== "end" && w.triggerId === "once").map((w) => w.at)).toEqual([
      T0 + 3 * H + 10 * 60_000,
    ]);
    expect(notes(events, "cron_gate_skip")).toHaveLength(24);
    expect(notes(events, "cron_gate_wake")).toHaveLength(1);
  });

  it('update_schedule with when: "" removes a gate; delete_schedule drops it', async () => {
    const { call, drive } = setup({ days: 0.5 });
    const { wakes } = await drive(async () => {
      await call("create_schedule", { id: "g", cron_expr: "30 * * * *", when: 'envkit.handover("skip")' });
      expect(await call("update_schedule", { id: "g", when: "" })).toMatchObject({ ok: true });
      expect((await call("list_schedules", {})) as { value: { schedules: object[] } }).not.toMatchObject({
        value: { schedules: [{}, { when: expect.anything() }] },
      });
      await call("create_schedule", { id: "h", cron_expr: "15 * * * *", when: 'envkit.handover("skip")' });
      await call("delete_schedule", { id: "h" });
      // re-created without a gate: it wakes
      await call("create_schedule", { id: "h", cron_expr: "15 * * * *" });
    });
    expect(wakes.filter((w) => w.reason !== "end" && w.triggerId === "g")).toHaveLength(12);
    expect(wakes.filter((w) => w.reason !== "end" && w.triggerId === "h")).toHaveLength(12);
  });
});

describe("cron when gate: an LLM agent attaches one with create_schedule", () => {
  it("the ReAct agent's gated entry wakes it only when its gate says so; skips are ledgered", async () => {
    const { runAgent, reply, lastMarker, T0: A0, HOUR } = await import("../agent/support/harness.js");
    const gate = 'envkit.handover(new Date(envkit.now()).getUTCHours() % 6 === 0 ? "wake" : "skip");';
    let created: unknown = null;
    const { requests, events } = await runAgent({
      trigger: "cron",
      days: 1,
      cronGates: true,
      model: (req) => {
        const marker = lastMarker(req) ?? "";
        if (req.messages.at(-1)?.role === "tool") {
          if (marker.includes("for start") && created === null) {
            const last = req.messages.at(-1);
            created = last?.content;
          }
          return reply(["done", {}]);
        }
        if (marker.includes("for start"))
          return reply(["create_schedule", { id: "gated", cron_expr: "0 * * * *", when: gate }]);
        return reply(["echo", { x: 1 }]);
      },
    });
    expect(String(created)).toContain('"when"');
    const markers = [...new Set(requests.map((r) => lastMarker(r.req) ?? ""))].filter((m) =>
      (m.split("\n")[0] ?? "").endsWith("for cron: gated)"),
    );
    // hourly firings 01:00 ... 23:00; the gate wakes at 06, 12 and 18
    expect(markers.map((m) => m.split("\n")[0])).toEqual(
      [6, 12, 18].map((h) => `(woke at ${new Date(A0 + h * HOUR).toISOString()} for cron: gated)`),
    );
    expect(markers[0]).toContain('when gate of "gated": wake; sandbox: 0 polls, 0 data tool calls');
    // the state block marks the entry as gated
    expect(markers[0]).toContain('- gated: cron "0 * * * *", next ');
    expect(markers[0]).toContain(", when-gated");
    expect(events.filter((e) => e.type === "note" && e.kind === "cron_gate_skip")).toHaveLength(20);
    expect(events.filter((e) => e.type === "note" && e.kind === "cron_gate_wake")).toHaveLength(3);
  });
});
