import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AnthropicModel } from "../../src/models/anthropic-provider.js";
import { CassetteModel } from "../../src/models/cassette.js";
import { OpenAICompatibleModel } from "../../src/models/openai-provider.js";
import { DEFAULT_PRICES_PATH, loadPriceTable, PriceTable } from "../../src/models/price-table.js";
import { createModel } from "../../src/models/resolve-model.js";
import { type OpenAITestServer, startOpenAITestServer } from "../support/openai-test-server.js";

const prices = loadPriceTable();
let server: OpenAITestServer;
beforeAll(async () => {
  server = await startOpenAITestServer();
});
afterAll(async () => {
  await server.close();
});

describe("createModel", () => {
  it("refuses an unlisted model at launch, naming the prices file", () => {
    expect(() => createModel("openai:gpt-unlisted", { prices, env: { OPENAI_API_KEY: "k" } })).toThrow(
      DEFAULT_PRICES_PATH,
    );
    expect(() => createModel("anthropic:claude-unlisted", { prices, env: { ANTHROPIC_API_KEY: "k" } })).toThrow(
      /not in the price table/,
    );
  });

  it("names the missing key variable", () => {
    expect(() => createModel("openai:gpt-4.1-mini", { prices, env: {} })).toThrow(/OPENAI_API_KEY/);
    expect(() => createModel("openrouter:qwen/qwen3-32b", { prices, env: {} })).toThrow(/OPENROUTER_API_KEY/);
    expect(() => createModel("anthropic:claude-haiku-4-5", { prices, env: {} })).toThrow(/ANTHROPIC_API_KEY/);
    expect(() => createModel("local:my-model", { prices, env: {} })).toThrow(/LOCAL_BASE_URL/);
  });

  it("dispatches on the provider prefix", () => {
    const env = { OPENAI_API_KEY: "k", OPENROUTER_API_KEY: "r", ANTHROPIC_API_KEY: "a" };
    const o = createModel("openai:gpt-4.1-mini", { prices, env });
    expect(o.model).toBeInstanceOf(OpenAICompatibleModel);
    expect(o.priceKey).toBe("openai:gpt-4.1-mini");
    expect((o.model as OpenAICompatibleModel).wireModel).toBe("gpt-4.1-mini");
    expect(createModel("openrouter:qwen/qwen3-32b", { prices, env }).model).toBeInstanceOf(OpenAICompatibleModel);
    for (const n of ["ollama:llama3.2", "vllm:Qwen/Qwen3-8B", "llamacpp:gguf"]) {
      expect(createModel(n, { prices, env: {} }).priceKey).toBe(n);
    }
    const a = createModel("anthropic:claude-haiku-4-5", { prices, env });
    expect(a.model).toBeInstanceOf(AnthropicModel);
    expect(a.model.name).toBe("anthropic:claude-haiku-4-5");
  });

  it("rejects scripted:, unknown providers and malformed names with clear errors", () => {
    expect(() => createModel("scripted:oracle", { prices })).toThrow(/not a model.*runner/);
    expect(() => createModel("gemini:pro", { prices })).toThrow(/unknown model provider "gemini"/);
    expect(() => createModel("gpt-4", { prices })).toThrow(/provider:model/);
  });

  it("a local: model created from env talks to the configured server", async () => {
    server.enqueue({ kind: "text", content: "hello" });
    const { model, priceKey } = createModel("local:tiny", {
      prices,
      env: { LOCAL_BASE_URL: server.url },
      timeoutMs: 5_000,
    });
    const r = await model.generate(
      { system: "s", messages: [{ role: "user", content: "hi" }], tools: [], settings: { maxOutputTokens: 16 } },
      { actor: "agent", callIndex: 0 },
    );
    expect(r.content).toBe("hello");
    expect(prices.cost(priceKey, r.usage)).toBe(0);
    expect(server.requests.at(-1)?.body.model).toBe("tiny");
  });

  it("cassette:<file> replays and is priced as the recorded model", () => {
    const dir = mkdtempSync(join(tmpdir(), "relive-resolve-"));
    const line = (model: string) =>
      `${JSON.stringify({
        actor: "agent",
        call_index: 0,
        model,
        request_hash: "a".repeat(64),
        response: {
          content: "x",
          tool_calls: [],
          usage: { input_tokens: 1, cached_input_tokens: 0, output_tokens: 1 },
        },
      })}\n`;
    const listed = join(dir, "listed.jsonl");
    writeFileSync(listed, line("openai:gpt-4.1-mini"));
    const c = createModel(`cassette:${listed}`, { prices, env: {} });
    expect(c.model).toBeInstanceOf(CassetteModel);
    expect(c.priceKey).toBe("openai:gpt-4.1-mini");
    expect(c.model.name).toBe(`cassette:${listed}`);

    const unlisted = join(dir, "unlisted.jsonl");
    writeFileSync(unlisted, line("openai:gpt-unlisted"));
    expect(() => createModel(`cassette:${unlisted}`, { prices })).toThrow(/gpt-unlisted.*not in the price table/);
    const custom = PriceTable.fromRecord({ "openai:gpt-unlisted": { input: 1, cached_input: 1, output: 1 } }, "custom");
    expect(createModel(`cassette:${unlisted}`, { prices: custom }).priceKey).toBe("openai:gpt-unlisted");
  });
});
