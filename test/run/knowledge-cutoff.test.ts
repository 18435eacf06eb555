/** The knowledge-cutoff guard: a log line and the results flag `before_knowledge_cutoff`. */
import { describe, expect, it } from "vitest";
import { PriceTable } from "../../src/models/price-table.js";
import { checkKnowledgeCutoff, cutoffEnd, knowledgeCutoffWarning } from "../../src/run/knowledge-cutoff.js";
import { runWithServer } from "../agent/support/llm-run.js";

const D = (s: string) => Date.parse(`${s}T00:00:00Z`);
const prices = PriceTable.fromRecord({
  "openai:m-month": { input: 1, cached_input: 1, output: 1, cutoff: "2025-01" },
  "openai:m-day": { input: 1, cached_input: 1, output: 1, cutoff: "2024-06-01" },
  "openai:m-none": { input: 1, cached_input: 1, output: 1 },
});
const model = (priceKey: string) => ({ kind: "model" as const, name: priceKey, priceKey, prices });

describe("knowledge cutoff", () => {
  it("a cutoff month ends at the next month's 00:00Z; a cutoff day at the next day's", () => {
    expect(cutoffEnd("2025-01")).toBe(D("2025-02-01"));
    expect(cutoffEnd("2024-12")).toBe(D("2025-01-01"));
    expect(cutoffEnd("2024-06-01")).toBe(D("2024-06-02"));
    expect(() => cutoffEnd("2024")).toThrow(/YYYY-MM/);
  });

  it("before: the episode starts before the cutoff ends; null when no cutoff is listed; scripted agents never", () => {
    expect(checkKnowledgeCutoff(model("openai:m-month"), D("2025-01-31"))).toEqual({ before: true, cutoff: "2025-01" });
    expect(checkKnowledgeCutoff(model("openai:m-month"), D("2025-02-01"))).toEqual({
      before: false,
      cutoff: "2025-01",
    });
    expect(checkKnowledgeCutoff(model("openai:m-day"), D("2024-06-01") + 3_600_000).before).toBe(true);
    expect(checkKnowledgeCutoff(model("openai:m-day"), D("2024-06-02")).before).toBe(false);
    expect(checkKnowledgeCutoff(model("openai:m-none"), D("2020-01-01"))).toEqual({ before: null, cutoff: null });
    expect(checkKnowledgeCutoff({ kind: "scripted" }, D("2020-01-01"))).toEqual({ before: false, cutoff: null });
    expect(knowledgeCutoffWarning(model("openai:m-month"), D("2025-01-10"))).toBe(
      "warning: the episode starts 2025-01-10, before the knowledge cutoff of openai:m-month (2025-01): the model may know how it ends (results flag before_knowledge_cutoff)",
    );
    expect(knowledgeCutoffWarning(model("openai:m-month"), D("2025-03-01"))).toBeNull();
    expect(knowledgeCutoffWarning(model("openai:m-none"), D("2025-03-01"))).toMatch(
      /^note: no knowledge cutoff is listed/,
    );
  });

  it("an LLM run whose episode starts before its model's cutoff logs a warning and sets the results flag", async () => {
    const logs: string[] = [];
    const finish = () => ({ kind: "tool_calls" as const, calls: [{ name: "finish", arguments: { summary: "done" } }] });
    // gpt-4.1-mini's listed cutoff is 2024-06-01; a one-day synthetic price-check window on 2024-05-20
    const before = await runWithServer(
      { task: "price-check", sim_start: "2024-05-20T00:00:00Z", sim_end: "2024-05-21T00:00:00Z" },
      finish,
      { log: (m) => logs.push(m) },
    );
    expect(before.results.flags.before_knowledge_cutoff).toBe(true);
    expect(logs).toContain(
      "warning: the episode starts 2024-05-20, before the knowledge cutoff of openai:gpt-4.1-mini (2024-06-01): the model may know how it ends (results flag before_knowledge_cutoff)",
    );
    const after = await runWithServer(
      { task: "price-check", sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-02T00:00:00Z" },
      finish,
    );
    expect(after.results.flags.before_knowledge_cutoff).toBe(false);
  }, 900_000);
});
