/**
 * `relive judge`: a model judge rules on free-text answers of a finished open-forecast run that
 * exact and normalized matching leave unsettled; its verdicts go to the run's judge cache and the
 * rescore reads them. The agent and the judge both talk to loopback OpenAI test servers.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadPriceTable } from "../../src/models/price-table.js";
import { createModel } from "../../src/models/resolve-model.js";
import { judgeRun } from "../../src/run/judge-run.js";
import { judgePrompt, modelAnswerJudge } from "../../src/run/model-judge.js";
import { rescoreRun } from "../../src/run/rescore.js";
import { runWithServer, TEST_MODEL } from "../agent/support/llm-run.js";
import { type OpenAITestServer, startOpenAITestServer } from "../support/openai-test-server.js";
import { options, run } from "./helpers.js";

const WINDOW = { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-04T00:00:00Z" };
const prices = loadPriceTable();

describe("relive judge (open-forecast answer judge)", () => {
  let judgeServer: OpenAITestServer;
  let question: string;
  /** the day-0 question's answer ("Yes" or "No") and a free-text way of saying it */
  let answer: string;
  let paraphrase: string;
  let runsDir: string;
  const cachePath = join(mkdtempSync(join(tmpdir(), "relive-judge-run-")), "verdicts.json");

  /** An agent that forecasts `label` at 0.9 for the question on its first wake, then sleeps day by day. */
  const forecastRun = (label: string, params: Record<string, unknown>) =>
    runWithServer(
      { task: "open-forecast", ...WINDOW, task_params: params, agent: { trigger: "sleep" } },
      (_body, i) =>
        i === 0
          ? {
              kind: "tool_calls",
              calls: [{ name: "submit_forecasts", arguments: { question_id: question, outcomes: { [label]: 0.9 } } }],
            }
          : { kind: "tool_calls", calls: [{ name: "next_day", arguments: {} }] },
      { ...options(runsDir) },
    );
  const judgeOf = () =>
    modelAnswerJudge(
      createModel(TEST_MODEL, { prices, env: { OPENAI_BASE_URL: judgeServer.url, OPENAI_API_KEY: "k" } }),
      { prices, retry: { baseDelayMs: 1, maxDelayMs: 2 } },
    );

  beforeAll(async () => {
    judgeServer = await startOpenAITestServer();
    runsDir = options().runsDir;
    // a question open on day 0 with a Yes/No answer, from the oracle run's outcomes
    const oracle = await run({ task: "open-forecast", ...WINDOW, agent: { model: "scripted:oracle" } });
    const q = oracle.results.outcomes.find(
      (o) => (o.detail.answer === "Yes" || o.detail.answer === "No") && o.detail.first_day === "2026-03-01",
    );
    question = q!.detail.question as string;
    answer = q!.detail.answer as string;
    paraphrase = answer === "Yes" ? "It will happen" : "It will not happen";
  }, 900_000);
  afterAll(() => judgeServer?.close());

  it("rules on the unsettled pair once, and the rescore scores it as the named truth", async () => {
    const free = await forecastRun(paraphrase, { judge_cache: cachePath });
    expect(free.results.performance).toMatchObject({ judge_pending: 1, judge_matches: 0 });
    const named = await forecastRun(answer, {});

    judgeServer.respond(() => ({ kind: "tool_calls", calls: [{ name: "verdict", arguments: { equivalent: true } }] }));
    const judge = judgeOf();
    const out = await judgeRun(free.runDir, judge, options(runsDir));
    expect(out).toEqual({ cache: cachePath, pending: 1, judged: 1 });
    expect(judgeServer.requests).toHaveLength(1);
    const prompt = judgeServer.requests[0]!.body.messages.at(-1).content as string;
    expect(prompt).toContain(`Reference answer: ${answer}\nCandidate answer: ${paraphrase}`);
    expect(judge.spentUsd()).toBeGreaterThan(0);
    const file = JSON.parse(readFileSync(cachePath, "utf8"));
    expect(Object.values(file.entries)).toEqual([{ equivalent: true, judge: TEST_MODEL }]);

    // the rescore reads the verdict: the run now scores exactly like the one that named the answer
    const { results } = await rescoreRun(free.runDir, options(runsDir));
    expect(results.performance).toMatchObject({ judge_pending: 0, judge_matches: 1 });
    const { judge_pending: _p, judge_matches: _m, ...rest } = results.performance;
    const { judge_pending: _q, judge_matches: _n, ...namedRest } = named.results.performance;
    expect(rest).toEqual(namedRest);

    // a second call finds every pair ruled on and never calls the model
    expect(await judgeRun(free.runDir, judgeOf(), options(runsDir))).toMatchObject({ pending: 0, judged: 0 });
    expect(judgeServer.requests).toHaveLength(1);
  }, 900_000);

  it("a judge that never gives a valid verdict fails the batch and caches nothing", async () => {
    const other = join(mkdtempSync(join(tmpdir(), "relive-judge-bad-")), "verdicts.json");
    const free = await forecastRun("Surely", { judge_cache: other });
    judgeServer.respond((_b, i) =>
      i % 2 === 0
        ? { kind: "text", content: "They look the same to me." }
        : { kind: "tool_calls", calls: [{ name: "verdict", arguments: { equivalent: "yes" } }] },
    );
    const before = judgeServer.requests.length;
    await expect(judgeRun(free.runDir, judgeOf(), options(runsDir))).rejects.toThrow(
      /gave no valid verdict for question .* in 3 replies/,
    );
    expect(judgeServer.requests.length - before).toBe(3);
    expect(existsSync(other)).toBe(false);
  }, 900_000);

  it("refuses runs it cannot judge, saying what to do", async () => {
    const plain = await forecastRun("Surely not", {});
    await expect(judgeRun(plain.runDir, judgeOf(), options(runsDir))).rejects.toThrow(
      /task_params.judge_cache is unset. Run the episode again with -p judge_cache=<file>/,
    );
    const digest = await run({ task: "daily-digest", ...WINDOW }, options(runsDir));
    await expect(judgeRun(digest.runDir, judgeOf(), options(runsDir))).rejects.toThrow(
      /is a daily-digest run: only open-forecast has free-text answers/,
    );
  }, 900_000);

  it("states the pair in the prompt", () => {
    expect(
      judgePrompt({ question: { id: "q", title: "Who wins?", criteria: "The winner." }, truth: "A", answer: "B" }),
    ).toBe("Question: Who wins?\nResolution criteria: The winner.\nReference answer: A\nCandidate answer: B");
  });
});
