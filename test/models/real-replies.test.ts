import { describe, expect, it } from "vitest";
import { errorFromStatus } from "../../src/models/http-error.js";
import { ModelError } from "../../src/models/model.js";
import {
  OpenAICompatibleModel,
  ollamaHostBase,
  resolveOpenAICompatibleEndpoint,
} from "../../src/models/openai-provider.js";
import { PriceTable } from "../../src/models/price-table.js";
import { createModel, modelEndpoint } from "../../src/models/resolve-model.js";
import { parseRunConfig } from "../../src/run/config.js";
import { resolveRun } from "../../src/run/resolve-run.js";
import { DIGEST_5D, options } from "../run/helpers.js";

const req = {
  system: "sys",
  messages: [
    { role: "user" as const, content: "(woke at x for start)" },
    { role: "assistant" as const, content: null, tool_calls: [{ id: "a", name: "t", arguments: "{}" }] },
    { role: "tool" as const, tool_call_id: "a", name: "t", content: "r" },
  ],
  tools: [],
  settings: { maxOutputTokens: 100, seed: 7 },
};
const endpoint = { baseURL: "http://127.0.0.1:9/v1", apiKey: "k" };

describe("provider errors as real servers word them", () => {
  it("context-length 400s of every style are context_length (not retried); unknown models are not_found", () => {
    for (const m of [
      "This model's maximum context length is 32768 tokens. However, you requested 40000 tokens (39000 in the messages, 1000 in the completion).",
      "the request exceeds the available context size, try increasing it",
      "prompt is too long: 210000 tokens > 200000 maximum",
      "This endpoint's maximum context length is 131072 tokens. However, you requested about 140000 tokens",
    ]) {
      const e = errorFromStatus(400, m);
      expect(e.kind, m).toBe("context_length");
      expect(e.retryable).toBe(false);
    }
    expect(errorFromStatus(400, "anthropic/claude-nope is not a valid model ID").kind).toBe("not_found");
    expect(errorFromStatus(404, 'model "x" not found, try pulling it first').kind).toBe("not_found");
    expect(errorFromStatus(400, "temperature must be at most 2").kind).toBe("bad_request");
    const e = errorFromStatus(401, "bad key");
    expect([e.kind, e.status, e.endpointBroken]).toEqual(["auth", 401, true]);
    expect(new ModelError("server", "x").endpointBroken).toBe(false);
    expect(new ModelError("network", "x").endpointBroken).toBe(true);
  });
});

describe("request shapes", () => {
  it("sends the run seed to OpenAI-compatible servers", () => {
    const body = new OpenAICompatibleModel("vllm:m", { endpoint }).buildBody(req);
    expect(body.seed).toBe(7);
    const noSeed = new OpenAICompatibleModel("vllm:m", { endpoint }).buildBody({
      ...req,
      settings: { maxOutputTokens: 5 },
    });
    expect("seed" in noSeed).toBe(false);
  });

  it("openrouter:anthropic/* carries cache breakpoints on content parts (system, last message, previous user turn)", () => {
    const body = new OpenAICompatibleModel("openrouter:anthropic/claude-haiku-4.5", { endpoint }).buildBody(req);
    const cc = { type: "ephemeral" };
    expect(body.messages[0]).toEqual({ role: "system", content: [{ type: "text", text: "sys", cache_control: cc }] });
    expect(body.messages[1]).toEqual({
      role: "user",
      content: [{ type: "text", text: "(woke at x for start)", cache_control: cc }],
    });
    expect(body.messages[3]).toEqual({
      role: "tool",
      tool_call_id: "a",
      content: [{ type: "text", text: "r", cache_control: cc }],
    });
    // other OpenRouter models: plain strings
    const plain = new OpenAICompatibleModel("openrouter:qwen/qwen3-32b", { endpoint }).buildBody(req);
    expect(JSON.stringify(plain)).not.toContain("cache_control");
  });

  it("agent.request_timeout_s (default 120) reaches the SDK client", async () => {
    // the SDK client is created on first use (the SDK loads lazily)
    const clientTimeout = async (model: unknown) =>
      (await (model as { client: () => Promise<{ timeout: number }> }).client()).timeout;
    const timeoutOf = (agent: Record<string, unknown>) => {
      const r = resolveRun(
        parseRunConfig({ task: "daily-digest", ...DIGEST_5D, agent: { model: "vllm:m", ...agent } }),
        { ...options(), env: { VLLM_BASE_URL: "http://127.0.0.1:9/v1" } },
      );
      if (r.agent.kind !== "model" || r.agent.created === null) throw new Error("not a model run");
      return clientTimeout(r.agent.created.model);
    };
    expect(await timeoutOf({ request_timeout_s: 900 })).toBe(900_000);
    expect(await timeoutOf({})).toBe(120_000);
    const prices = PriceTable.fromRecord({ "vllm:*": { input: 0, cached_input: 0, output: 0 } });
    const { model } = createModel("vllm:m", { prices, timeoutMs: 5_000, env: {} });
    expect(await clientTimeout(model)).toBe(5_000);
  });
});

describe("endpoints and names", () => {
  it("honours Ollama's own OLLAMA_HOST (OLLAMA_BASE_URL still wins)", () => {
    expect(ollamaHostBase("127.0.0.1:5000")).toBe("http://127.0.0.1:5000/v1");
    expect(ollamaHostBase("0.0.0.0")).toBe("http://127.0.0.1:11434/v1");
    expect(ollamaHostBase("https://gpu.example:443/")).toBe("https://gpu.example/v1");
    expect(ollamaHostBase("http://box:11434/v1")).toBe("http://box:11434/v1");
    expect(resolveOpenAICompatibleEndpoint("ollama", { OLLAMA_HOST: "10.0.0.2:8080" }).baseURL).toBe(
      "http://10.0.0.2:8080/v1",
    );
    expect(
      resolveOpenAICompatibleEndpoint("ollama", { OLLAMA_HOST: "10.0.0.2:8080", OLLAMA_BASE_URL: "http://x:1/v1" })
        .baseURL,
    ).toBe("http://x:1/v1");
    expect(modelEndpoint("ollama:llama3.2", { OLLAMA_HOST: "h:1" })).toBe("http://h:1/v1");
    expect(modelEndpoint("anthropic:claude-haiku-4-5", {})).toBe("https://api.anthropic.com");
    expect(modelEndpoint("openai:gpt-4.1-mini", {})).toBe("https://api.openai.com/v1");
  });

  it("dated snapshot names are priced as their base row; an own row still wins", () => {
    const t = PriceTable.fromRecord({
      "openai:gpt-4.1-mini": { input: 0.4, cached_input: 0.1, output: 1.6 },
      "anthropic:claude-haiku-4-5": { input: 1, cached_input: 0.1, output: 5 },
      "openai:gpt-4o-2024-05-13": { input: 5, cached_input: 5, output: 15 },
      "openai:gpt-4o": { input: 2.5, cached_input: 1.25, output: 10 },
    });
    expect(t.require("openai:gpt-4.1-mini-2025-04-14")).toMatchObject({ input: 0.4 });
    expect(t.require("anthropic:claude-haiku-4-5-20251001")).toMatchObject({ input: 1 });
    expect(t.require("openai:gpt-4o-2024-05-13")).toMatchObject({ input: 5 });
    expect(() => t.require("openai:gpt-4.1-mini-preview")).toThrow(/not in the price table/);
  });
});
