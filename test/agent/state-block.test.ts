import { describe, expect, it } from "vitest";
import { renderStateBlock } from "../../src/agent/state-block.js";
import type { GenerateRequest } from "../../src/models/model.js";
import { HOUR, lastMarker, markerTime, reply, runAgent, T0 } from "./support/harness.js";

const iso = (t: number) => new Date(t).toISOString();
const toolCallNames = (req: GenerateRequest) =>
  req.messages.flatMap((m) => (m.role === "assistant" ? (m.tool_calls ?? []).map((c) => c.name) : []));

describe("the state block: decision-critical state in the newest user turn of every wake", () => {
  it("renders sections one item a line, 'none' for an empty one, and nothing at all without sections", () => {
    expect(
      renderStateBlock(
        [
          { title: "pending claims", lines: ["m1: up, pending until 2026-03-02T00:00:00.000Z"] },
          { title: "open duties", lines: [] },
        ],
        T0,
      ),
    ).toBe(
      "[state as of 2026-03-01T00:00:00.000Z]\npending claims:\n- m1: up, pending until 2026-03-02T00:00:00.000Z\nopen duties:\n- none",
    );
    expect(renderStateBlock([], T0)).toBeNull();
  });

  it("a cron agent still sees the schedule it created after the wake that created it was dropped", async () => {
    const { requests } = await runAgent({
      trigger: "cron",
      days: 3,
      contextTokens: 1800,
      model: (req) => {
        const marker = lastMarker(req) ?? "";
        const inWake = req.messages.slice(req.messages.map((m) => m.content === marker).lastIndexOf(true));
        const acted = inWake.some((m) => m.role === "tool");
        if (acted) return reply(["done", {}]);
        if (marker.includes("for start"))
          return reply(["create_schedule", { id: "morning", cron_expr: "30 6 * * *", note: "morning check" }]);
        return reply(["words", { n: 400 }]);
      },
    });
    // the state block lives in the wake marker (never the system prompt: the cached prefix stays stable)
    const systems = new Set(requests.map((r) => r.req.system));
    expect(systems.size).toBe(1);
    expect([...systems][0]).not.toContain("[state as of");
    // the first wake's block: only the base schedule is pending
    expect(lastMarker(requests[0]!.req)).toBe(
      `(woke at ${iso(T0)} for start)\nday 1 brief\n[state as of ${iso(T0)}]\n` +
        "pending schedules (yours and the base schedule):\n" +
        '- base: cron "0 12 * * *", next 2026-03-01T12:00:00.000Z (task base schedule (read-only))',
    );
    // later requests whose transcript no longer holds the create_schedule call still list the entry
    const dropped = requests.filter((r) => markerTime(r.req) > T0 && !toolCallNames(r.req).includes("create_schedule"));
    expect(dropped.length).toBeGreaterThan(0);
    const day2noon = dropped.find((r) => markerTime(r.req) === T0 + 36 * HOUR);
    expect(day2noon).toBeDefined();
    expect(lastMarker(day2noon!.req)).toBe(
      `(woke at ${iso(T0 + 36 * HOUR)} for cron: base)\n[state as of ${iso(T0 + 36 * HOUR)}]\n` +
        "pending schedules (yours and the base schedule):\n" +
        '- base: cron "0 12 * * *", next 2026-03-03T12:00:00.000Z (task base schedule (read-only))\n' +
        '- morning: cron "30 6 * * *", next 2026-03-03T06:30:00.000Z (morning check)',
    );
    for (const r of dropped) expect(lastMarker(r.req)).toContain('- morning: cron "30 6 * * *", next ');
  });

  it("the task's state() is re-read at every wake and follows the agent's own actions", async () => {
    let pending: string[] = [];
    const { requests } = await runAgent({
      days: 1,
      model: (req) => {
        const t = markerTime(req);
        if (req.messages.at(-1)?.role === "tool") return reply(["sleep", { until: iso(t + 8 * HOUR) }]);
        pending = [...pending, `claim ${pending.length + 1} made ${iso(t)}`];
        return reply(["echo", { x: pending.length }]);
      },
      extra: { state: () => [{ title: "pending claims", lines: [...pending] }] },
    });
    const markers = [...new Set(requests.map((r) => lastMarker(r.req)))];
    expect(markers[0]).toBe(
      `(woke at ${iso(T0)} for start)\nday 1 brief\n[state as of ${iso(T0)}]\npending claims:\n- none`,
    );
    expect(markers[1]).toBe(
      `(woke at ${iso(T0 + 8 * HOUR)} for sleep)\n[state as of ${iso(T0 + 8 * HOUR)}]\npending claims:\n` +
        `- claim 1 made ${iso(T0)}`,
    );
  });
});
