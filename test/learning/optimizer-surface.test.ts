/**
 * The editable harness beyond the addendum (issue 13 §5, §3), end to end on open-forecast (its
 * `list_page_size` is tunable) against the loopback OpenAI test server:
 * - the optimizer's proposer, a model other than the run's, tunes `list_page_size`: the next span's
 *   list_questions pages change, and the proposer's calls are billed at its own model's prices;
 * - the reflection curator with a model of its own (`agent.curator.model`), billed at its prices;
 * - `relive restart --from-day D --set agent.instruction_addendum=… --set task_params.list_page_size=…`
 *   switches both at the start of day D (and refuses params the task does not declare tunable).
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SET_LESSONS_TOOL } from "../../src/learning/curator.js";
import { PROPOSE_EDIT_TOOL } from "../../src/learning/harness-edit.js";
import type { LedgerEvent } from "../../src/ledger/events.js";
import { readLedger } from "../../src/ledger/ledger-reader.js";
import { DEFAULT_PRICES_PATH, loadPriceTable } from "../../src/models/price-table.js";
import { parseRunConfig, type RunConfigInput } from "../../src/run/config.js";
import { restartRun } from "../../src/run/restart.js";
import { type RunOptions, resumeRun, runFromConfig } from "../../src/run/runner.js";
import { llmOptions, TEST_MODEL } from "../agent/support/llm-run.js";
import type { RequestBody, ScriptedReply } from "../support/openai-test-server.js";
import { type OpenAITestServer, startOpenAITestServer } from "../support/openai-test-server.js";

const WINDOW = { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-05T00:00:00Z" };
const CUT = Date.parse("2026-03-03T00:00:00Z");
const OTHER_MODEL = "openai:gpt-4.1";

const toolNames = (b: RequestBody) => ((b.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
type Msg = {
  role: string;
  content?: string | null;
  tool_call_id?: string;
  tool_calls?: { id: string; function: { name: string } }[];
};

/** the agent: list every question, then next_day, every day */
const agent = (b: RequestBody): ScriptedReply => {
  const last = (b.messages as Msg[]).at(-1)!;
  return last.role === "user"
    ? { kind: "tool_calls", calls: [{ name: "list_questions", arguments: { status: "all" } }] }
    : { kind: "tool_calls", calls: [{ name: "next_day", arguments: {} }] };
};

/** every list_questions result the agent was shown, as (now, page length, total) */
function pages(requests: { body: RequestBody }[]) {
  const out = new Map<string, { n: number; total: number }>();
  for (const { body } of requests) {
    const names = new Map<string, string>();
    for (const m of body.messages as Msg[]) {
      for (const c of m.tool_calls ?? []) names.set(c.id, c.function.name);
      if (
        m.role === "tool" &&
        names.get(m.tool_call_id ?? "") === "list_questions" &&
        !m.content?.startsWith("ERROR")
      ) {
        const v = JSON.parse(m.content ?? "{}") as { now: string; total: number; questions: unknown[] };
        out.set(v.now, { n: v.questions.length, total: v.total });
      }
    }
  }
  return [...out.entries()].map(([now, x]) => ({ t: Date.parse(now), ...x }));
}

const systemOf = (b: RequestBody) => ((b.messages as Msg[]).find((m) => m.role === "system")?.content ?? "") as string;

async function withServer<T>(
  respond: (b: RequestBody) => ScriptedReply,
  f: (s: OpenAITestServer, o: RunOptions) => Promise<T>,
) {
  const server = await startOpenAITestServer();
  server.respond(respond);
  try {
    return await f(server, llmOptions(server));
  } finally {
    await server.close();
  }
}

const cfgOf = (agentCfg: RunConfigInput["agent"], extra: Partial<RunConfigInput> = {}) =>
  parseRunConfig({
    task: "open-forecast",
    ...WINDOW,
    feedback: "oracle",
    ...extra,
    agent: { model: TEST_MODEL, trigger: "sleep", ...agentCfg },
  });

const priced = (e: Extract<LedgerEvent, { type: "llm_call" }>, model: string) =>
  loadPriceTable(DEFAULT_PRICES_PATH).cost(model, {
    input_tokens: e.input_tokens,
    cached_input_tokens: e.cached_input_tokens,
    output_tokens: e.output_tokens,
  });

