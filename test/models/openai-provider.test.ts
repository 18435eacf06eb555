import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { GenerateRequest } from "../../src/models/model.js";
import { ModelError } from "../../src/models/model.js";
import { OpenAICompatibleModel, resolveOpenAICompatibleEndpoint } from "../../src/models/openai-provider.js";
import { type OpenAITestServer, startOpenAITestServer } from "../support/openai-test-server.js";

const req = (over: Partial<GenerateRequest> = {}): GenerateRequest => ({
  system: "You are a test agent.",
  messages: [{ role: "user", content: "Find the news." }],
  tools: [
    {
      name: "search_news",
      description: "Search news",
      parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
    },
  ],
  settings: { maxOutputTokens: 256 },
  ...over,
});
const ctx = { actor: "agent", callIndex: 0 };

let server: OpenAITestServer;
beforeEach(async () => {
  server = await startOpenAITestServer();
});
afterEach(async () => {
  await server.close();
});

const model = (name = "openai:gpt-4.1-mini", timeoutMs = 5_000) =>
  new OpenAICompatibleModel(name, { endpoint: { baseURL: server.url, apiKey: "sk-test" }, timeoutMs });

describe("OpenAICompatibleModel against the loopback test server", () => {
  it("round-trips a tool call and a text reply", async () => {
    server.enqueue(
      { kind: "tool_calls", calls: [{ name: "search_news", arguments: { query: "fed rates" } }] },
      { kind: "text", content: "Done." },
    );
    const m = model();
    const r1 = await m.generate(req(), ctx);
    expect(r1.tool_calls).toEqual([{ id: "call_0_0", name: "search_news", arguments: '{"query":"fed rates"}' }]);
    expect(r1.content).toBeNull();
    expect(r1.finish_reason).toBe("tool_calls");
    expect(r1.usage.input_tokens).toBeGreaterThan(0);
    expect(r1.usage.output_tokens).toBeGreaterThan(0);
    expect(r1.usage.cached_input_tokens).toBe(0);

    const r2 = await m.generate(
      req({
        messages: [
          { role: "user", content: "Find the news." },
          { role: "assistant", content: null, tool_calls: r1.tool_calls },
          { role: "tool", tool_call_id: "call_0_0", name: "search_news", content: '{"hits":[]}' },
        ],
        settings: { maxOutputTokens: 512, temperature: 0.2, effort: "low" },
      }),
      { actor: "agent", callIndex: 1 },
    );
    expect(r2.content).toBe("Done.");
    expect(r2.tool_calls).toEqual([]);

    const b0 = server.requests[0]?.body;
    expect(b0.model).toBe("gpt-4.1-mini");
    expect(b0.messages[0]).toEqual({ role: "system", content: "You are a test agent." });
    expect(b0.tools[0]).toEqual({
      type: "function",
      function: {
        name: "search_news",
        description: "Search news",
        parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
      },
    });
    expect(b0.max_completion_tokens).toBe(256);
    expect(b0.stream).toBeUndefined();
    expect(b0.reasoning_effort).toBeUndefined();
    expect(b0.temperature).toBeUndefined();
    expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-test");

    const b1 = server.requests[1]?.body;
    expect(b1.messages.slice(1)).toEqual([
      { role: "user", content: "Find the news." },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_0_0", type: "function", function: { name: "search_news", arguments: '{"query":"fed rates"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_0_0", content: '{"hits":[]}' },
    ]);
    expect(b1.temperature).toBe(0.2);
    expect(b1.reasoning_effort).toBe("low");
    expect(b1.max_completion_tokens).toBe(512);
  });

  it("uses max_tokens for non-OpenAI servers and omits tools when there are none", async () => {
    server.enqueue({ kind: "text", content: "hi" });
    await model("ollama:llama3.2").generate(req({ tools: [] }), ctx);
    const b = server.requests[0]?.body;
    expect(b.model).toBe("llama3.2");
    expect(b.max_tokens).toBe(256);
    expect(b.max_completion_tokens).toBeUndefined();
    expect(b.tools).toBeUndefined();
  });

  it("passes malformed tool-call JSON through raw", async () => {
    server.enqueue({ kind: "malformed_tool_json", name: "search_news" });
    const r = await model().generate(req(), ctx);
    expect(r.tool_calls).toHaveLength(1);
    expect(r.tool_calls[0]?.name).toBe("search_news");
    expect(() => JSON.parse(r.tool_calls[0]?.arguments ?? "")).toThrow();
  });

  const faults: [string, Parameters<OpenAITestServer["enqueue"]>[0], string, boolean, number | undefined][] = [
    [
      "429 with retry-after",
      { kind: "status", status: 429, headers: { "retry-after": "2" } },
      "rate_limit",
      true,
      2000,
    ],
    [
      "429 with retry-after-ms",
      { kind: "status", status: 429, headers: { "retry-after-ms": "150" } },
      "rate_limit",
      true,
      150,
    ],
    ["500", { kind: "status", status: 500 }, "server", true, undefined],
    ["503", { kind: "status", status: 503 }, "server", true, undefined],
    ["timeout", { kind: "timeout" }, "timeout", true, undefined],
    ["empty choices", { kind: "empty_choices" }, "empty", true, undefined],
    ["401", { kind: "status", status: 401 }, "auth", false, undefined],
    ["403", { kind: "status", status: 403 }, "auth", false, undefined],
    ["400", { kind: "status", status: 400 }, "bad_request", false, undefined],
  ];
  for (const [label, reply, kind, retryable, retryAfter] of faults) {
    it(`maps ${label} to ModelError(${kind})`, async () => {
      server.enqueue(reply);
      const err = await model()
        .generate(req(), ctx)
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(err).toBeInstanceOf(ModelError);
      const me = err as ModelError;
      expect(me.kind).toBe(kind);
      expect(me.retryable).toBe(retryable);
      expect(me.retryAfterMs).toBe(retryAfter);
      expect(me.message).toContain("openai:gpt-4.1-mini");
    });
  }

  it("maps a refused connection to ModelError(network)", async () => {
    const url = server.url;
    await server.close();
    const m = new OpenAICompatibleModel("vllm:qwen", {
      endpoint: { baseURL: url, apiKey: "unused" },
      timeoutMs: 5_000,
    });
    const err = await m.generate(req(), ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect((err as ModelError).kind).toBe("network");
    server = await startOpenAITestServer();
  });

  it("does not retry inside the SDK (one request per generate)", async () => {
    server.enqueue({ kind: "status", status: 500 }, { kind: "text", content: "late" });
    await expect(model().generate(req(), ctx)).rejects.toBeInstanceOf(ModelError);
    expect(server.requests).toHaveLength(1);
  });
});

