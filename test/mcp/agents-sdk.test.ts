import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { isoInstant } from "../../src/common/time.js";
import type { LedgerEvent } from "../../src/ledger/events.js";
import { readLedger } from "../../src/ledger/ledger-reader.js";
import { isolationUnavailable } from "../../src/mcp/isolated-child.js";
import { loadPriceTable } from "../../src/models/price-table.js";
import { type AgentCommandOutcome, agentCommandFromFlags } from "../../src/run/agent-command-run.js";
import { parseRunConfig } from "../../src/run/config.js";
import { type RunOutcome, runFromConfig } from "../../src/run/runner.js";
import { llmOptions, TEST_MODEL } from "../agent/support/llm-run.js";
import { options, REPO } from "../run/helpers.js";
import { type RecordedRequest, type ScriptedReply, startOpenAITestServer } from "../support/openai-test-server.js";
import { DIGEST_3D } from "./support.js";

/**
 * A stranger's agent framework as the actor: an app on the OpenAI Agents SDK (its own agent loop,
 * MCP client and chat-completions model; test/mcp/fixtures/agents-sdk-app.mjs) plays a 3-day
 * daily-digest episode through `relive run --agent-cmd`, its model traffic going through the
 * metering proxy to a loopback model server that plays fixed replies. relive's own ReAct agent
 * then replays the same replies in process. Everything the simulation sees must be equal; only
 * the bill may differ (the two apps send different prompts), and the app's bill must be exactly
 * the price table applied to the usage the loopback server reported for the app's requests.
 */

const APP = join(REPO, "test/mcp/fixtures/agents-sdk-app.mjs");
const ISOLATION = isolationUnavailable();
const DAY_MS = 86_400_000;

type Call = { name: string; arguments: Record<string, unknown> };

/**
 * The fixed replies: the calls of relive's scripted `top-comments` policy on the same config (read
 * from its ledger: each day at 12:30 UTC digest_status, list_posts by comments, digest of the top
 * ids), with what an LLM would add: a digest_status at the start, a digest with bad arguments (a
 * free rejection) on the first day, a sleep to each day's 12:30 and a last sleep past the episode's
 * end. The app's loop then asks its model once more: the run is over, so the metering proxy answers
 * that request itself (a closing final answer, unbilled), and the model server is not asked.
 */
function fixedReplies(scripted: LedgerEvent[]): { calls: Call[]; replies: ScriptedReply[] } {
  const days = new Map<number, Call[]>();
  for (const e of scripted)
    if (e.type === "tool_call") {
      const day = days.get(e.t) ?? [];
      day.push({ name: e.tool, arguments: e.args as Record<string, unknown> });
      days.set(e.t, day);
    }
  const calls: Call[] = [{ name: "digest_status", arguments: {} }];
  for (const [t, day] of days) {
    calls.push({ name: "sleep", arguments: { until: isoInstant(t) } });
    if (calls.length === 2) calls.push({ name: "digest", arguments: { root_ids: "not a list" } });
    calls.push(...day);
  }
  calls.push({ name: "sleep", arguments: { until: isoInstant(Math.max(...days.keys()) + DAY_MS) } });
  return { calls, replies: calls.map((c): ScriptedReply => ({ kind: "tool_calls", calls: [c] })) };
}

/** What the simulation saw of an actor: its tool calls, each with its outcome and cost. */
const toolCalls = (ev: LedgerEvent[]) =>
  ev.flatMap((e) =>
    e.type === "tool_call"
      ? [
          {
            t: e.t,
            tool: e.tool,
            args: e.args,
            status: e.status,
            error: e.error,
            cost: e.cost_usd,
            hash: e.result_hash,
          },
        ]
      : [],
  );
const commitments = (ev: LedgerEvent[]) =>
  ev.flatMap((e) => {
    if (e.type !== "commitment") return [];
    const { seq: _seq, ...rest } = e;
    return [rest];
  });

/**
 * The tool results a request carried, by call id: a chat request's tool messages, or a Responses
 * request's `function_call_output` items (their text items joined).
 */
