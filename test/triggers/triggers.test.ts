import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Kernel } from "../../src/kernel/kernel.js";
import { LedgerWriter } from "../../src/ledger/ledger-writer.js";
import { Wallet } from "../../src/ledger/wallet.js";
import { ToolRuntime } from "../../src/tools/tool-runtime.js";
import { cronTrigger, MAX_PENDING_SCHEDULES } from "../../src/triggers/cron.js";
import { installDeadlineGuard } from "../../src/triggers/deadline-guard.js";
import { sleepTrigger } from "../../src/triggers/sleep.js";
import { agentWakeOf, IntentSlot, parseInstantArg, type WaitIntent } from "../../src/triggers/trigger.js";

const T0 = Date.parse("2026-03-01T00:00:00Z");
const H = 3_600_000;

function setup(base: "readonly" | "editable" = "readonly") {
  const kernel = new Kernel({ start: T0, end: T0 + 3 * 24 * H });
  const ledger = LedgerWriter.create(join(mkdtempSync(join(tmpdir(), "relive-trig-")), "ledger.jsonl"));
  const slot = new IntentSlot();
  const trig = cronTrigger({ kernel, actorId: "agent", slot, baseSchedule: "0 12 * * *", base });
  const runtime = new ToolRuntime({
    tools: trig.tools,
    limiters: {},
    ledger,
    wallet: new Wallet({ budget_usd: 1, domain_caps: {} }),
    now: () => kernel.now(),
  });
  const call = (name: string, args: unknown) => runtime.call("agent", name, args);
  return { kernel, slot, trig, call };
}

