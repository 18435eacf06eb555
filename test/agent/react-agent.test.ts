import { describe, expect, it } from "vitest";
import { ModelError } from "../../src/models/model.js";
import { HOUR, lastMarker, markerTime, reply, runAgent, T0, text } from "./support/harness.js";

const iso = (t: number) => new Date(t).toISOString();
const sleepReply = (req: Parameters<typeof markerTime>[0], hours = 6) =>
  reply(["sleep", { until: iso(markerTime(req) + hours * HOUR) }]);

describe("ReAct agent loop", () => {
  it("opens each wake with a marker, adds the daily brief on a day's first wake only, and ledgers wake/wait", async () => {
    const { events, requests } = await runAgent({ days: 2, model: (req) => sleepReply(req, 6) });
    const markers = requests.map((r) => lastMarker(r.req));
    expect(markers[0]).toBe(`(woke at ${iso(T0)} for start)\nday 1 brief`);
    expect(markers[1]).toBe(`(woke at ${iso(T0 + 6 * HOUR)} for sleep)`);
    expect(markers[4]).toBe(`(woke at ${iso(T0 + 24 * HOUR)} for sleep)\nday 2 brief`);
    const wakes = events.filter((e) => e.type === "wake");
    const waits = events.filter((e) => e.type === "wait");
    expect(wakes).toHaveLength(8);
    expect(waits.every((w) => w.type === "wait" && w.tool === "sleep")).toBe(true);
  });

  it("keeps the system prompt and the earlier messages byte-stable between calls (prompt caching)", async () => {
    let n = 0;
    const { requests } = await runAgent({
      days: 2,
      model: (req) => (n++ % 3 === 2 ? sleepReply(req, 5) : reply(["echo", { x: n }], ["words", { n: 20 }])),
    });
    expect(requests.length).toBeGreaterThan(20);
    for (let i = 1; i < requests.length; i++) {
      const a = requests[i - 1]!.req;
      const b = requests[i]!.req;
      expect(b.system).toBe(a.system);
      expect(JSON.stringify(b.tools)).toBe(JSON.stringify(a.tools));
      expect(JSON.stringify(b.messages.slice(0, a.messages.length))).toBe(JSON.stringify(a.messages));
    }
    expect(requests[0]!.req.system).toContain("# Test task");
    expect(requests[0]!.req.system).toContain("## How you run");
    // tool docs are sent once, in the tools array (never repeated in the system prompt)
    expect(requests[0]!.req.system).not.toContain("- sleep (meta)");
    expect(requests[0]!.req.tools.map((t) => t.name)).toContain("sleep");
  });

  it("drops the oldest whole wake segments to fit the context, never the current one", async () => {
    const { requests } = await runAgent({
      days: 1,
      contextTokens: 2500,
      model: (req) => (req.messages.at(-1)?.role === "user" ? reply(["words", { n: 300 }]) : sleepReply(req, 1)),
    });
    let dropped = false;
    for (const { req } of requests) {
      // the conversation always starts with a wake marker (whole segments) and holds the current one
      expect(req.messages[0]?.role).toBe("user");
      expect((req.messages[0] as { content: string }).content.startsWith("(woke at")).toBe(true);
      expect(lastMarker(req)).not.toBeNull();
      if (!(req.messages[0] as { content: string }).content.includes("for start")) dropped = true;
    }
    expect(dropped).toBe(true);
    // a single segment larger than the limit is kept whole
    const big = await runAgent({
      days: 1,
      contextTokens: 600,
      model: (req) => (req.messages.length < 4 ? reply(["words", { n: 2000 }]) : sleepReply(req, 12)),
    });
    const second = big.requests[1]!.req;
    expect(second.messages).toHaveLength(3);
  });

  it("runaway guard: 200 tool calls without a clock-moving wait end the wake with a ledgered note", async () => {
    let n = 0;
    const { events } = await runAgent({
      days: 1,
      model: () => reply(["echo", { x: n++ }], ["echo", { x: n++ }], ["echo", { x: n++ }]),
    });
    const firstNote = events.findIndex((e) => e.type === "note" && e.kind === "runaway");
    expect(firstNote).toBeGreaterThan(0);
    expect(events.slice(0, firstNote).filter((e) => e.type === "tool_call")).toHaveLength(200);
    const wait = events[firstNote + 1];
    expect(wait).toMatchObject({ type: "wait", tool: "runaway", until: null });
    // the fallback midnight wake ends the run's single day
    expect(events.filter((e) => e.type === "wake")).toHaveLength(1);
  });

  it("invalid tool calls (unknown tool, malformed JSON, zod failure) are free errors naming the valid arguments", async () => {
    let turn = 0;
    const { events, requests } = await runAgent({
      days: 1,
      model: () => {
        turn++;
        if (turn === 1) return reply(["nope", {}], ["echo", '{"x": 1'], ["echo", { x: "one" }]);
        if (turn === 2) return reply(["echo", { x: 1 }]);
        return reply(["finish", { summary: "done" }]);
      },
    });
    const tools = requests[1]!.req.messages
      .filter((m) => m.role === "tool")
      .map((m) => (m as { content: string }).content);
    expect(tools[0]).toMatch(/^ERROR: unknown tool "nope"; available tools: echo, words, sleep, finish$/);
    expect(tools[1]).toMatch(/^ERROR: invalid arguments for echo: not valid JSON .*Valid arguments: \{ x: number \}$/);
    expect(tools[2]).toMatch(/^ERROR: invalid arguments for echo: x: .*Valid arguments: \{ x: number \}$/);
    const rejected = events.filter((e) => e.type === "tool_call" && e.status === "rejected");
    expect(rejected).toHaveLength(3);
    expect(rejected.every((e) => e.type === "tool_call" && e.cost_usd === 0)).toBe(true);
  });

  it("a reply without tool calls is nudged once, then the wake ends as an implicit wait", async () => {
    const { events, requests } = await runAgent({ days: 1, model: () => text("hmm") });
    expect(requests).toHaveLength(2);
    expect(requests[1]!.req.messages.at(-1)).toMatchObject({
      role: "user",
      content: expect.stringContaining("(no tool call:"),
    });
    expect(events.find((e) => e.type === "wait")).toMatchObject({ tool: "implicit_wait", until: null });
  });

  it("finish(summary) ends participation (note finished_early); the clock still runs to the end", async () => {
    const { events, kernel } = await runAgent({
      days: 3,
      model: () => reply(["finish", { summary: "enough" }], ["echo", { x: 1 }]),
    });
    expect(events.filter((e) => e.type === "wake")).toHaveLength(1);
    expect(events.find((e) => e.type === "note")).toMatchObject({ kind: "finished_early", message: "enough" });
    // the call after finish in the same reply ran first; finish took effect after it
    expect(events.filter((e) => e.type === "tool_call").map((e) => e.type === "tool_call" && e.tool)).toEqual([
      "echo",
      "finish",
    ]);
    expect(kernel.now()).toBe(kernel.end);
  });

  it("five consecutive crashed wakes mark failed_degenerate; no model calls after, wakes go on", async () => {
    const { events, requests } = await runAgent({
      days: 8,
      model: () => {
        throw new ModelError("server", "boom");
      },
    });
    expect(requests).toHaveLength(5);
    const notes = events.flatMap((e) => (e.type === "note" ? [e.kind] : []));
    expect(notes).toEqual([
      "model_failed",
      "model_failed",
      "model_failed",
      "model_failed",
      "model_failed",
      "failed_degenerate",
    ]);
    expect(events.filter((e) => e.type === "wake").length).toBe(8);
    expect(
      events
        .filter((e) => e.type === "llm_call")
        .every((e) => e.type === "llm_call" && e.status === "error" && e.cost_usd === 0),
    ).toBe(true);
  });

  it("a non-provider error (e.g. a cassette mismatch) fails the run loudly", async () => {
    await expect(
      runAgent({
        model: () => {
          throw new Error("cassette mismatch");
        },
      }),
    ).rejects.toThrow(/cassette mismatch/);
  });

  it("the LLM cap: llm_rejected once, then no model calls; the agent waits for triggers to the end", async () => {
    const { events, requests } = await runAgent({ days: 3, llmCap: 0.0009, model: (req) => sleepReply(req, 2) });
    // each call costs 0.000416: the third call is refused
    expect(requests).toHaveLength(3);
    const rej = events.findIndex((e) => e.type === "llm_rejected");
    expect(events.slice(rej).some((e) => e.type === "llm_call")).toBe(false);
    expect(
      events
        .slice(rej)
        .filter((e) => e.type === "wait")
        .every((e) => e.type === "wait" && e.tool === "no_llm"),
    ).toBe(true);
  });

  it("the deadline guard wakes the agent an hour before each deadline (reason deadline)", async () => {
    const { events } = await runAgent({
      days: 1,
      deadlines: [T0 + 13 * HOUR, T0 + 20 * HOUR, T0 + 30 * 60_000],
      model: (req) => sleepReply(req, 23),
    });
    const wakes = events.flatMap((e) => (e.type === "wake" ? [[e.reason, iso(e.t), e.trigger_id]] : []));
    expect(wakes).toEqual([
      ["start", iso(T0), undefined],
      ["deadline", iso(T0 + 12 * HOUR), `deadline:${iso(T0 + 13 * HOUR)}`],
      ["deadline", iso(T0 + 19 * HOUR), `deadline:${iso(T0 + 20 * HOUR)}`],
    ]);
  });
});
