/**
 * End to end through the runner on a short synthetic window (3 days, the world the leakage test
 * builds too): the scripted heuristic under sleep and cron, the anchors (silent 0, oracle 100 per
 * question), an LLM agent replaying the heuristic through the OpenAI test server, `next_day` under
 * the sleep trigger with the daily recap in the wake markers, and the feedback conditions.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nextUtcMidnight } from "../../../src/common/time.js";
import { readLedger } from "../../../src/ledger/ledger-reader.js";
import { baseRateNewsSteps } from "../../../src/tasks/open-forecast/policies.js";
import { runWithServer } from "../../agent/support/llm-run.js";
import { policyResponder } from "../../agent/support/policy-responder.js";
import { run } from "../../run/helpers.js";
import type { RequestBody } from "../../support/openai-test-server.js";

const WINDOW = { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-04T00:00:00Z" };
const BASE = { task: "open-forecast", ...WINDOW } as const;

const heuristicScript = () => ({
  act: () => baseRateNewsSteps(),
  nextWake: nextUtcMidnight,
  cron: [],
});

/** Every (tool name, tool result) pair in the last request of a run. */
function toolResults(body: RequestBody): { name: string; content: string }[] {
  const names = new Map<string, string>();
  const out: { name: string; content: string }[] = [];
  for (const m of body.messages as {
    role: string;
    content?: string;
    tool_call_id?: string;
    tool_calls?: { id: string; function: { name: string } }[];
  }[]) {
    for (const c of m.tool_calls ?? []) names.set(c.id, c.function.name);
    if (m.role === "tool" && m.tool_call_id)
      out.push({ name: names.get(m.tool_call_id) ?? "?", content: m.content ?? "" });
  }
  return out;
}

describe("open-forecast runs", () => {
  it("heuristic: the same score under sleep and cron; silent 0; oracle 100 per scored question", async () => {
    const sleep = await run({ ...BASE, agent: { model: "scripted:base-rate-news", trigger: "sleep" } });
    const cron = await run({ ...BASE, agent: { model: "scripted:base-rate-news", trigger: "cron" } });
    const silent = await run({ ...BASE, agent: { model: "scripted:silent" } });
    const oracle = await run({ ...BASE, agent: { model: "scripted:oracle" } });
    const scored = sleep.results.performance.questions_scored as number;
    // pinned anchors on this window (7 scored questions): heuristic tw_score 284.9925, oracle 700, silent 0; questions
    // open on every day (synth v5), so only those opening before any answer is public get the 0.5 prior on their
    // day 0, later ones the base rates learned from the answers made public by then: bss_day0 0.5078729.
    // Re-pinned with synth v5 (was 10 / 290.2369 / 0.3607554 under v4): questions are asked only from what is public
    // at their open (src/tasks/open-forecast/README.md "Anchors")
    expect(scored).toBe(7);
    expect(sleep.results.performance.primary.value).toBeCloseTo(284.9925, 3);
    expect(sleep.results.performance.bss_day0).toBeCloseTo(0.5078729, 7);
    expect(cron.results.performance).toEqual(sleep.results.performance);
    expect(sleep.results.performance.primary.value).toBeGreaterThan(0);
    expect(silent.results.performance.primary.value).toBe(0);
    expect(oracle.results.performance.primary.value).toBe(100 * scored);
    expect(oracle.results.performance.accuracy).toBe(1);
    const mean = sleep.results.performance.mean_score as number;
    expect(mean).toBeGreaterThan(0);
    expect(mean).toBeLessThan(1);
  }, 900_000);

  it("an LLM agent replaying the heuristic scores the same; wakes carry the daily recap; blind runs have no feedback", async () => {
    const ref = await run({ ...BASE, agent: { model: "scripted:base-rate-news", trigger: "sleep" } });
    const res = await runWithServer(
      // a short context keeps the replayed requests small (the responder reads only the latest wake)
      { ...BASE, agent: { trigger: "sleep", context_tokens: 8_000 } },
      policyResponder(heuristicScript(), "sleep"),
    );
    expect(res.results.performance).toEqual(ref.results.performance);
    expect(res.results.outcomes).toEqual(ref.results.outcomes);
    const last = res.requests.at(-1)!.body;
    const tools = (last.tools as { function: { name: string } }[]).map((t) => t.function.name);
    expect(tools).toContain("next_day");
    expect(tools).not.toContain("get_feedback");
    expect(JSON.stringify(last)).not.toMatch(/feedback/i);
    const markers = (last.messages as { role: string; content?: string }[])
      .filter((m) => m.role === "user" && m.content?.startsWith("(woke at "))
      .map((m) => m.content as string);
    expect(markers.at(-1)).toContain("Recap, day 3 of 3 (2026-03-03)");
    expect(markers.at(-1)).toMatch(/Since 2026-03-02T00:00:00.000Z: \d+ new articles, \d+ new questions?\./);
    expect(JSON.stringify(res.requests[0]!.body.messages)).toContain("Recap, day 1 of 3 (2026-03-01): ");
  }, 900_000);

  it("under oracle: next_day sleeps to each midnight (a next_day wait), get_feedback gives only settled outcomes, the recap shows scores", async () => {
    let step = 0;
    const res = await runWithServer({ ...BASE, feedback: "oracle", agent: { trigger: "sleep" } }, () => ({
      kind: "tool_calls",
      calls: [{ name: step++ % 2 === 0 ? "get_feedback" : "next_day", arguments: "{}" }],
    }));
    const ev = readLedger(join(res.runDir, "ledger.jsonl"));
    const waits = ev.flatMap((e) =>
      e.type === "wait" ? [[e.tool, e.until === null ? null : new Date(e.until).toISOString()]] : [],
    );
    expect(waits).toEqual([
      ["next_day", "2026-03-02T00:00:00.000Z"],
      ["next_day", "2026-03-03T00:00:00.000Z"],
      ["next_day", "2026-03-04T00:00:00.000Z"],
    ]);
    expect(ev.flatMap((e) => (e.type === "wake" ? [e.reason] : []))).toEqual(["start", "sleep", "sleep"]);
    const last = res.requests.at(-1)!.body;
    expect((last.tools as { function: { name: string } }[]).map((t) => t.function.name)).toContain("get_feedback");
    const outcomeTimes = ev.flatMap((e) => (e.type === "outcome" ? [e.t] : []));
    let calls = 0;
    for (const r of toolResults(last)) {
      if (r.name !== "get_feedback") continue;
      const v = JSON.parse(r.content) as { now: string; items: { settled_at: string; key: string }[] };
      const now = Date.parse(v.now);
      for (const it of v.items) {
        expect(Date.parse(it.settled_at)).toBeLessThanOrEqual(now);
        expect(it.key.startsWith("q:")).toBe(true);
      }
      expect(v.items).toHaveLength(outcomeTimes.filter((t) => t <= now).length);
      calls++;
    }
    expect(calls).toBe(3);
    const settledBeforeEnd = outcomeTimes.filter((t) => t < Date.parse(WINDOW.sim_end)).length;
    const markers = (last.messages as { role: string; content?: string }[])
      .filter((m) => m.role === "user" && m.content?.startsWith("(woke at "))
      .map((m) => m.content as string);
    expect(markers.some((m) => m.includes("Your scores"))).toBe(settledBeforeEnd > 0);
  }, 900_000);
});
