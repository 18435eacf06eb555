import { describe, expect, it } from "vitest";
import { ModelError, ProviderFailedError } from "../../src/models/model.js";
import { HOUR, markerTime, reply, runAgent } from "./support/harness.js";

const iso = (t: number) => new Date(t).toISOString();
const toolsRun = (events: Awaited<ReturnType<typeof runAgent>>["events"]) =>
  events.flatMap((e) => (e.type === "tool_call" ? [`${e.tool}:${e.status}`] : []));

describe("replies as real servers send them", () => {
  it("runs every non-waiting call of a reply in order, then the wait; a second wait is rejected unrun", async () => {
    let n = 0;
    const { events, requests } = await runAgent({
      days: 1,
      model: (req) =>
        n++ === 0
          ? reply(
              ["sleep", { until: iso(markerTime(req) + 3 * HOUR) }],
              ["echo", { x: 1 }],
              ["sleep", { until: iso(markerTime(req) + 2 * HOUR) }],
              ["echo", { x: 2 }],
            )
          : reply(["finish", { summary: "done" }]),
    });
    // both echos ran (in the reply's order), then the first sleep; the second sleep never ran
    expect(toolsRun(events).slice(0, 3)).toEqual(["echo:ok", "echo:ok", "sleep:ok"]);
    const second = requests[1]!.req.messages;
    const results = second.filter((m) => m.role === "tool").map((m) => (m as { content: string }).content);
    expect(results[0]).toContain("sleeping_until");
    expect(results[1]).not.toMatch(/^ERROR/);
    expect(results[3]).not.toMatch(/^ERROR/);
    expect(results[2]).toMatch(/^ERROR: not run: a second wait in the same reply is rejected/);
    // tool results come back in the reply's order
    expect(second.filter((m) => m.role === "tool").map((m) => (m as { tool_call_id: string }).tool_call_id)).toEqual([
      "c0",
      "c1",
      "c2",
      "c3",
    ]);
    // the first sleep (+3 h) took effect, not the second (+2 h)
    const wait = events.find((e) => e.type === "wait");
    expect(wait).toMatchObject({ tool: "sleep", until: markerTime(requests[0]!.req) + 3 * HOUR });
  });

  it("a truncated reply runs none of its calls (even valid ones): protocol retry with a hint", async () => {
    let n = 0;
    const { events, requests } = await runAgent({
      days: 1,
      model: () => {
        n++;
        if (n === 1) return { ...reply(["echo", { x: 7 }]), finish_reason: "length" };
        if (n === 2) return { ...reply(["echo", { x: 8 }]), finish_reason: "max_tokens" };
        return reply(["finish", { summary: "ok" }]);
      },
    });
    expect(toolsRun(events)).toEqual(["finish:ok"]);
    const notes = events.flatMap((e) => (e.type === "note" ? [e.kind] : []));
    expect(notes.filter((k) => k === "truncated_reply")).toHaveLength(2);
    const last = requests[1]!.req.messages.at(-1) as { role: string; content: string };
    expect(last.role).toBe("user");
    expect(last.content).toMatch(/cut off at the output limit of 4096 tokens, so none of its tool calls ran/);
  });

  it("a context-length error drops the oldest wake and retries (ledgered); later wakes stay under the limit", async () => {
    const REFUSE = 3000;
    const sizes: number[] = [];
    const { events, requests } = await runAgent({
      days: 2,
      model: (req) => {
        const size = JSON.stringify(req.messages).length / 4;
        sizes.push(size);
        if (size > REFUSE)
          throw new ModelError("context_length", "This model's maximum context length is 3000 tokens.", undefined, 400);
        return req.messages.at(-1)?.role === "user"
          ? reply(["words", { n: 400 }])
          : reply(["sleep", { until: iso(markerTime(req) + 3 * HOUR) }]);
      },
    });
    const notes = events.filter((e) => e.type === "note" && e.kind === "context_overflow");
    expect(notes.length).toBeGreaterThan(0);
    expect(events.some((e) => e.type === "note" && (e.kind === "model_failed" || e.kind === "failed_degenerate"))).toBe(
      false,
    );
    // every wake went on (sleep waits), and the refusals did not repeat at every later call
    const refused = sizes.filter((s) => s > REFUSE).length;
    expect(refused).toBe(notes.length);
    expect(refused).toBeLessThan(requests.length / 4);
    expect(events.filter((e) => e.type === "wait").every((e) => e.type === "wait" && e.tool === "sleep")).toBe(true);
  });

  it("a refused key / unknown model / unreachable endpoint stops the run (ProviderFailedError naming the endpoint)", async () => {
    for (const [kind, status] of [
      ["auth", 401],
      ["not_found", 404],
      ["network", undefined],
    ] as const) {
      const err = runAgent({
        days: 3,
        extra: { endpoint: "http://127.0.0.1:9/v1" },
        model: () => {
          throw new ModelError(kind, `openai:gpt-4.1-mini at http://127.0.0.1:9/v1: ${kind}`, undefined, status);
        },
      });
      await expect(err).rejects.toThrow(
        /provider failure \(model call 0\): openai:gpt-4\.1-mini at http:\/\/127\.0\.0\.1:9\/v1/,
      );
      const e = (await err.then(
        () => new Error("no failure"),
        (x: unknown) => x as Error,
      )) as Error;
      expect((e.cause as Error) instanceof ProviderFailedError).toBe(true);
      if (status !== undefined) expect(e.message).toContain(`(HTTP ${status})`);
    }
  });
});
