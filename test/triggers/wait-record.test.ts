import { describe, expect, it } from "vitest";
import { type WaitIntent, waitToolOf, waitUntilOf } from "../../src/triggers/trigger.js";

type Wait = Exclude<WaitIntent, { kind: "finish" }>;

describe("why a wake ended: the union maps to the ledger's recorded wait values", () => {
  it("keeps every recorded `tool` value of the ledger format", () => {
    const cases: [Wait, string, number | null][] = [
      [{ kind: "sleep", until: 5 }, "sleep", 5],
      [{ kind: "sleep", until: 7, tool: "next_day" }, "next_day", 7],
      [{ kind: "program", path: "watch.js", until: 9 }, "run_program", 9],
      [{ kind: "program", path: "watch.js", until: null }, "run_program", null],
      [{ kind: "next_trigger", why: { kind: "tool", tool: "done" } }, "done", null],
      [{ kind: "next_trigger", why: { kind: "episode_cap" } }, "episode_cap", null],
      [{ kind: "next_trigger", why: { kind: "runaway" } }, "runaway", null],
      [{ kind: "next_trigger", why: { kind: "no_llm" } }, "no_llm", null],
      [{ kind: "next_trigger", why: { kind: "model_failed" } }, "model_failed", null],
      [{ kind: "next_trigger", why: { kind: "truncated" } }, "truncated", null],
      [{ kind: "next_trigger", why: { kind: "implicit_wait" } }, "implicit_wait", null],
    ];
    for (const [intent, tool, until] of cases) {
      expect(waitToolOf(intent)).toBe(tool);
      expect(waitUntilOf(intent)).toBe(until);
    }
  });
});