describe("tunable task params and harness-side models of their own", () => {
  it("the proposer (its own model, its own prices) tunes list_page_size: the next span's pages have the tuned size", async () => {
    const out = await withServer(
      (b) =>
        toolNames(b).includes(PROPOSE_EDIT_TOOL)
          ? {
              kind: "tool_calls",
              calls: [
                { name: PROPOSE_EDIT_TOOL, arguments: { rationale: "short pages", tuned: { list_page_size: 1 } } },
              ],
            }
          : agent(b),
      async (server, o) => {
        const r = await runFromConfig(
          cfgOf({ learning: { method: "optimizer", span_days: 2, proposer: OTHER_MODEL } }),
          o,
        );
        const requests = [...server.requests];
        // a resume re-runs the episode offline from llm.jsonl (both models' replies) to the same ledger
        const ledger = readFileSync(join(r.runDir, "ledger.jsonl"), "utf8");
        rmSync(join(r.runDir, "results.json"));
        await resumeRun(r.runDir, o);
        expect(server.requests.length).toBe(requests.length);
        expect(readFileSync(join(r.runDir, "ledger.jsonl"), "utf8")).toBe(ledger);
        return { ...r, requests };
      },
    );
    const ps = pages(out.requests);
    const before = ps.filter((p) => p.t < CUT);
    const after = ps.filter((p) => p.t >= CUT);
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);
    expect(before.every((p) => p.n === Math.min(p.total, 50))).toBe(true);
    expect(after.every((p) => p.n === 1 && p.total > 1)).toBe(true);
    // the agent is told what the harness set (its tool description keeps the configured size)
    const agentBodies = out.requests.map((q) => q.body).filter((b) => !toolNames(b).includes(PROPOSE_EDIT_TOOL));
    expect(agentBodies.some((b) => systemOf(b).includes("list_page_size = 1"))).toBe(true);
    const events = readLedger(join(out.runDir, "ledger.jsonl")) as LedgerEvent[];
    const proposer = events.flatMap((e) => (e.type === "llm_call" && e.actor === "proposer" ? [e] : []));
    expect(proposer.length).toBe(1);
    expect(proposer[0]!.model).toBe(OTHER_MODEL);
    expect(proposer[0]!.cost_usd).toBe(priced(proposer[0]!, OTHER_MODEL));
    expect(out.results.optimizer?.proposer).toBe(OTHER_MODEL);
    const config = JSON.parse(readFileSync(join(out.runDir, "config.json"), "utf8"));
    expect(config.resolved.aux_models.proposer).toMatchObject({ name: OTHER_MODEL, price_key: OTHER_MODEL });
  }, 900_000);

  it("the reflection curator with a model of its own is billed at that model's prices", async () => {
    const out = await withServer(
      (b) =>
        toolNames(b).includes(SET_LESSONS_TOOL)
          ? {
              kind: "tool_calls",
              calls: [{ name: SET_LESSONS_TOOL, arguments: { lessons: ["Check every question daily."] } }],
            }
          : agent(b),
      (_s, o) =>
        runFromConfig(cfgOf({ memory: "reflection", curator: { model: OTHER_MODEL } }, { feedback: "none" }), o),
    );
    const events = readLedger(join(out.runDir, "ledger.jsonl")) as LedgerEvent[];
    const curator = events.flatMap((e) => (e.type === "llm_call" && e.actor === "curator" ? [e] : []));
    expect(curator.length).toBeGreaterThan(0);
    for (const c of curator) {
      expect(c.model).toBe(OTHER_MODEL);
      expect(c.cost_usd).toBe(priced(c, OTHER_MODEL));
    }
    const all = events.reduce((s, e) => s + (e.type === "llm_call" ? e.cost_usd : 0), 0);
    expect(out.results.resources.llm_usd).toBeCloseTo(all, 10);
  }, 900_000);

  it("restart --set switches the addendum and a tunable param at the start of its day, and refuses other params", async () => {
    await withServer(agent, async (server, o) => {
      const paused = await runFromConfig(cfgOf({}, { feedback: "none" }), { ...o, stopAfterDay: 2 });
      await expect(restartRun(paused.runDir, { fromDay: 3, set: ["task_params.search_usd=0"] }, o)).rejects.toThrow(
        /--set task_params\.search_usd: cannot change at a restart; .*task_params\.list_page_size/,
      );
      await expect(restartRun(paused.runDir, { fromDay: 3, set: ["task_params.list_page_size=0"] }, o)).rejects.toThrow(
        /--set task_params\.list_page_size: .*1/,
      );
      const before = server.requests.length;
      const restarted = await restartRun(
        paused.runDir,
        {
          fromDay: 3,
          set: ["agent.instruction_addendum=ADD-X: check the oldest question first.", "task_params.list_page_size=2"],
        },
        o,
      );
      const live = server.requests.slice(before);
      expect(live.length).toBeGreaterThan(0);
      expect(live.every((q) => systemOf(q.body).includes("## Additional instructions\nADD-X"))).toBe(true);
      const after = pages(live).filter((p) => p.t >= CUT);
      expect(after.length).toBeGreaterThan(0);
      expect(after.every((p) => p.n === 2 && p.total > 2)).toBe(true);
      // the re-run part (before day 3) is the source's, byte for byte but for the run id
      const mask = (s: string) => s.replace(/"run_id":"[0-9a-f]{12}"/g, "");
      const src = readFileSync(join(paused.runDir, "ledger.jsonl"), "utf8").trimEnd().split("\n");
      const prefix = src.filter((l) => (JSON.parse(l) as { t: number }).t < CUT);
      expect(
        mask(readFileSync(join(restarted.runDir, "ledger.jsonl"), "utf8")).startsWith(mask(`${prefix.join("\n")}\n`)),
      ).toBe(true);
    });
  }, 900_000);
});
