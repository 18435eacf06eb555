import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { LedgerEvent } from "../../src/ledger/events.js";
import { FEEDBACK_TOOL, feedbackTool, oracleFeedbackOf } from "../../src/run/feedback-tool.js";
import { getTask } from "../../src/tasks/registry.js";
import type { TaskRunContext } from "../../src/tasks/task.js";
import { runWithServer } from "../agent/support/llm-run.js";
import { policyResponder, topCommentsScript } from "../agent/support/policy-responder.js";
import { run } from "./helpers.js";

const WINDOW = { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-04T00:00:00Z" };
const T = (h: number) => Date.parse("2026-03-01T00:00:00Z") + h * 3_600_000;

const outcome = (t: number, key: string): LedgerEvent => ({
  seq: 0,
  type: "outcome",
  t,
  key,
  status: "hit",
  credit: 1,
  detail: { day: key },
});

describe("the oracle channel releases only what has settled", () => {
  const events: LedgerEvent[] = [outcome(T(10), "a"), outcome(T(20), "b"), outcome(T(30), "c")];
  let now = T(25);
  const task = getTask("daily-digest");
  const ctx = {
    params: task.params.parse({}),
    feedback: "oracle",
    oracleFeedback: oracleFeedbackOf(events, () => now),
  } as unknown as TaskRunContext<unknown>;
  const tool = feedbackTool("oracle", task, task.open(ctx), ctx);
  const call = (args: { since?: string }) => tool.invoke(args, { now: () => now, actor: "agent" });

  it("returns outcomes settled in (since, now], in settlement order", async () => {
    now = T(25);
    expect(await call({})).toEqual({
      ok: true,
      value: {
        now: "2026-03-02T01:00:00.000Z",
        since: null,
        items: [
          {
            settled_at: "2026-03-01T10:00:00.000Z",
            released_at: "2026-03-01T10:00:00.000Z",
            key: "a",
            status: "hit",
            credit: 1,
            day: "a",
          },
          {
            settled_at: "2026-03-01T20:00:00.000Z",
            released_at: "2026-03-01T20:00:00.000Z",
            key: "b",
            status: "hit",
            credit: 1,
            day: "b",
          },
        ],
      },
    });
    const since = await call({ since: "2026-03-01T10:00:00Z" });
    expect(since.ok && (since.value as { items: { key: string }[] }).items.map((i) => i.key)).toEqual(["b"]);
    now = T(30);
    const later = await call({ since: "2026-03-01T20:00:00Z" });
    expect(later.ok && (later.value as { items: { key: string }[] }).items.map((i) => i.key)).toEqual(["c"]);
  });

  it("releases on released_at, not on the settlement time: in release order, since filters on it", async () => {
    const late: LedgerEvent[] = [
      { ...outcome(T(10), "early-settled"), released_at: T(40) } as LedgerEvent,
      outcome(T(20), "plain"),
      { ...outcome(T(30), "older-ledger") } as LedgerEvent,
    ];
    let t = T(35);
    const channel = oracleFeedbackOf(late, () => t);
    expect(channel.settled(null).map((o) => o.key)).toEqual(["plain", "older-ledger"]);
    t = T(40);
    expect(channel.settled(null).map((o) => [o.key, o.released_at])).toEqual([
      ["plain", T(20)],
      ["older-ledger", T(30)],
      ["early-settled", T(40)],
    ]);
    // since filters on release: an outcome settled before `since` but released after it is new
    expect(channel.settled(T(35)).map((o) => o.key)).toEqual(["early-settled"]);
    const x = channel.settled(T(35))[0]!;
    expect(x.t).toBe(T(10));
  });

  it("rejects a malformed since with a clear, free error", async () => {
    expect(await call({ since: "yesterday" })).toEqual({
      ok: false,
      error: 'since: not an ISO date-time: "yesterday"',
    });
  });
});

describe("conditions: blind has no trace of feedback, oracle differs only by the feedback tool", () => {
  it("the first model request of a blind and an oracle run differ only by get_feedback", async () => {
    const cfg = { task: "daily-digest", ...WINDOW, agent: { trigger: "sleep" as const } };
    const blind = await runWithServer({ ...cfg, feedback: "none" }, policyResponder(topCommentsScript(), "sleep"));
    const oracle = await runWithServer({ ...cfg, feedback: "oracle" }, policyResponder(topCommentsScript(), "sleep"));
    const first = (r: typeof blind) => r.requests[0]!.body as { messages: { content: string }[]; tools: unknown[] };
    const b = first(blind);
    const o = first(oracle);
    // blind: no tool, no text, no error mentioning feedback anywhere in what the model saw or the ledger holds
    expect(JSON.stringify(blind.requests.map((r) => r.body)).toLowerCase()).not.toContain("feedback");
    const toolName = (t: unknown) => (t as { function: { name: string } }).function.name;
    expect(o.tools.map(toolName)).toContain(FEEDBACK_TOOL);
    expect(o.tools.filter((t) => toolName(t) !== FEEDBACK_TOOL)).toEqual(b.tools);
    expect(readFileSync(join(blind.runDir, "ledger.jsonl"), "utf8").toLowerCase()).not.toContain("feedback");
    // tool docs are sent once, in the tools array: the system prompts (and the first wake) are identical
    const system = (x: typeof b) => x.messages[0]!.content;
    expect(system(o)).toBe(system(b));
    expect(system(o)).not.toContain(FEEDBACK_TOOL);
    expect(o.messages.slice(1)).toEqual(b.messages.slice(1));
    // every actor's full transcript is kept in the workspace, one message per line at simulated time
    // run records stay outside the workspace the agent reads and writes
    expect(existsSync(join(blind.runDir, "workspace", "transcripts"))).toBe(false);
    const lines = readFileSync(join(blind.runDir, "transcripts/agent.jsonl"), "utf8").trim().split("\n");
    expect(JSON.parse(lines[0]!)).toMatchObject({ t: "2026-03-01T00:00:00.000Z", role: "user" });
    expect(JSON.parse(lines[0]!).content).toMatch(/^\(woke at 2026-03-01T00:00/);
    expect(lines.length).toBeGreaterThan(10);
    // the treatment changes no outcome of a policy that never asks for feedback
    expect(oracle.results.outcomes).toEqual(blind.results.outcomes);
  }, 900_000);

  it("self feedback is refused where the task does not define it", async () => {
    await expect(run({ task: "price-check", ...WINDOW, feedback: "self" })).rejects.toThrow(
      /defines no "self" feedback/,
    );
  });
});