describe("resolveOpenAICompatibleEndpoint", () => {
  it("requires the key for openai and openrouter, naming the variable", () => {
    expect(() => resolveOpenAICompatibleEndpoint("openai", {})).toThrow(/OPENAI_API_KEY/);
    expect(() => resolveOpenAICompatibleEndpoint("openrouter", {})).toThrow(/OPENROUTER_API_KEY/);
    expect(() => resolveOpenAICompatibleEndpoint("local", {})).toThrow(/LOCAL_BASE_URL/);
  });
  it("reads base URLs and keys from env, with local defaults", () => {
    expect(resolveOpenAICompatibleEndpoint("openai", { OPENAI_API_KEY: "k" })).toEqual({
      baseURL: "https://api.openai.com/v1",
      apiKey: "k",
    });
    expect(resolveOpenAICompatibleEndpoint("openai", { OPENAI_API_KEY: "k", OPENAI_BASE_URL: "http://x/v1" })).toEqual({
      baseURL: "http://x/v1",
      apiKey: "k",
    });
    expect(resolveOpenAICompatibleEndpoint("openrouter", { OPENROUTER_API_KEY: "r" })).toEqual({
      baseURL: "https://openrouter.ai/api/v1",
      apiKey: "r",
    });
    expect(resolveOpenAICompatibleEndpoint("ollama", {})).toEqual({
      baseURL: "http://127.0.0.1:11434/v1",
      apiKey: "unused",
    });
    expect(resolveOpenAICompatibleEndpoint("vllm", { VLLM_BASE_URL: "http://gpu:8000/v1", VLLM_API_KEY: "v" })).toEqual(
      {
        baseURL: "http://gpu:8000/v1",
        apiKey: "v",
      },
    );
    expect(resolveOpenAICompatibleEndpoint("llamacpp", {})).toEqual({
      baseURL: "http://127.0.0.1:8080/v1",
      apiKey: "unused",
    });
    expect(resolveOpenAICompatibleEndpoint("local", { LOCAL_BASE_URL: "http://127.0.0.1:9/v1" })).toEqual({
      baseURL: "http://127.0.0.1:9/v1",
      apiKey: "unused",
    });
  });
});
