/**
 * The harness optimizer (issue 13 §5) end to end through the runner, against the loopback OpenAI test
 * server the test starts: the agent plays daily-digest's top-comments policy (or skips every digest
 * while its addendum says SKIP-DIGESTS), the proposer proposes known edits. Checked: the edit's effect
 * in the next span's model requests, the promotion rule's keep and revert paths, the control arm,
 * rejected proposals, the proposer's inputs holding only outcomes released by the cut, deterministic
 * replay from a cassette, and the config refusal under feedback: none.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DAY_MS, isoInstant, MINUTE_MS, parseIsoInstant, startOfUtcDay } from "../../src/common/time.js";
import { PROPOSE_EDIT_TOOL } from "../../src/learning/harness-edit.js";
import { PROPOSER_ACTOR } from "../../src/learning/optimizer.js";
import { promote } from "../../src/learning/promotion.js";
import type { LedgerEvent } from "../../src/ledger/events.js";
import { readLedger } from "../../src/ledger/ledger-reader.js";
import type { CallContext, GenerateRequest } from "../../src/models/model.js";
import { parseRunConfig, type RunConfigInput } from "../../src/run/config.js";
import { restartRun } from "../../src/run/restart.js";
import { type RunOptions, runFromConfig } from "../../src/run/runner.js";
import { releasedAtOf } from "../../src/tasks/task.js";
import { llmOptions, TEST_MODEL } from "../agent/support/llm-run.js";
import { policyResponder, topCommentsScript } from "../agent/support/policy-responder.js";
import { options } from "../run/helpers.js";
import type { RequestBody, ScriptedReply } from "../support/openai-test-server.js";
import { startOpenAITestServer } from "../support/openai-test-server.js";

const WINDOW = { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-07T00:00:00Z" };
const CUT1 = Date.parse("2026-03-03T00:00:00Z");
const CUT2 = Date.parse("2026-03-05T00:00:00Z");
const SKIP = "SKIP-DIGESTS";
const read = (dir: string, f: string) => readFileSync(join(dir, f), "utf8");

type Msg = { role: string; content?: string | null };
const msgs = (b: RequestBody) => b.messages as Msg[];
const isProposer = (b: RequestBody) =>
  ((b.tools ?? []) as { function: { name: string } }[]).some((t) => t.function.name === PROPOSE_EDIT_TOOL);
const systemOf = (b: RequestBody) => msgs(b).find((m) => m.role === "system")?.content ?? "";
const propose = (args: object): ScriptedReply => ({
  kind: "tool_calls",
  calls: [{ name: PROPOSE_EDIT_TOOL, arguments: args }],
});

/** the agent: top-comments, except while its instructions say SKIP-DIGESTS (then it sleeps over each window) */
function agentResponder() {
  const play = policyResponder(topCommentsScript(), "sleep");
  return (b: RequestBody, i: number): ScriptedReply => {
    if (systemOf(b).includes(SKIP) && msgs(b).at(-1)!.role === "user") {
      const user = [...msgs(b)].reverse().find((m) => m.role === "user")?.content ?? "";
      const m = /\(woke at (\S+) for/.exec(user);
      const at = m ? parseIsoInstant(m[1]!) : Date.parse(WINDOW.sim_start);
      const next = startOfUtcDay(at) + DAY_MS + 12 * 60 * MINUTE_MS + 30 * MINUTE_MS;
      return { kind: "tool_calls", calls: [{ name: "sleep", arguments: { until: isoInstant(next) } }] };
    }
    return play(b, i);
  };
}

/** the model requests of a run, each with its actor and call index (the ledger's llm_call lines give their times) */
function recording() {
  const seen: { actor: string; callIndex: number; system: string }[] = [];
  return {
    seen,
    onModelRequest: (req: GenerateRequest, ctx: CallContext) =>
      seen.push({ actor: ctx.actor, callIndex: ctx.callIndex, system: req.system ?? "" }),
  };
}

const timeOfCall = (events: LedgerEvent[], actor: string, callIndex: number) =>
  events.find((e) => e.type === "llm_call" && e.actor === actor && e.call_index === callIndex)?.t ?? null;

async function optimizerRun(
  cfg: Partial<RunConfigInput> & { agent?: RunConfigInput["agent"] },
  proposer: (b: RequestBody, n: number) => ScriptedReply,
  o: Partial<RunOptions> = {},
) {
  const server = await startOpenAITestServer();
  const agent = agentResponder();
  let asked = 0;
  const proposerBodies: RequestBody[] = [];
  server.respond((b, i) => {
    if (!isProposer(b)) return agent(b, i);
    proposerBodies.push(b);
    return proposer(b, asked++);
  });
  const rec = recording();
  try {
    const out = await runFromConfig(
      parseRunConfig({
        task: "daily-digest",
        ...WINDOW,
        feedback: "oracle",
        ...cfg,
        agent: { model: TEST_MODEL, trigger: "sleep", ...(cfg.agent ?? {}) },
      }),
      { ...llmOptions(server), onModelRequest: rec.onModelRequest, ...o },
    );
    const events = readLedger(join(out.runDir, "ledger.jsonl")) as LedgerEvent[];
    return { ...out, events, seen: rec.seen, proposerBodies };
  } finally {
    await server.close();
  }
}

/** which agent requests, by span, carried `text` in their system prompt */
function carried(run: Awaited<ReturnType<typeof optimizerRun>>, text: string) {
  const spans = [0, 0, 0].map(() => ({ with: 0, without: 0 }));
  for (const x of run.seen) {
    if (x.actor !== "agent") continue;
    const t = timeOfCall(run.events, x.actor, x.callIndex);
    if (t === null) continue;
    const span = t < CUT1 ? 0 : t < CUT2 ? 1 : 2;
    if (x.system.includes(text)) spans[span]!.with++;
    else spans[span]!.without++;
  }
  return spans;
}

const LEARN = { method: "optimizer" as const, span_days: 2 };

describe("the promotion rule (predeclared)", () => {
  it("keeps a candidate not worse than the incumbent, reverts a worse or unscorable one, in the metric's direction", () => {
    expect(promote("not-worse", "higher", 0.5, 0.5).keep).toBe(true);
    expect(promote("better", "higher", 0.5, 0.5).keep).toBe(false);
    expect(promote("not-worse", "higher", 0.4, 0.5).keep).toBe(false);
    expect(promote("not-worse", "lower", 0.4, 0.5).keep).toBe(true);
    expect(promote("not-worse", "higher", null, 0.5).keep).toBe(false);
    expect(promote("not-worse", "higher", 0.1, null).keep).toBe(true);
  });
});

describe("harness optimizer end to end (loopback model)", () => {
  it("revert path: a harmful addendum runs in span 2, scores worse, is reverted; span 3 runs without it; a bad proposal is refused first", async () => {
    const run = await optimizerRun({ agent: { learning: LEARN } }, (_b, n) => {
      if (n === 0) return propose({ rationale: "tune", tuned: { digest_size: 5 } }); // refused: no tunable params
      if (n === 1) return propose({ rationale: "skip", addendum: `${SKIP}: do not deliver digests.` });
      return propose({ rationale: "keep as is" }); // cut 2: changes nothing
    });
    // span 1 without the addendum, span 2 with it, span 3 without it again (reverted)
    const c = carried(run, SKIP);
    expect(c[0]).toMatchObject({ with: 0 });
    expect(c[0]!.without).toBeGreaterThan(0);
    expect(c[1]!.with).toBeGreaterThan(0);
    expect(c[1]!.without).toBe(0);
    expect(c[2]).toMatchObject({ with: 0 });
    expect(c[2]!.without).toBeGreaterThan(0);
    const opt = run.results.optimizer!;
    expect(opt.spans.map((s) => [s.harness, s.decision])).toEqual([
      ["incumbent", null],
      ["candidate", "reverted"],
      ["incumbent", null],
    ]);
    expect(opt.spans[1]!.score).toBeLessThan(opt.spans[0]!.score!);
    expect(opt.proposals_rejected).toBe(1);
    const rejected = run.events.find((e) => e.type === "note" && e.kind === "optimizer_rejected");
    expect(rejected).toMatchObject({ message: expect.stringMatching(/tuned: this run has no tunable task params/) });
    // the proposer's spend is ledgered as its own actor and counted in the run's spend
    const calls = run.events.filter((e) => e.type === "llm_call" && e.actor === PROPOSER_ACTOR);
    expect(calls.length).toBe(3);
    expect(opt.proposer_usd).toBeGreaterThan(0);
    const agentUsd = run.events
      .filter((e) => e.type === "llm_call" && e.actor !== PROPOSER_ACTOR)
      .reduce((s, e) => s + (e.type === "llm_call" ? e.cost_usd : 0), 0);
    expect(run.results.resources.llm_usd).toBeCloseTo(agentUsd + opt.proposer_usd, 10);

    // isolation: each cut's proposer input names exactly the outcomes released by then (never a later one)
    const outcomes = run.events.filter((e) => e.type === "outcome");
    const cuts = [CUT1, CUT1, CUT2];
    run.proposerBodies.forEach((b, i) => {
      const input = msgs(b).find((m) => m.role === "user")?.content ?? "";
      for (const o of outcomes) {
        const shown = input.includes(JSON.stringify(o.key));
        expect(shown, `${o.key} released ${isoInstant(releasedAtOf(o))}, cut ${isoInstant(cuts[i]!)}`).toBe(
          releasedAtOf(o) <= cuts[i]!,
        );
      }
    });
  }, 900_000);

  it("keep path: removing a harmful configured addendum scores better and is kept; the control arm makes no edit", async () => {
    const cfg = { agent: { learning: LEARN, instruction_addendum: `${SKIP}: do not deliver digests.` } };
    const run = await optimizerRun(cfg, () => propose({ rationale: "deliver again", addendum: "" }));
    const c = carried(run, SKIP);
    expect(c[0]!.with).toBeGreaterThan(0);
    expect(c[1]).toMatchObject({ with: 0 });
    expect(c[2]).toMatchObject({ with: 0 });
    const opt = run.results.optimizer!;
    expect(opt.spans.map((s) => [s.harness, s.decision])).toEqual([
      ["incumbent", null],
      ["candidate", "kept"],
      // cut 2's proposal (the same empty addendum) changes nothing: the incumbent runs
      ["incumbent", null],
    ]);
    expect(opt.kept).toBe(1);

    const control = await optimizerRun({ agent: { ...cfg.agent, learning: { ...LEARN, control: true } } }, () => {
      throw new Error("the control arm must not call the proposer");
    });
    expect(control.proposerBodies.length).toBe(0);
    expect(control.results.optimizer!.spans.map((s) => s.harness)).toEqual(["control", "control", "control"]);
    expect(control.results.optimizer!.proposer_usd).toBe(0);
    const cc = carried(control, SKIP);
    expect(cc.every((s) => s.without === 0 && s.with > 0)).toBe(true);
    // the control arm's span scores are the same spans' scores of the unedited harness
    expect(control.results.optimizer!.spans[0]!.score).toBe(opt.spans[0]!.score);
  }, 900_000);

  it("replays deterministically: the same config and cassette give identical ledgers and results", async () => {
    const live = await optimizerRun({ agent: { learning: LEARN } }, (_b, n) =>
      n === 0
        ? propose({ rationale: "note", addendum: "Deliver the digest early in the window." })
        : propose({ rationale: "same" }),
    );
    const cassette = `cassette:${join(live.runDir, "llm.jsonl")}`;
    const cfg = parseRunConfig({
      task: "daily-digest",
      ...WINDOW,
      feedback: "oracle",
      agent: { model: cassette, trigger: "sleep", learning: { ...LEARN, proposer: cassette } },
    });
    const a = await runFromConfig(cfg, options());
    const b = await runFromConfig(cfg, options());
    expect(read(a.runDir, "ledger.jsonl")).toBe(read(b.runDir, "ledger.jsonl"));
    expect(read(a.runDir, "results.json")).toBe(read(b.runDir, "results.json"));
    expect(a.results.optimizer!.spans).toEqual(live.results.optimizer!.spans);
    expect(a.results.performance.primary.value).toBe(live.results.performance.primary.value);
    // a pause at a cut and a restart from it (the checkpoint the next span starts from) gives the continuous run
    const mask = (t: string) => t.replace(/"run_id": ?"[0-9a-f]{12}"/g, '"run_id":"<masked>"');
    const paused = await runFromConfig(cfg, { ...options(), stopAfterDay: 2 });
    const restarted = await restartRun(paused.runDir, { fromDay: 3 }, options());
    expect(mask(read(restarted.runDir, "ledger.jsonl"))).toBe(mask(read(a.runDir, "ledger.jsonl")));
    expect(mask(read(restarted.runDir, "results.json"))).toBe(mask(read(a.runDir, "results.json")));
  }, 900_000);

  it("is refused at config time under feedback: none", async () => {
    await expect(
      runFromConfig(
        parseRunConfig({ task: "daily-digest", ...WINDOW, agent: { model: TEST_MODEL, learning: LEARN } }),
        { ...options(), env: { OPENAI_API_KEY: "k", OPENAI_BASE_URL: "http://127.0.0.1:9" }, preflight: false },
      ),
    ).rejects.toThrow(/agent\.learning: the harness optimizer learns from settled outcomes.*feedback: none/);
  });
});

describe("the watcher program surface (watcher trigger)", () => {
  it("the proposer rewrites the program the agent runs: the next span's wakes come from the edited program", async () => {
    const original = "await envkit.wait(envkit.deadline());\n";
    const edited =
      "const t = envkit.now() + 6 * 3600000;\n" +
      "if (t < envkit.deadline()) { await envkit.wait(t); envkit.handover({ edited: true }); }\n" +
      "else await envkit.wait(envkit.deadline());\n";
    const server = await startOpenAITestServer();
    const play = policyResponder(topCommentsScript(), "watcher", {
      watcherProgram: { path: "wait.js", source: original },
    });
    const shown: string[] = [];
    server.respond((b, i) => {
      if (!isProposer(b)) return play(b, i);
      shown.push(msgs(b).find((m) => m.role === "user")?.content ?? "");
      return propose({ rationale: "check every 6 hours", watcher_program: { path: "wait.js", source: edited } });
    });
    try {
      const out = await runFromConfig(
        parseRunConfig({
          task: "daily-digest",
          sim_start: WINDOW.sim_start,
          sim_end: "2026-03-05T00:00:00Z",
          feedback: "oracle",
          agent: { model: TEST_MODEL, trigger: "watcher", learning: LEARN },
        }),
        llmOptions(server),
      );
      const events = readLedger(join(out.runDir, "ledger.jsonl")) as LedgerEvent[];
      // the proposer saw the program the agent ran, with its source
      expect(shown[0]).toContain("### wait.js\nawait envkit.wait(envkit.deadline());");
      const handovers = events.flatMap((e) => (e.type === "wake" && e.reason === "handover" ? [e.t] : []));
      expect(handovers.length).toBeGreaterThan(0);
      expect(handovers.every((t) => t > CUT1)).toBe(true);
      expect(read(out.runDir, "workspace/wait.js")).toBe(edited);
      expect(out.results.optimizer!.spans[1]).toMatchObject({ harness: "candidate", changes: ["program wait.js"] });
    } finally {
      await server.close();
    }
  }, 900_000);
});

describe("optimizer config checks", () => {
  const resolveWith = async (cfg: Partial<RunConfigInput>) =>
    runFromConfig(parseRunConfig({ task: "daily-digest", ...WINDOW, feedback: "oracle", ...cfg }), {
      ...options(),
      env: { OPENAI_API_KEY: "k", OPENAI_BASE_URL: "http://127.0.0.1:9" },
      preflight: false,
    });
  it("names what is wrong: a scripted agent, a span as long as the episode, an unpriced curator model, an unknown method or key", async () => {
    await expect(resolveWith({ agent: { model: "scripted:top-comments", learning: LEARN } })).rejects.toThrow(
      /the harness optimizer edits an LLM agent's harness/,
    );
    await expect(resolveWith({ agent: { model: TEST_MODEL, learning: { ...LEARN, span_days: 6 } } })).rejects.toThrow(
      /agent\.learning\.span_days: 6 leaves no cut in an episode of 6 days/,
    );
    await expect(
      resolveWith({ agent: { model: TEST_MODEL, learning: { ...LEARN, surface: ["tunable"] } } }),
    ).rejects.toThrow(/agent\.learning\.surface: task daily-digest declares no tunable params/);
    await expect(
      resolveWith({ agent: { model: TEST_MODEL, learning: LEARN, curator: { model: "openai:no-such-model" } } }),
    ).rejects.toThrow(/agent\.curator\.model: .*no-such-model/);
    expect(() =>
      parseRunConfig({ task: "daily-digest", agent: { learning: { method: "optimiser", span_days: 2 } } }),
    ).toThrow(/agent\.learning\.method/);
    expect(() =>
      parseRunConfig({ task: "daily-digest", agent: { learning: { method: "optimizer", span_day: 2 } } }),
    ).toThrow(/agent\.learning: Unrecognized key: "span_day"/);
  });
});
