import { describe, expect, it } from "vitest";
import { programMessageTools } from "../../src/run/program-messages.js";

const T0 = Date.parse("2026-03-01T06:00:00Z");

describe("messages between the actors of a program shape", () => {
  const [send, read] = programMessageTools(["coordinator", "market-a", "market-b"]);
  const as = (actor: string) => ({ now: () => T0, actor });

  it("delivers to one actor or to all others, once, oldest first", async () => {
    expect(await send!.invoke({ to: "market-a", text: "watch the Fed story" }, as("coordinator"))).toEqual({
      ok: true,
      value: { delivered_to: ["market-a"] },
    });
    expect(await send!.invoke({ to: "all", text: "budget is tight" }, as("coordinator"))).toEqual({
      ok: true,
      value: { delivered_to: ["market-a", "market-b"] },
    });
    expect(await read!.invoke({}, as("market-a"))).toEqual({
      ok: true,
      value: {
        messages: [
          { from: "coordinator", sent_at: "2026-03-01T06:00:00.000Z", text: "watch the Fed story" },
          { from: "coordinator", sent_at: "2026-03-01T06:00:00.000Z", text: "budget is tight" },
        ],
      },
    });
    expect(await read!.invoke({}, as("market-a"))).toEqual({ ok: true, value: { messages: [] } });
    expect(await read!.invoke({}, as("coordinator"))).toEqual({ ok: true, value: { messages: [] } });
  });

  it("rejects unknown recipients and messages to oneself, naming the agents", async () => {
    expect(await send!.invoke({ to: "market-z", text: "x" }, as("coordinator"))).toEqual({
      ok: false,
      error: 'to: no agent "market-z"; agents: coordinator, market-a, market-b, all',
    });
    expect(await send!.invoke({ to: "market-b", text: "x" }, as("market-b"))).toEqual({
      ok: false,
      error: "to: you cannot message yourself",
    });
  });
});
