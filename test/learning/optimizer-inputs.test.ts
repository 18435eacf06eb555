/**
 * What the harness optimizer's proposer sees (issue 13 §6): only outcomes released by the cut
 * (`released_at`, never the settlement time), through the task's agent-facing payload; never the
 * span scores. And a proposal is applied whole or not at all.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { EditableHarness, HarnessState } from "../../src/learning/harness-edit.js";
import { PROPOSE_EDIT_TOOL } from "../../src/learning/harness-edit.js";
import { Optimizer } from "../../src/learning/optimizer.js";
import type { LedgerEvent } from "../../src/ledger/events.js";
import { LedgerWriter } from "../../src/ledger/ledger-writer.js";
import { Wallet } from "../../src/ledger/wallet.js";
import type { GenerateRequest, GenerateResponse } from "../../src/models/model.js";
import type { Outcome } from "../../src/tasks/task.js";

const H = 3_600_000;
const START = Date.parse("2026-03-01T00:00:00Z");
const CUT = START + 48 * H;

function fixture(reply: (n: number) => string, llmCap = 5) {
  const ledger = LedgerWriter.create(join(mkdtempSync(join(tmpdir(), "opt-")), "ledger.jsonl"));
  const events: LedgerEvent[] = [];
  ledger.subscribe((e) => events.push(e));
  const outcome = (key: string, t: number, released: number) =>
    ledger.append({ type: "outcome", t, key, status: "hit", credit: 1, released_at: released, detail: {} });
  outcome("q:released-early", START + 10 * H, START + 10 * H);
  outcome("q:released-at-cut", START + 20 * H, CUT);
  // settled before the cut, but its facts become visible only after it: not hindsight yet
  outcome("q:settled-not-released", START + 30 * H, CUT + 5 * H);
  let state: HarnessState = { addendum: "", tuned: {}, programs: {} };
  const applied: HarnessState[] = [];
  const harness: EditableHarness = {
    surfaces: ["addendum", "tunable"],
    tunable: { page: "page size" },
    configured: () => 10,
    state: () => state,
    check: (next) => (typeof next.tuned.page === "number" && next.tuned.page > 50 ? "tuned: page: at most 50" : null),
    set: (next) => {
      applied.push(next);
      state = next;
    },
    readProgram: () => null,
  };
  const requests: GenerateRequest[] = [];
  let n = 0;
  const optimizer = new Optimizer({
    control: false,
    rule: "not-worse",
    direction: "higher",
    maxAsks: 2,
    bounds: [START, CUT, START + 96 * H],
    harness,
    events,
    run: { feedback: { oracle: (o: Outcome) => ({ key: o.key, status: o.status, credit: o.credit }), self: null } },
    ctx: {
      feedback: "oracle",
      oracleFeedback: { settled: () => [] },
    },
    spanScore: () => 0.123456,
    ledger,
    instruction: "Do the task.",
    proposer: () => ({
      ledger,
      wallet: new Wallet({ budget_usd: 10, domain_caps: { llm: llmCap } }),
      modelName: "openai:gpt-4.1-mini",
      cost: () => 0.001,
      settings: { maxOutputTokens: 100 },
      generate: async (req, ctx, onAttempt) => {
        requests.push(req);
        const res: GenerateResponse = {
          content: null,
          tool_calls: [{ id: `c${ctx.callIndex}`, name: PROPOSE_EDIT_TOOL, arguments: reply(n++) }],
          usage: { input_tokens: 10, cached_input_tokens: 0, output_tokens: 5 },
        };
        onAttempt({ attempt: 1, ok: true, response: res });
        return res;
      },
    }),
  });
  // the installer feeds the optimizer every ledger event in order (here: the outcomes above, then the rest)
  for (const e of events) optimizer.observe(e);
  ledger.subscribe((e) => optimizer.observe(e));
  return { optimizer, requests, applied, events, ledger };
}

const userText = (req: GenerateRequest) =>
  req.messages.map((m) => (m.role === "user" && typeof m.content === "string" ? m.content : "")).join("\n");

describe("the proposer's inputs at a cut", () => {
  it("hold the outcomes released by the cut and none released after it, and no span score", async () => {
    const f = fixture(() => JSON.stringify({ rationale: "r", addendum: "Be quick." }));
    await f.optimizer.cut(CUT);
    const text = userText(f.requests[0]!);
    expect(text).toContain('"q:released-early"');
    expect(text).toContain('"q:released-at-cut"');
    expect(text).not.toContain("q:settled-not-released");
    // the span score is the promotion rule's, never the proposer's
    expect(text).not.toContain("0.123456");
    expect(f.applied).toEqual([{ addendum: "Be quick.", tuned: {}, programs: {} }]);
    f.ledger.close();
  });

  it("a refused proposal is applied in no part: the valid addendum beside a refused value waits for a valid ask", async () => {
    const f = fixture((n) =>
      n === 0
        ? JSON.stringify({ rationale: "r", addendum: "Half.", tuned: { page: 500 } })
        : JSON.stringify({ rationale: "r", tuned: { page: 20 } }),
    );
    await f.optimizer.cut(CUT);
    expect(f.applied).toEqual([{ addendum: "", tuned: { page: 20 }, programs: {} }]);
    const notes = f.events.flatMap((e) => (e.type === "note" ? [`${e.kind}: ${e.message}`] : []));
    expect(notes.some((x) => /optimizer_rejected: span 2 ask 1: tuned: page: at most 50/.test(x))).toBe(true);
    // the re-ask carries the reason back to the proposer as its tool result
    expect(JSON.stringify(f.requests[1]!.messages)).toContain("tuned: page: at most 50");
    f.ledger.close();
  });
});

describe("the proposer's spend counts against the run's budget", () => {
  it("a spent LLM budget refuses the proposer's call (llm_rejected, actor proposer) and the incumbent runs", async () => {
    const f = fixture(() => JSON.stringify({ rationale: "r", addendum: "Be quick." }), 0);
    await f.optimizer.cut(CUT);
    expect(f.requests).toHaveLength(0);
    expect(f.applied).toHaveLength(0);
    expect(f.events.find((e) => e.type === "llm_rejected")).toMatchObject({
      actor: "proposer",
      reason: expect.stringMatching(/llm budget exhausted/),
    });
    f.ledger.close();
  });
});
