import { describe, expect, it } from "vitest";
import { ProviderGate } from "../../../src/run/grid/provider-gate.js";

describe("ProviderGate (per-provider concurrency cap)", () => {
  it("never lets more than the cap of one provider run; other providers are uncapped", async () => {
    const gate = new ProviderGate({ openai: 2 });
    expect(gate.tryAcquire("openai")).toBe(true);
    expect(gate.tryAcquire("openai")).toBe(true);
    expect(gate.tryAcquire("openai")).toBe(false);
    for (let i = 0; i < 5; i++) expect(gate.tryAcquire("scripted")).toBe(true);
    expect(gate.runningOf("scripted")).toBe(5);
    // a waiter gets the slot a release frees, in arrival order
    const order: string[] = [];
    const a = gate.acquire("openai").then(() => order.push("a"));
    const b = gate.acquire("openai").then(() => order.push("b"));
    await Promise.resolve();
    expect(order).toEqual([]);
    gate.release("openai");
    await a;
    expect(order).toEqual(["a"]);
    expect(gate.runningOf("openai")).toBe(2);
    gate.release("openai");
    await b;
    expect(order).toEqual(["a", "b"]);
    // a cap given with the job wins over the gate's own
    expect(gate.tryAcquire("anthropic", 1)).toBe(true);
    expect(gate.tryAcquire("anthropic", 1)).toBe(false);
    expect(() => new ProviderGate().release("x")).toThrow(/without a slot/);
  });
});
