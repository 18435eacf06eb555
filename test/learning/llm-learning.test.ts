/**
 * Learning and the memory scaffolding end to end through the runner, against the loopback OpenAI test
 * server the test starts (a scripted agent policy and a scripted curator):
 * - the memory tools on a task other than open-forecast, rebuilt byte for byte by a resume;
 * - memory_phase (a forced memory-only turn after 23:00 that refuses commitments) and daily_reset
 *   (the transcript cleared each day; memory carries over);
 * - reflection: the curator's metered call, a rejected lesson asked again, the lessons in the learned
 *   block; and (issue 13 §6) a blind run's memory inputs hold no settled outcome.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DAILY_RESET_LINE } from "../../src/agent/memory-phase.js";
import { nextUtcMidnight, parseIsoInstant } from "../../src/common/time.js";
import { CURATOR_ACTOR, SET_LESSONS_TOOL } from "../../src/learning/curator.js";
import type { LedgerEvent } from "../../src/ledger/events.js";
import { readLedger } from "../../src/ledger/ledger-reader.js";
import { parseRunConfig } from "../../src/run/config.js";
import { resumeRun, runFromConfig } from "../../src/run/runner.js";
import { llmOptions, runWithServer } from "../agent/support/llm-run.js";
import type { RequestBody, ScriptedReply } from "../support/openai-test-server.js";
import { startOpenAITestServer } from "../support/openai-test-server.js";

type Msg = {
  role: string;
  content?: string | null;
  name?: string;
  tool_call_id?: string;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
};

const msgs = (b: RequestBody) => b.messages as Msg[];
const toolNames = (b: RequestBody) => (b.tools as { function: { name: string } }[]).map((t) => t.function.name);
const lastUser = (b: RequestBody) => [...msgs(b)].reverse().find((m) => m.role === "user")?.content ?? "";
const wokeAt = (s: string) => {
  const m = /\(woke at (\S+) for/.exec(s);
  return m ? parseIsoInstant(m[1]!) : null;
};
const calls = (...c: [string, object][]): ScriptedReply => ({
  kind: "tool_calls",
  calls: c.map(([name, args]) => ({ name, arguments: args })),
});
const iso = (t: number) => new Date(t).toISOString();
const WINDOW = { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-04T00:00:00Z" };

describe("memory tools on any task", () => {
  it("price-check with agent.memory_tools: notes land in <run>/memory/notes.jsonl and a resume rebuilds them byte for byte", async () => {
    const respond = (b: RequestBody): ScriptedReply => {
      const at = wokeAt(lastUser(b));
      if (msgs(b).at(-1)!.role === "user" && at !== null)
        return calls(
          ["memory_append", { note: `awake at ${iso(at)}`, item: "BTC" }],
          ["sleep", { until: iso(nextUtcMidnight(at)) }],
        );
      return calls(["sleep", { until: iso(nextUtcMidnight(parseIsoInstant("2026-03-01T00:00:00Z"))) }]);
    };
    const server = await startOpenAITestServer();
    server.respond(respond);
    try {
      const cfg = parseRunConfig({
        task: "price-check",
        ...WINDOW,
        agent: { model: "openai:gpt-4.1-mini", memory_tools: true },
      });
      const o = llmOptions(server);
      const first = await runFromConfig(cfg, o);
      expect(toolNames(server.requests[0]!.body)).toEqual(expect.arrayContaining(["memory_read", "memory_append"]));
      const notes = readFileSync(join(first.runDir, "memory", "notes.jsonl"), "utf8");
      expect(
        notes
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l).note),
      ).toEqual([
        "awake at 2026-03-01T00:00:00.000Z",
        "awake at 2026-03-02T00:00:00.000Z",
        "awake at 2026-03-03T00:00:00.000Z",
      ]);
      // a resume re-runs the episode from its own llm.jsonl: the memory is rebuilt, not restored
      const ledger = readFileSync(join(first.runDir, "ledger.jsonl"), "utf8");
      rmSync(join(first.runDir, "results.json"));
      rmSync(join(first.runDir, "memory"), { recursive: true });
      const asked = server.requests.length;
      await resumeRun(first.runDir, o);
      expect(server.requests.length).toBe(asked);
      expect(readFileSync(join(first.runDir, "memory", "notes.jsonl"), "utf8")).toBe(notes);
      expect(readFileSync(join(first.runDir, "ledger.jsonl"), "utf8")).toBe(ledger);
    } finally {
      await server.close();
    }
  }, 900_000);

  it("a run without memory tools offers none and writes no memory directory", async () => {
    const out = await runWithServer({ task: "price-check", ...WINDOW }, () =>
      calls(["sleep", { until: "2026-03-05T00:00:00Z" }]),
    );
    expect(toolNames(out.requests[0]!.body)).not.toContain("memory_append");
    expect(existsSync(join(out.runDir, "memory"))).toBe(false);
  }, 900_000);
});

describe("memory phase and daily reset", () => {
  it("a memory-only turn after 23:00 refuses commitments; each day starts from a cleared transcript with memory intact", async () => {
    const respond = (b: RequestBody): ScriptedReply => {
      const m = msgs(b);
      const last = m.at(-1)!;
      const user = lastUser(b);
      if (user.startsWith("(memory phase:")) {
        if (last.role === "user")
          return calls(
            ["memory_append", { note: "day summary" }],
            ["submit_forecasts", { question_id: "any", outcomes: { Yes: 0.6 } }],
          );
        return { kind: "text", content: "saved" };
      }
      if (user.startsWith("(memory phase over")) return calls(["next_day", {}]);
      const at = wokeAt(user);
      if (at !== null && last.role === "user")
        return calls(["memory_read", {}], ["sleep", { until: iso(nextUtcMidnight(at) - 30 * 60_000) }]);
      return calls(["next_day", {}]);
    };
    const out = await runWithServer(
      { task: "open-forecast", ...WINDOW, agent: { scaffolding: { memory_phase: true, daily_reset: true } } },
      respond,
    );
    const ledger = readLedger(join(out.runDir, "ledger.jsonl"));
    const notes = (kind: string) =>
      ledger.filter((e): e is Extract<LedgerEvent, { type: "note" }> => e.type === "note" && e.kind === kind);
    expect(notes("memory_phase").map((e) => iso(e.t))).toEqual([
      "2026-03-01T23:30:00.000Z",
      "2026-03-02T23:30:00.000Z",
      "2026-03-03T23:30:00.000Z",
    ]);
    expect(notes("daily_reset").map((e) => iso(e.t))).toEqual(["2026-03-02T00:00:00.000Z", "2026-03-03T00:00:00.000Z"]);
    // the phase refused every commitment: none reached the tools or the ledger
    expect(ledger.filter((e) => e.type === "commitment")).toEqual([]);
    const refusal = out.requests
      .flatMap((r) => msgs(r.body))
      .find((x) => x.role === "tool" && (x.content ?? "").includes("submit_forecasts was not run"));
    expect(refusal?.content).toBe(
      "ERROR: memory phase: only memory_read and memory_append run in this turn; submit_forecasts was not run",
    );
    // day 2 opens with the system prompt and its wake marker only; its memory_read shows day 1's note
    const day2 = out.requests.find((r) => wokeAt(lastUser(r.body)) === parseIsoInstant("2026-03-02T00:00:00Z"))!;
    expect(msgs(day2.body).map((x) => x.role)).toEqual(["system", "user"]);
    expect(lastUser(day2.body)).toContain(DAILY_RESET_LINE);
    const read2 = out.requests
      .map((r) => msgs(r.body))
      .find((ms) => ms.length > 4 && wokeAt(ms[1]!.content ?? "") === parseIsoInstant("2026-03-02T00:00:00Z"))!;
    expect(read2[3]!.content).toContain('"note":"day summary"');
    expect(read2[3]!.content).toContain('"at":"2026-03-01T23:30:00.000Z"');
  }, 900_000);
});

describe("memory phase at 90% of the context", () => {
  it("forces a memory-only turn once the transcript reaches 90% of its budget, before the oldest wakes drop", async () => {
    const respond = (b: RequestBody): ScriptedReply => {
      const user = lastUser(b);
      const last = msgs(b).at(-1)!;
      if (user.startsWith("(memory phase:"))
        return last.role === "user" ? calls(["memory_append", { note: "keep this" }]) : { kind: "text", content: "ok" };
      const at = wokeAt(user) ?? parseIsoInstant("2026-03-01T00:00:00Z");
      return {
        kind: "tool_calls",
        content: "thinking ".repeat(150),
        calls: [{ name: "sleep", arguments: { until: iso(at + 3_600_000) } }],
      };
    };
    const out = await runWithServer(
      {
        task: "price-check",
        sim_start: "2026-03-01T00:00:00Z",
        sim_end: "2026-03-02T00:00:00Z",
        agent: { context_tokens: 6000, scaffolding: { memory_phase: true } },
      },
      respond,
    );
    const ledger = readLedger(join(out.runDir, "ledger.jsonl"));
    const phases = ledger.filter((e) => e.type === "note" && e.kind === "memory_phase") as Extract<
      LedgerEvent,
      { type: "note" }
    >[];
    const full = phases.filter((e) => e.message === "transcript at 90% of its budget");
    expect(full.length).toBeGreaterThan(0);
    // the phase request carries the whole transcript (nothing dropped yet) and the agent's note is kept
    const first = out.requests.find((r) => lastUser(r.body).startsWith("(memory phase: your conversation"))!;
    expect(wokeAt(msgs(first.body)[1]!.content ?? "")).toBe(parseIsoInstant("2026-03-01T00:00:00Z"));
    const notes = readFileSync(join(out.runDir, "memory", "notes.jsonl"), "utf8")
      .trim()
      .split("\n");
    expect(notes.length).toBe(phases.length);
  }, 900_000);
});

describe("outcome memory in the system prompt", () => {
  it("the learned block shows the drained outcomes after the learn step (feedback: oracle)", async () => {
    const out = await runWithServer(
      { task: "open-forecast", ...WINDOW, feedback: "oracle", agent: { memory: "outcome" } },
      (b) => (msgs(b).at(-1)!.role === "user" ? calls(["list_questions", {}]) : calls(["next_day", {}])),
    );
    const records = readFileSync(join(out.runDir, "memory", "records.jsonl"), "utf8")
      .trim()
      .split("\n");
    expect(records.length).toBeGreaterThan(0);
    const sys = out.requests.map((r) => msgs(r.body)[0]!.content ?? "");
    expect(sys[0]).not.toContain("What you have learned");
    const learned = sys.filter((x) =>
      x.includes("## What you have learned\nOutcome memory as of 2026-03-03T00:30:00.000Z"),
    );
    expect(learned.length).toBeGreaterThan(0);
    expect(learned[0]).toContain("r1 [ledger:");
    expect(toolNames(out.requests[0]!.body)).toEqual(
      expect.arrayContaining(["memory_read", "memory_append", "get_feedback"]),
    );
  }, 900_000);
});

describe("reflection memory", () => {
  const curatorReply = (n: number): ScriptedReply =>
    n === 0
      ? calls([
          SET_LESSONS_TOOL,
          { lessons: ["Revisit stale forecasts.", "Questions opened on 2026-03-01 resolve early."] },
        ])
      : calls([SET_LESSONS_TOOL, { lessons: ["Revisit stale forecasts.", "Search before committing a forecast."] }]);

  const agent = (b: RequestBody): ScriptedReply => {
    const m = msgs(b);
    const last = m.at(-1)!;
    if (last.role === "user") return calls(["list_questions", {}]);
    if (last.role === "tool" && (last.content ?? "").includes('"questions":')) {
      const v = JSON.parse(last.content ?? "{}") as { questions?: { id: string }[] };
      const q = v.questions?.[0];
      return q
        ? calls(["submit_forecasts", { question_id: q.id, outcomes: { Yes: 0.5 } }], ["next_day", {}])
        : calls(["next_day", {}]);
    }
    return calls(["next_day", {}]);
  };

  for (const feedback of ["none", "oracle"] as const)
    it(`under feedback: ${feedback}: a daily metered curator call, a rejected lesson asked again, lessons in the learned block${feedback === "none" ? ", no settled outcome among its inputs" : ""}`, async () => {
      let curatorCalls = 0;
      const out = await runWithServer(
        { task: "open-forecast", ...WINDOW, feedback, agent: { memory: "reflection" } },
        (b) => (toolNames(b).includes(SET_LESSONS_TOOL) ? curatorReply(curatorCalls++) : agent(b)),
      );
      const ledger = readLedger(join(out.runDir, "ledger.jsonl"));
      const curatorLlm = ledger.filter(
        (e): e is Extract<LedgerEvent, { type: "llm_call" }> => e.type === "llm_call" && e.actor === CURATOR_ACTOR,
      );
      // day 1: asked twice (the first answer named a date); days 2 and 3: once
      expect(curatorLlm.map((e) => iso(e.t))).toEqual([
        "2026-03-01T00:30:00.000Z",
        "2026-03-01T00:30:00.000Z",
        "2026-03-02T00:30:00.000Z",
        "2026-03-03T00:30:00.000Z",
      ]);
      expect(curatorLlm.every((e) => e.cost_usd > 0)).toBe(true);
      const allLlm = ledger.filter((e) => e.type === "llm_call") as Extract<LedgerEvent, { type: "llm_call" }>[];
      expect(out.results.resources.llm_usd).toBeCloseTo(
        allLlm.reduce((s, e) => s + e.cost_usd, 0),
        12,
      );
      const rejected = ledger.filter((e) => e.type === "note" && e.kind === "curator_rejected") as Extract<
        LedgerEvent,
        { type: "note" }
      >[];
      expect(rejected).toHaveLength(1);
      expect(rejected[0]!.message).toContain('lesson 2 rejected: it names a date or time ("2026-03-01")');
      const lessons = readFileSync(join(out.runDir, "memory", "lessons.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(lessons.map((l) => l.lessons)).toEqual([
        ["Revisit stale forecasts.", "Search before committing a forecast."],
        ["Revisit stale forecasts.", "Search before committing a forecast."],
        ["Revisit stale forecasts.", "Search before committing a forecast."],
      ]);
      expect(ledger.filter((e) => e.type === "wake" && e.reason === "learn").map((e) => iso(e.t))).toEqual([
        "2026-03-01T00:30:00.000Z",
        "2026-03-02T00:30:00.000Z",
        "2026-03-03T00:30:00.000Z",
      ]);
      // the agent's system prompt carries the lessons after the first learn step (and the learn wake)
      const agentReqs = out.requests.filter((r) => !toolNames(r.body).includes(SET_LESSONS_TOOL));
      const sys = (r: { body: RequestBody }) => msgs(r.body)[0]!.content ?? "";
      expect(sys(agentReqs[0]!)).not.toContain("What you have learned");
      const afterLearn = agentReqs.find((r) => lastUser(r.body).includes("for learn"))!;
      expect(sys(afterLearn)).toContain("## What you have learned\nLessons (kept by a daily curator");
      expect(sys(afterLearn)).toContain("2. Search before committing a forecast.");
      // the curator saw the agent's commitments
      const curatorReqs = out.requests.filter((r) => toolNames(r.body).includes(SET_LESSONS_TOOL));
      expect(curatorReqs).toHaveLength(4);
      expect(lastUser(curatorReqs[2]!.body)).toMatch(/submit_forecasts \{"question_id":/);
      // issue 13 §6: the curator's inputs hold no settled outcome (no outcome key, status or credit), in every condition
      const outcomes = ledger.filter((e) => e.type === "outcome") as Extract<LedgerEvent, { type: "outcome" }>[];
      expect(outcomes.length).toBeGreaterThan(0);
      for (const r of curatorReqs) {
        const text = JSON.stringify(r.body);
        for (const o of outcomes) expect(text).not.toContain(JSON.stringify(o.key));
        for (const o of outcomes) expect(text).not.toContain(o.key);
        expect(text).not.toMatch(/credit|get_feedback/);
      }
      if (feedback === "none") {
        // a blind run: no outcome records at all, and no feedback tool
        expect(existsSync(join(out.runDir, "memory", "records.jsonl"))).toBe(false);
        for (const r of agentReqs) expect(toolNames(r.body)).not.toContain("get_feedback");
      }
    }, 900_000);
});