function toolResultsSent(req: RecordedRequest): Map<string, string> {
  const out = new Map<string, string>();
  const text = (o: unknown) =>
    typeof o === "string" ? o : Array.isArray(o) ? o.map((i: { text?: string }) => i.text ?? "").join("") : "";
  for (const m of (req.body.messages ?? []) as { role: string; tool_call_id?: string; content?: unknown }[])
    if (m.role === "tool" && typeof m.tool_call_id === "string") out.set(m.tool_call_id, text(m.content));
  for (const m of (Array.isArray(req.body.input) ? req.body.input : []) as {
    type?: string;
    call_id?: string;
    output?: unknown;
  }[])
    if (m.type === "function_call_output" && typeof m.call_id === "string") out.set(m.call_id, text(m.output));
  return out;
}

const APIS = ["chat_completions", "responses"] as const;
type Api = (typeof APIS)[number];

let calls: Call[];
type AppRun = { out: AgentCommandOutcome; requests: RecordedRequest[]; events: LedgerEvent[]; output: string };
const apps = new Map<Api, AppRun>();
let relive: { out: RunOutcome; requests: RecordedRequest[]; events: LedgerEvent[] };

/** The app under `relive run --agent-cmd` (in a network namespace where the machine allows it) on one API. */
async function runApp(api: Api, replies: ScriptedReply[]): Promise<AppRun> {
  const server = await startOpenAITestServer();
  server.enqueue(...replies, { kind: "text", content: "never asked for" });
  let output = "";
  try {
    const out = await agentCommandFromFlags(
      { ...DIGEST_3D, agent: { model: TEST_MODEL } },
      { agentCmd: `AGENTS_API=${api} node ${APP}`, agentName: "openai-agents", isolation: ISOLATION === null },
      {
        ...options(mkdtempSync(join(tmpdir(), "relive-agents-sdk-"))),
        // the metering proxy's upstream: the loopback model server
        env: { ...process.env, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "test-key" },
        source: "test",
        onOutput: (c) => {
          output += c;
        },
      },
    ).catch((err) => {
      throw new Error(`${(err as Error).message}\n--- app output ---\n${output}`);
    });
    return { out, requests: server.requests, events: readLedger(join(out.runDir, "ledger.jsonl")), output };
  } finally {
    await server.close();
  }
}

beforeAll(async () => {
  const scripted = await runFromConfig(
    parseRunConfig({ ...DIGEST_3D, agent: { model: "scripted:top-comments" } }),
    options(),
  );
  const fixed = fixedReplies(readLedger(join(scripted.runDir, "ledger.jsonl")));
  calls = fixed.calls;
  for (const api of APIS) apps.set(api, await runApp(api, fixed.replies));

  // relive's own ReAct agent, in process, replaying the same replies
  const reliveServer = await startOpenAITestServer();
  reliveServer.respond((_body, i) => {
    const r = fixed.replies[i];
    if (r === undefined) throw new Error(`relive's agent asked for reply ${i}: the fixed replies are spent`);
    return r;
  });
  try {
    const out = await runFromConfig(
      parseRunConfig({ ...DIGEST_3D, agent: { model: TEST_MODEL } }),
      llmOptions(reliveServer),
    );
    relive = { out, requests: reliveServer.requests, events: readLedger(join(out.runDir, "ledger.jsonl")) };
  } finally {
    await reliveServer.close();
  }
}, 900_000);