describe("cron trigger: schedule tools", () => {
  it("installs the read-only base schedule; update and delete of base are rejected", async () => {
    const { trig, call } = setup();
    trig.install();
    const list = await call("list_schedules", {});
    expect(list).toEqual({
      ok: true,
      value: {
        schedules: [
          {
            id: "base",
            kind: "cron",
            cron_expr: "0 12 * * *",
            next: "2026-03-01T12:00:00.000Z",
            note: "task base schedule (read-only)",
            read_only: true,
          },
        ],
        pending: 1,
        max_pending: MAX_PENDING_SCHEDULES,
      },
    });
    expect(await call("delete_schedule", { id: "base" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("read-only"),
    });
    expect(await call("update_schedule", { id: "base", cron_expr: "0 13 * * *" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("read-only"),
    });
  });

  it("an editable base can be changed and deleted", async () => {
    const { trig, call } = setup("editable");
    trig.install();
    expect(await call("update_schedule", { id: "base", cron_expr: "30 12 * * *" })).toMatchObject({
      ok: true,
      value: { updated: { id: "base", next: "2026-03-01T12:30:00.000Z" } },
    });
    expect(await call("delete_schedule", { id: "base" })).toEqual({ ok: true, value: { deleted: "base" } });
  });

  it("validates ids, timing and the pending cap with clear free rejections", async () => {
    const { call } = setup();
    for (const id of ["", "Bad", "a b", "x".repeat(65), "deadline:x"])
      expect(await call("create_schedule", { id, at: "2026-03-01T05:00:00Z" })).toMatchObject({
        ok: false,
        error: expect.stringMatching(/invalid schedule id/),
      });
    expect(
      await call("create_schedule", { id: "a", at: "2026-03-01T05:00:00Z", cron_expr: "0 * * * *" }),
    ).toMatchObject({ ok: false, error: expect.stringContaining("exactly one") });
    expect(await call("create_schedule", { id: "a" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("exactly one"),
    });
    expect(await call("create_schedule", { id: "a", at: T0 })).toMatchObject({
      ok: false,
      error: expect.stringContaining("not after now"),
    });
    expect(await call("create_schedule", { id: "a", cron_expr: "not cron" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("invalid cron expression"),
    });
    expect(await call("create_schedule", { id: "a", at: "2026-03-01T05:00:00Z", note: "x" })).toMatchObject({
      ok: true,
    });
    expect(await call("create_schedule", { id: "a", at: "2026-03-01T06:00:00Z" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("exists"),
    });
    for (let i = 1; i < MAX_PENDING_SCHEDULES; i++)
      expect((await call("create_schedule", { id: `s${i}`, cron_expr: "0 * * * *" })).ok).toBe(true);
    expect(await call("create_schedule", { id: "one_more", cron_expr: "0 * * * *" })).toMatchObject({
      ok: false,
      error: expect.stringContaining(`${MAX_PENDING_SCHEDULES} entries are pending`),
    });
    expect(await call("delete_schedule", { id: "missing" })).toMatchObject({
      ok: false,
      error: expect.stringContaining('no schedule "missing"'),
    });
  });

  it("one-shots fire once and are removed; crons fire at their times; done() leaves a next_trigger intent", async () => {
    const { kernel, slot, trig, call } = setup();
    const seen: string[] = [];
    kernel.spawn("agent", async (self) => {
      trig.install();
      await call("create_schedule", { id: "once", at: "2026-03-01T05:00:00Z" });
      await call("done", {});
      const intent = slot.take();
      expect(intent).toEqual({ kind: "next_trigger", why: { kind: "tool", tool: "done" } });
      for (let i = 0; i < 3; i++) {
        const w = await trig.wait(self, intent as Extract<WaitIntent, { kind: "next_trigger" }>);
        seen.push(
          `${w.reason}@${new Date(w.at).toISOString()}${"triggerId" in w && w.triggerId ? `:${w.triggerId}` : ""}`,
        );
        if (i === 0) expect(kernel.listTriggers("agent").map((t) => t.id)).toEqual(["base"]);
      }
    });
    await kernel.run();
    expect(seen).toEqual([
      "trigger@2026-03-01T05:00:00.000Z:once",
      "cron@2026-03-01T12:00:00.000Z:base",
      "cron@2026-03-02T12:00:00.000Z:base",
    ]);
  });
});

describe("sleep trigger and deadline guard", () => {
  it("sleep(until) rejects unreadable and past times and leaves a sleep intent otherwise", async () => {
    const kernel = new Kernel({ start: T0, end: T0 + 24 * H });
    const ledger = LedgerWriter.create(join(mkdtempSync(join(tmpdir(), "relive-trig-")), "ledger.jsonl"));
    const slot = new IntentSlot();
    const rt = new ToolRuntime({
      tools: sleepTrigger(slot).tools,
      limiters: {},
      ledger,
      wallet: new Wallet({ budget_usd: 1, domain_caps: {} }),
      now: () => kernel.now(),
    });
    expect(await rt.call("a", "sleep", { until: "tomorrow" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("cannot read"),
    });
    expect(await rt.call("a", "sleep", { until: T0 })).toMatchObject({
      ok: false,
      error: expect.stringContaining("not after now"),
    });
    expect(slot.take()).toBeNull();
    expect(await rt.call("a", "sleep", { until: "2026-03-01T06:00" })).toEqual({
      ok: true,
      value: { sleeping_until: "2026-03-01T06:00:00.000Z" },
    });
    expect(slot.take()).toEqual({ kind: "sleep", until: T0 + 6 * H });
  });

  it("reads instants as ISO (zone or UTC) or epoch ms", () => {
    expect(parseInstantArg("2026-03-01T01:00:00+01:00")).toBe(T0);
    expect(parseInstantArg("2026-03-01")).toBe(T0);
    expect(parseInstantArg(T0)).toBe(T0);
    expect(parseInstantArg(String(T0))).toBe(T0);
    expect(parseInstantArg("soon")).toBeNull();
    expect(parseInstantArg(1.5)).toBeNull();
  });

  it("installs one-shots an hour before each deadline known in time; their wakes map to reason deadline", async () => {
    const kernel = new Kernel({ start: T0, end: T0 + 24 * H });
    const known = [T0 + 30 * 60_000, T0 + 5 * H, T0 + 5 * H, T0 + 25 * H];
    const asked: number[] = [];
    installDeadlineGuard({
      kernel,
      actorId: "agent",
      deadlines: (until) => {
        asked.push(until);
        return known.filter((d) => d >= kernel.now() && d < until);
      },
    });
    // at start it looks one margin plus two polls ahead; the 00:30 deadline's wake instant has passed
    expect(asked).toEqual([T0 + H + 30 * 60_000]);
    expect(kernel.listTriggers("agent")).toEqual([]);
    // later polls (every 15 simulated minutes, and whenever the clock moves) reach the 05:00 deadline
    // and install its 04:00 wake once; the 25:00 deadline lies after the window
    const wakes: { at: number; reason: string; triggerId?: string }[] = [];
    kernel.spawn("agent", async (self) => {
      for (;;) {
        const w = await self.waitForTrigger();
        if (w.reason === "end") return;
        wakes.push(agentWakeOf(w));
      }
    });
    await kernel.run();
    expect(wakes.filter((w) => w.reason === "deadline")).toEqual([
      { at: T0 + 4 * H, reason: "deadline", triggerId: "deadline:2026-03-01T05:00:00.000Z" },
    ]);
  });
});
