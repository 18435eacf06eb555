import { readFileSync } from "node:fs";
import { join } from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import type { LedgerEvent } from "../../src/ledger/events.js";
import { readLedger } from "../../src/ledger/ledger-reader.js";
import { OutsideAgent } from "../../src/mcp/external-actor.js";
import { parseRunConfig } from "../../src/run/config.js";
import { runExternal, startMeteringProxy } from "../../src/run/external-run.js";
import type { RunOutcome } from "../../src/run/runner.js";
import { options } from "../run/helpers.js";
import { IMITATION_KEY, type ProviderImitation, startProviderImitation } from "./provider-imitation.js";
import { DIGEST_3D } from "./support.js";

interface Started {
  outside: OutsideAgent;
  proxy: NonNullable<Awaited<ReturnType<typeof startMeteringProxy>>>;
  running: Promise<RunOutcome>;
  /** ends the run (finish) and returns its ledger events and llm.jsonl lines */
  end(): Promise<{ events: LedgerEvent[]; log: Record<string, unknown>[]; out: RunOutcome }>;
}

let provider: ProviderImitation | null = null;
let started: Started | null = null;
afterEach(async () => {
  await started?.proxy.close();
  await provider?.close();
  started = null;
  provider = null;
});

async function start(upstream: string, extra: Record<string, unknown> = {}): Promise<Started> {
  provider = await startProviderImitation();
  const env = {
    OPENAI_BASE_URL: `${provider.url}/v1`,
    OPENAI_API_KEY: IMITATION_KEY,
    ANTHROPIC_BASE_URL: provider.url,
    ANTHROPIC_API_KEY: IMITATION_KEY,
  };
  const outside = new OutsideAgent({ idleTimeoutMs: 600_000 });
  let proxy: Started["proxy"] | null = null;
  const cfg = parseRunConfig({ ...DIGEST_3D, agent: { model: "external:test", upstream_model: upstream }, ...extra });
  const running = runExternal(cfg, {
    ...options(),
    env,
    externalActor: outside.actor,
    beforeRun: async (r) => {
      proxy = await startMeteringProxy(r, outside, { env });
    },
  });
  running.catch(() => {});
  await Promise.race([outside.ready, running]);
  const p = proxy as Started["proxy"] | null;
  if (!p) throw new Error("no proxy");
  started = {
    outside,
    proxy: p,
    running,
    end: async () => {
      const reply = outside.call("finish", { summary: "done" });
      const out = await running;
      outside.settle({ runDir: out.runDir, sim_end: Date.parse(out.results.sim_end) });
      await reply;
      const log = readFileSync(join(out.runDir, "llm.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      return { events: readLedger(join(out.runDir, "ledger.jsonl")), log, out };
    },
  };
  return started;
}

const llmCalls = (events: LedgerEvent[]) => events.filter((e) => e.type === "llm_call");

describe("metering proxy (OpenAI-compatible upstream)", () => {
  it("forwards chat completions with the run's model and key, bills exactly by the price table, logs every exchange", async () => {
    const s = await start("openai:gpt-4.1-mini");
    const client = new OpenAI({ baseURL: s.proxy.openaiBaseURL, apiKey: s.proxy.key, maxRetries: 0 });
    provider!.next.push(
      { usage: { input: 1000, cached: 400, output: 250 }, text: "hello" },
      { usage: { input: 2000, cached: 0, output: 100 }, text: "streamed" },
      { usage: { input: 300, cached: 100, output: 50 }, text: "responses" },
      { usage: { input: 500, cached: 0, output: 20 }, text: "rs" },
    );
    const a = await client.chat.completions.create({
      model: "whatever-the-app-says",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(a.choices[0]!.message.content).toBe("hello");
    expect(a.usage?.prompt_tokens).toBe(1000);

    // streaming: passed through; the usage chunk the app did not ask for is withheld from it
    const chunks = [];
    for await (const c of await client.chat.completions.create({
      model: "x",
      messages: [{ role: "user", content: "stream" }],
      stream: true,
    }))
      chunks.push(c);
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("")).toBe("streamed");
    expect(chunks.every((c) => c.choices.length === 1)).toBe(true);

    const r = await client.responses.create({ model: "x", input: "hi" });
    expect(r.output_text).toBe("responses");
    const events = [];
    for await (const e of await client.responses.create({ model: "x", input: "hi", stream: true })) events.push(e.type);
    expect(events).toEqual(["response.created", "response.output_text.delta", "response.completed"]);

    // upstream saw the run's model id and key, never the app's key; include_usage was added to the stream
    expect(provider!.requests.map((q) => [q.path, q.body.model])).toEqual([
      ["/v1/chat/completions", "gpt-4.1-mini"],
      ["/v1/chat/completions", "gpt-4.1-mini"],
      ["/v1/responses", "gpt-4.1-mini"],
      ["/v1/responses", "gpt-4.1-mini"],
    ]);
    expect(provider!.requests[1]!.body.stream_options).toEqual({ include_usage: true });
    expect(provider!.requests.every((q) => q.headers.authorization === `Bearer ${IMITATION_KEY}`)).toBe(true);

    const { events: ledger, log, out } = await s.end();
    // gpt-4.1-mini: $0.40 input, $0.10 cached, $1.60 output per million
    expect(
      llmCalls(ledger).map((e) => [e.call_index, e.input_tokens, e.cached_input_tokens, e.output_tokens, e.cost_usd]),
    ).toEqual([
      [0, 1000, 400, 250, (600 * 0.4 + 400 * 0.1 + 250 * 1.6) / 1e6],
      [1, 2000, 0, 100, (2000 * 0.4 + 100 * 1.6) / 1e6],
      [2, 300, 100, 50, (200 * 0.4 + 100 * 0.1 + 50 * 1.6) / 1e6],
      [3, 500, 0, 20, (500 * 0.4 + 20 * 1.6) / 1e6],
    ]);
    expect(llmCalls(ledger).every((e) => e.model === "openai:gpt-4.1-mini" && e.status === "ok")).toBe(true);
    expect(out.results.resources.llm_usd).toBeCloseTo((680 + 960 + 170 + 232) / 1e6, 12);
    expect(log.map((l) => [l.kind, l.call_index, l.endpoint, l.stream, l.requested_model])).toEqual([
      ["proxy_exchange", 0, "/v1/chat/completions", false, "whatever-the-app-says"],
      ["proxy_exchange", 1, "/v1/chat/completions", true, "x"],
      ["proxy_exchange", 2, "/v1/responses", false, "x"],
      ["proxy_exchange", 3, "/v1/responses", true, "x"],
    ]);
    expect((log[1]!.events as string[]).length).toBe(4); // two deltas, the usage chunk, [DONE]
    expect(JSON.stringify(log)).not.toContain(IMITATION_KEY);
    expect(JSON.stringify(log)).not.toContain(s.proxy.key);
  });

  it("refuses once the LLM cap is spent with OpenAI's insufficient_quota (ledgered once), and forwards upstream errors in their shape", async () => {
    const s = await start("openai:gpt-4.1-mini", { domain_budgets: { llm: 0.0005 } });
    const client = new OpenAI({ baseURL: s.proxy.openaiBaseURL, apiKey: s.proxy.key, maxRetries: 0 });
    provider!.next.push(
      { status: 400, message: "your request is odd" },
      { usage: { input: 1000, cached: 0, output: 100 } }, // $0.00056: past the $0.0005 cap
    );
    const bad = await client.chat.completions
      .create({ model: "x", messages: [{ role: "user", content: "a" }] })
      .catch((e) => e);
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError);
    expect(bad.status).toBe(400);
    expect(bad.error).toEqual({
      message: "your request is odd",
      type: "invalid_request_error",
      param: null,
      code: "bad_thing",
    });
    await client.chat.completions.create({ model: "x", messages: [{ role: "user", content: "b" }] });
    for (let i = 0; i < 2; i++) {
      const refused = await client.chat.completions
        .create({ model: "x", messages: [{ role: "user", content: "c" }] })
        .catch((e) => e);
      expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
      expect(refused.code).toBe("insufficient_quota");
      expect(refused.error.type).toBe("insufficient_quota");
      expect(refused.error.message).toMatch(
        /^relive: model call refused: llm budget exhausted: spent \$0\.0006 of \$0\.0005$/,
      );
    }
    // a wrong key is refused before anything is forwarded
    const wrong = new OpenAI({ baseURL: s.proxy.openaiBaseURL, apiKey: "sk-guess", maxRetries: 0 });
    expect(await wrong.models.list().catch((e) => e.status)).toBe(401);
    // an Anthropic request to an OpenAI-compatible run's proxy: a clear 400, nothing forwarded
    const anth = new Anthropic({ baseURL: s.proxy.anthropicBaseURL, apiKey: s.proxy.key, maxRetries: 0 });
    const wrongApi = await anth.messages
      .create({ model: "x", max_tokens: 5, messages: [{ role: "user", content: "a" }] })
      .catch((e) => e);
    expect(wrongApi.status).toBe(400);
    expect(wrongApi.error.error.message).toMatch(/speaks the OpenAI-compatible API/);
    expect(provider!.requests.length).toBe(2);

    const { events, out } = await s.end();
    expect(llmCalls(events).map((e) => [e.status, e.cost_usd, e.error ?? null])).toEqual([
      ["error", 0, "HTTP 400: your request is odd"],
      ["ok", (1000 * 0.4 + 100 * 1.6) / 1e6, null],
    ]);
    expect(events.filter((e) => e.type === "llm_rejected").length).toBe(1);
    expect(out.results.flags.llm_budget_exhausted).toBe(true);
  });
});

describe("metering proxy (Anthropic upstream)", () => {
  it("bills cache reads and writes as the in-process provider does, streams, and refuses with billing_error after the cap", async () => {
    const s = await start("anthropic:claude-haiku-4-5", { domain_budgets: { llm: 0.002 } });
    const client = new Anthropic({ baseURL: s.proxy.anthropicBaseURL, apiKey: s.proxy.key, maxRetries: 0 });
    provider!.next.push(
      { usage: { input: 1000, cached: 500, cacheWrite: 200, output: 100 }, text: "plain" },
      { status: 429, message: "slow down" },
      { usage: { input: 800, cached: 0, output: 40 }, text: "streamed" },
    );
    const a = await client.messages.create({
      model: "claude-x",
      max_tokens: 50,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(a.content).toEqual([{ type: "text", text: "plain" }]);
    const limited = await client.messages
      .create({ model: "c", max_tokens: 5, messages: [{ role: "user", content: "r" }] })
      .catch((e) => e);
    expect(limited.status).toBe(429);
    expect(limited.error).toEqual({ type: "error", error: { type: "rate_limit_error", message: "slow down" } });
    expect(limited.headers.get("retry-after")).toBe("7");
    const stream = client.messages.stream({
      model: "claude-x",
      max_tokens: 50,
      messages: [{ role: "user", content: "s" }],
    });
    const final = await stream.finalMessage();
    expect(final.content).toEqual([{ type: "text", text: "streamed" }]);
    expect(final.usage.output_tokens).toBe(40);
    expect(
      provider!.requests.every((q) => q.body.model === "claude-haiku-4-5" && q.headers["x-api-key"] === IMITATION_KEY),
    ).toBe(true);
    // $0.00105 + $0.0010 = $0.00205: past the $0.002 cap (the 429 attempt costs nothing)
    const refused = await client.messages
      .create({ model: "c", max_tokens: 5, messages: [{ role: "user", content: "r" }] })
      .catch((e) => e);
    expect(refused.status).toBe(402);
    expect(refused.error.error.type).toBe("billing_error");
    expect(provider!.requests.length).toBe(3);

    const { events } = await s.end();
    // claude-haiku-4-5: $1.00 input, $0.10 cached, $5.00 output per million; cache writes at the input rate
    expect(
      llmCalls(events).map((e) => [e.status, e.input_tokens, e.cached_input_tokens, e.output_tokens, e.cost_usd]),
    ).toEqual([
      ["ok", 1000, 500, 100, (500 * 1 + 500 * 0.1 + 100 * 5) / 1e6],
      ["error", 0, 0, 0, 0],
      ["ok", 800, 0, 40, (800 * 1 + 40 * 5) / 1e6],
    ]);
    expect(events.filter((e) => e.type === "llm_rejected").map((e) => e.type === "llm_rejected" && e.reason)).toEqual([
      "llm budget exhausted: spent $0.0020 of $0.002", // $0.00205 in binary floating point,
    ]);
  });
});

describe("metering proxy after the run is over", () => {
  // an agent framework asks its model once more after the call that ended the run (finish, or a clock
  // call past the episode's end): it gets a final answer in its own protocol, never an error, and
  // nothing is forwarded, billed or logged
  const ENDED =
    /^relive: the run has ended \(you called finish\)\. This reply is the metering proxy's, not the model's/;

  it("OpenAI-compatible: chat completions and Responses, plain and streamed, get a closing answer read by the official SDK", async () => {
    const s = await start("openai:gpt-4.1-mini");
    const client = new OpenAI({ baseURL: s.proxy.openaiBaseURL, apiKey: s.proxy.key, maxRetries: 0 });
    const msgs = [{ role: "user" as const, content: "one more turn" }];
    await client.chat.completions.create({ model: "x", messages: msgs }); // forwarded: the run is on
    const { events, log, out } = await s.end();
    const a = await client.chat.completions.create({ model: "x", messages: msgs });
    expect(a.choices[0]!.message.content).toMatch(ENDED);
    expect([a.choices[0]!.finish_reason, a.choices[0]!.message.tool_calls, a.usage?.total_tokens]).toEqual([
      "stop",
      undefined,
      0,
    ]);
    const chunks = [];
    for await (const c of await client.chat.completions.create({
      model: "x",
      messages: msgs,
      stream: true,
      stream_options: { include_usage: true },
    }))
      chunks.push(c);
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("")).toMatch(ENDED);
    expect(chunks.at(-1)?.usage?.total_tokens).toBe(0);
    const r = await client.responses.create({ model: "x", input: "one more turn" });
    expect(r.output_text).toMatch(ENDED);
    // the SDK's stream helper checks the event order (item added before its deltas, and so on)
    const final = await client.responses.stream({ model: "x", input: "one more turn" }).finalResponse();
    expect(final.output_text).toMatch(ENDED);
    expect(final.status).toBe("completed");
    expect(provider!.requests).toHaveLength(1);
    expect(llmCalls(events)).toHaveLength(1);
    expect(readLedger(join(out.runDir, "ledger.jsonl"))).toEqual(events);
    expect(readFileSync(join(out.runDir, "llm.jsonl"), "utf8").trim().split("\n")).toHaveLength(log.length);
  });

  it("Anthropic: messages, plain and streamed, get a closing answer read by the official SDK", async () => {
    const s = await start("anthropic:claude-haiku-4-5");
    const client = new Anthropic({ baseURL: s.proxy.anthropicBaseURL, apiKey: s.proxy.key, maxRetries: 0 });
    const req = { model: "c", max_tokens: 50, messages: [{ role: "user" as const, content: "one more turn" }] };
    await client.messages.create(req); // forwarded: the run is on
    const { events, out } = await s.end();
    const a = await client.messages.create(req);
    expect(a.content).toEqual([{ type: "text", text: expect.stringMatching(ENDED) }]);
    expect(a.stop_reason).toBe("end_turn");
    const final = await client.messages.stream(req).finalMessage();
    expect(final.content).toEqual([{ type: "text", text: expect.stringMatching(ENDED) }]);
    expect(final.usage.output_tokens).toBe(0);
    expect(provider!.requests).toHaveLength(1);
    expect(llmCalls(events)).toHaveLength(1);
    expect(readLedger(join(out.runDir, "ledger.jsonl"))).toEqual(events);
  });
});