describe.each(APIS)("an OpenAI Agents SDK app under relive run --agent-cmd (%s API)", (api) => {
  let app: AppRun;
  beforeAll(() => {
    app = apps.get(api) as AppRun;
  });

  it("plays the episode with its own loop and MCP client, and ends by itself", () => {
    expect(app.out.exitCode, app.output).toBe(0);
    // and printed nothing: no SDK warning (MCP session cleanup, trace export, retries)
    expect(app.output).toBe("");
    expect(app.out.results.harness).toBe("external:openai-agents");
    expect(app.out.results.flags.external_no_isolation).toBe(ISOLATION !== null);
    // its last turn, after the run was over, was answered by the metering proxy itself
    expect(readFileSync(join(app.out.runDir, "workspace", "final.txt"), "utf8")).toMatch(
      /^relive: the run has ended \(the episode is over\)\. This reply is the metering proxy's, not the model's/,
    );
    // every fixed reply was asked for, by both agents, and nothing more
    expect(app.requests).toHaveLength(calls.length);
    expect(relive.requests).toHaveLength(calls.length);
    // the app's model got relive's tools under their own names
    const tools = (app.requests[0]!.body.tools as { name?: string; function?: { name: string } }[]).map(
      (t) => t.function?.name ?? t.name,
    );
    expect(tools).toEqual(expect.arrayContaining(["digest_status", "list_posts", "digest", "sleep", "finish"]));
    // every request went to the endpoint of the API the app speaks
    const key = api === "responses" ? "input" : "messages";
    expect(app.requests.every((r) => Array.isArray(r.body[key]))).toBe(true);
  });

  it("its tool calls, commitments, outcomes and score equal those of relive's agent replaying the same replies", () => {
    const a = toolCalls(app.events);
    expect(a.map((c) => [c.tool, c.args])).toEqual(calls.map((c) => [c.name, c.arguments]));
    expect(a).toEqual(toolCalls(relive.events));
    // the bad call was a free rejection for both
    expect(a[2]).toMatchObject({ tool: "digest", status: "rejected", cost: 0 });
    expect(a.filter((c) => c.tool === "digest" && c.status === "ok")).toHaveLength(3);
    expect(commitments(app.events)).toEqual(commitments(relive.events));
    expect(commitments(app.events)).toHaveLength(3);
    expect(app.out.results.outcomes).toEqual(relive.out.results.outcomes);
    expect(app.out.results.outcomes.map((o) => o.status)).toEqual(["delivered", "delivered"]);
    expect(app.out.results.performance.primary).toEqual(relive.out.results.performance.primary);
  });

  it("its model saw each tool's in-process text, then the clock on a line of its own", () => {
    // the app's own record of the tool results (its last one came after the run was over, so no
    // model request carried it), joined as its chat-completions model joins them for the model
    const history = JSON.parse(readFileSync(join(app.out.runDir, "workspace", "history.json"), "utf8")) as {
      type: string;
      callId?: string;
      output?: string | { type: string; text: string }[];
    }[];
    const results = new Map(
      history.flatMap((h) =>
        h.type === "function_call_result" && h.callId !== undefined && h.output !== undefined
          ? [[h.callId, typeof h.output === "string" ? h.output : h.output.map((o) => o.text).join("")] as const]
          : [],
      ),
    );
    expect(results.size).toBe(calls.length);
    const sent = toolResultsSent(app.requests.at(-1)!);
    expect(sent.size).toBe(calls.length - 1);
    for (const [id, text] of sent) expect(results.get(id)).toBe(text);
    const reliveSaw = toolResultsSent(relive.requests.at(-1)!);
    const clocks = calls.map((c, i) => {
      const id = `call_${i}_0`;
      const seen = results.get(id) ?? "";
      const nl = seen.indexOf("\n");
      expect(nl, `tool result of call ${i} (${c.name}): ${seen}`).toBeGreaterThan(0);
      // relive's agent got the same tool text (its clock reaches it as a wake message instead)
      if (c.name !== "sleep") expect(seen.slice(0, nl), `call ${i} (${c.name})`).toBe(reliveSaw.get(id));
      return seen.slice(nl + 1);
    });
    expect(clocks[0]).toBe("now: 2026-03-01T00:00:00.000Z");
    expect(clocks[1]!.split("\n")[0]).toBe("(woke at 2026-03-01T12:30:00.000Z for sleep)");
    expect(clocks[2]).toBe("now: 2026-03-01T12:30:00.000Z");
    expect(clocks.at(-1)).toMatch(/^\(the run ended at 2026-03-04T00:00:00\.000Z: the episode is over; /);
  });

  it("its bill is exactly the price table applied to the usage the model server reported for its requests", () => {
    const llm = app.events.flatMap((e) => (e.type === "llm_call" ? [e] : []));
    const prices = loadPriceTable();
    expect(llm).toHaveLength(app.requests.length);
    llm.forEach((e, i) => {
      const u = app.requests[i]!.usage!;
      const usage = {
        input_tokens: u.prompt_tokens,
        cached_input_tokens: u.prompt_tokens_details?.cached_tokens ?? 0,
        output_tokens: u.completion_tokens,
      };
      expect(e).toMatchObject({ model: TEST_MODEL, call_index: i, status: "ok", ...usage });
      expect(e.cost_usd).toBe(prices.cost(TEST_MODEL, usage));
    });
    expect(app.out.results.resources.llm_calls).toBe(llm.length);
    expect(app.out.results.resources.llm_usd).toBeCloseTo(
      llm.reduce((s, e) => s + e.cost_usd, 0),
      12,
    );
  });
});
