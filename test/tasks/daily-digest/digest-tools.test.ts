import { describe, expect, it } from "vitest";
import { digestState, digestTools } from "../../../src/tasks/daily-digest/digest-tools.js";
import { defaultDailyDigestParams } from "../../../src/tasks/daily-digest/params.js";
import type { ToolDef, ToolResult } from "../../../src/tools/tool.js";

const T = (iso: string) => Date.parse(iso);

/** Calls a tool the way the runtime does: zod-validate, then run. */
function caller(tools: ToolDef[], clock: { t: number }) {
  return async (name: string, args: unknown): Promise<ToolResult> => {
    const tool = tools.find((x) => x.name === name);
    if (!tool) throw new Error(`no tool ${name}`);
    const parsed = tool.args.safeParse(args);
    if (!parsed.success) return { ok: false, error: parsed.error.message };
    return tool.invoke(parsed.data, { now: () => clock.t, actor: "agent" });
  };
}

const ids10 = Array.from({ length: 10 }, (_, i) => `p${i}`);

describe("digest tool", () => {
  it("accepts one digest inside the window and rejects a second one", async () => {
    const clock = { t: T("2026-03-02T12:00:00Z") };
    const call = caller(digestTools(defaultDailyDigestParams()), clock);
    const first = await call("digest", { root_ids: ids10 });
    expect(first.ok).toBe(true);
    expect(first.ok && first.value).toMatchObject({ day: "2026-03-02", distinct_ids: 10, scored_ids: 10 });
    clock.t = T("2026-03-02T12:59:59.999Z");
    const second = await call("digest", { root_ids: ids10 });
    expect(second).toEqual({
      ok: false,
      error: "digest rejected: a digest was already delivered in this window at 2026-03-02T12:00:00.000Z",
    });
    // the next day's window is a new right
    clock.t = T("2026-03-03T12:10:00Z");
    expect((await call("digest", { root_ids: ids10 })).ok).toBe(true);
  });

  it("rejects outside the window: before it opens and at its exclusive close", async () => {
    const clock = { t: T("2026-03-02T11:59:59.999Z") };
    const call = caller(digestTools(defaultDailyDigestParams()), clock);
    expect(await call("digest", { root_ids: ids10 })).toEqual({
      ok: false,
      error: "digest rejected: no window is open; the next delivery window opens 2026-03-02T12:00:00.000Z",
    });
    clock.t = T("2026-03-02T13:00:00Z");
    expect(await call("digest", { root_ids: ids10 })).toEqual({
      ok: false,
      error:
        "digest rejected: today's window [2026-03-02T12:00:00.000Z, 2026-03-02T13:00:00.000Z) has closed; the next delivery window opens 2026-03-03T12:00:00.000Z",
    });
    // rejections do not consume the right: a later in-window call of the next day is accepted
    clock.t = T("2026-03-03T12:00:00Z");
    expect((await call("digest", { root_ids: ids10 })).ok).toBe(true);
  });

  it("rejects malformed payloads without using the window's digest", async () => {
    const clock = { t: T("2026-03-02T12:30:00Z") };
    const call = caller(digestTools(defaultDailyDigestParams()), clock);
    for (const bad of [
      {},
      { root_ids: "p1" },
      { root_ids: [] },
      { root_ids: [1, 2] },
      { root_ids: ["p1", ""] },
      { root_ids: ["x".repeat(129)] },
      { root_ids: Array.from({ length: 51 }, (_, i) => `p${i}`) },
      { root_ids: ["p1"], extra: true },
    ]) {
      expect((await call("digest", bad)).ok, JSON.stringify(bad).slice(0, 60)).toBe(false);
    }
    const good = await call("digest", { root_ids: ["p1", "p1", ...Array.from({ length: 48 }, (_, i) => `q${i}`)] });
    expect(good.ok && good.value).toMatchObject({ ids_received: 50, distinct_ids: 49, scored_ids: 10 });
  });

  it("ids are not checked at call time", async () => {
    const clock = { t: T("2026-03-02T12:30:00Z") };
    const call = caller(digestTools(defaultDailyDigestParams()), clock);
    expect((await call("digest", { root_ids: ["no-such-post"] })).ok).toBe(true);
  });
});

describe("digest_status", () => {
  it("reports the window, delivery and next opening", async () => {
    const clock = { t: T("2026-03-02T09:00:00Z") };
    const call = caller(digestTools(defaultDailyDigestParams()), clock);
    const before = await call("digest_status", {});
    expect(before).toEqual({
      ok: true,
      value: {
        now: "2026-03-02T09:00:00.000Z",
        window_open: false,
        today: {
          day: "2026-03-02",
          window: { opens: "2026-03-02T12:00:00.000Z", closes: "2026-03-02T13:00:00.000Z" },
          candidates: { since: "2026-03-01T12:00:00.000Z", until: "2026-03-02T12:00:00.000Z" },
          delivered: false,
          delivered_at: null,
        },
        next_window_opens: "2026-03-02T12:00:00.000Z",
        digest_size: 10,
        hit_threshold: 50,
      },
    });
    clock.t = T("2026-03-02T12:20:00Z");
    await call("digest", { root_ids: ids10 });
    const after = await call("digest_status", {});
    expect(after.ok && after.value).toMatchObject({
      window_open: true,
      today: { delivered: true, delivered_at: "2026-03-02T12:20:00.000Z" },
      next_window_opens: "2026-03-03T12:00:00.000Z",
    });
  });
});

describe("digest state (the state block)", () => {
  it("today's digest owed, delivered (a right used) or missed, and the next window", async () => {
    const p = defaultDailyDigestParams();
    const delivered = new Map<number, number>();
    const clock = { t: T("2026-03-02T06:00:00Z") };
    const call = caller(digestTools(p, delivered), clock);
    const win = "[2026-03-02T12:00:00.000Z, 2026-03-02T13:00:00.000Z)";
    expect(digestState(clock.t, p, delivered)).toEqual([
      {
        title: "daily digest",
        lines: [`today's digest (window ${win}): not delivered yet`, "next window opens 2026-03-02T12:00:00.000Z"],
        open: 1,
      },
    ]);
    clock.t = T("2026-03-02T12:30:00Z");
    expect(digestState(clock.t, p, delivered)[0]!.lines[0]).toBe(
      `today's digest (window ${win}): not delivered yet (window open now)`,
    );
    expect((await call("digest", { root_ids: ids10 })).ok).toBe(true);
    expect(digestState(clock.t, p, delivered)).toEqual([
      {
        title: "daily digest",
        lines: [
          `today's digest (window ${win}): delivered at 2026-03-02T12:30:00.000Z`,
          "next window opens 2026-03-03T12:00:00.000Z",
        ],
        open: 0,
      },
    ]);
    // a day whose window closed without a digest: nothing is owed any more
    expect(digestState(T("2026-03-03T14:00:00Z"), p, delivered)[0]).toEqual({
      title: "daily digest",
      lines: [
        "today's digest (window [2026-03-03T12:00:00.000Z, 2026-03-03T13:00:00.000Z)): not delivered, window closed",
        "next window opens 2026-03-04T12:00:00.000Z",
      ],
      open: 0,
    });
  });
});
