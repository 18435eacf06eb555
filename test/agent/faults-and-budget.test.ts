import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readLedger } from "../../src/ledger/ledger-reader.js";
import { DIGEST_5D, run } from "../run/helpers.js";
import type { ScriptedReply } from "../support/openai-test-server.js";
import { runWithServer } from "./support/llm-run.js";
import { policyResponder, topCommentsScript } from "./support/policy-responder.js";

const DIGEST = { task: "daily-digest", ...DIGEST_5D } as const;

describe("R4: provider faults", () => {
  it("a mix of 429, 5xx, timeouts, malformed tool JSON, empty and text replies: the run completes, only successes are billed", async () => {
    const faults: Record<number, ScriptedReply> = {
      1: { kind: "status", status: 429, headers: { "retry-after-ms": "1" } },
      2: { kind: "status", status: 500 },
      4: { kind: "malformed_tool_json", name: "list_posts" },
      6: { kind: "empty_choices" },
      8: { kind: "status", status: 503 },
      9: { kind: "timeout" },
      12: { kind: "text", content: "thinking out loud" },
      15: { kind: "malformed_tool_json", name: "digest_status" },
    };
    const play = policyResponder(topCommentsScript(), "sleep");
    // the one test whose server hangs on purpose: a client timeout short enough to wait out, long
    // enough that no answered call on a busy machine reaches it
    const res = await runWithServer(DIGEST, (body, i) => faults[i] ?? play(body, i), { modelTimeoutMs: 20_000 });
    const ref = await run({ ...DIGEST, agent: { model: "scripted:top-comments" } });
    expect(res.results.performance).toEqual(ref.results.performance);

    const ev = readLedger(join(res.runDir, "ledger.jsonl"));
    const llm = ev.flatMap((e) => (e.type === "llm_call" ? [e] : []));
    const failed = llm.filter((e) => e.status === "error");
    expect(failed).toHaveLength(5); // 429, 500, empty, 503, timeout
    expect(failed.every((e) => e.cost_usd === 0 && e.input_tokens === 0)).toBe(true);
    expect(failed.map((e) => e.error?.split(":")[0])).toEqual(["rate_limit", "server", "empty", "server", "timeout"]);
    const billed = llm.filter((e) => e.status === "ok").reduce((s, e) => s + e.cost_usd, 0);
    expect(res.results.resources.llm_usd).toBeCloseTo(billed, 12);
    expect(res.results.resources.llm_failed_attempts).toBe(5);
    expect(res.results.resources.protocol_retries).toBe(2);
    // retries of one logical call share its call index and count attempts up
    const retried = llm.filter((e) => e.call_index === failed[0]!.call_index);
    expect(retried.map((e) => e.attempt)).toEqual([1, 2, 3]);
    // the malformed call became a free rejection naming the valid arguments
    const bad = ev.find((e) => e.type === "tool_call" && e.status === "rejected");
    expect(bad?.type === "tool_call" && bad.error).toMatch(/not valid JSON.*Valid arguments: \{/);
    // the text-only reply was nudged and the run went on
    expect(res.requests.some((r) => JSON.stringify(r.body.messages).includes("(no tool call:"))).toBe(true);
  }, 900_000);
});

describe("R5: the LLM cap", () => {
  it("spend never exceeds the cap by more than one call; flag set; no llm_call after the first llm_rejected; the run reaches sim_end", async () => {
    const cap = 0.002;
    const res = await runWithServer(
      { ...DIGEST, domain_budgets: { llm: cap } },
      policyResponder(topCommentsScript(), "sleep"),
    );
    const ev = readLedger(join(res.runDir, "ledger.jsonl"));
    const llm = ev.flatMap((e) => (e.type === "llm_call" ? [e] : []));
    const firstRejected = ev.findIndex((e) => e.type === "llm_rejected");
    expect(firstRejected).toBeGreaterThan(0);
    expect(ev.slice(firstRejected).some((e) => e.type === "llm_call")).toBe(false);
    const maxCall = Math.max(...llm.map((e) => e.cost_usd));
    expect(res.results.resources.llm_usd).toBeGreaterThanOrEqual(cap);
    expect(res.results.resources.llm_usd - cap).toBeLessThanOrEqual(maxCall);
    expect(res.results.flags.llm_budget_exhausted).toBe(true);
    expect(ev.at(-1)?.type).toBe("run_end");
    // the clock ran on: wakes (fallback midnights) after the refusal, every day briefed
    expect(ev.filter((e) => e.type === "daily_brief")).toHaveLength(5);
    expect(ev.slice(firstRejected).filter((e) => e.type === "wake").length).toBeGreaterThan(0);
    expect(ev.filter((e) => e.type === "llm_rejected")).toHaveLength(1);
  }, 900_000);
});
