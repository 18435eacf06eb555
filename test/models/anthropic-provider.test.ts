import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AnthropicModel, resolveAnthropicEndpoint, toAnthropicMessages } from "../../src/models/anthropic-provider.js";
import type { GenerateRequest } from "../../src/models/model.js";
import { ModelError } from "../../src/models/model.js";
import type { RequestBody } from "../support/openai-test-server.js";

type Reply = { status: number; body: unknown; headers?: Record<string, string> } | "hang";

/** A loopback stand-in for the Messages API: POST /v1/messages answered from a script. */
async function startAnthropicServer() {
  const replies: Reply[] = [];
  const requests: { path: string; headers: Record<string, string | string[] | undefined>; body: RequestBody }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      requests.push({
        path: req.url ?? "",
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
      });
      const r = replies.shift() ?? {
        status: 500,
        body: { type: "error", error: { type: "api_error", message: "script exhausted" } },
      };
      if (r === "hang") return;
      res.writeHead(r.status, { "content-type": "application/json", ...(r.headers ?? {}) });
      res.end(JSON.stringify(r.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    replies,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const message = (content: unknown[], usage: Record<string, number>, stop = "tool_use") => ({
  status: 200,
  body: {
    id: "msg_test",
    type: "message",
    role: "assistant",
    model: "claude-haiku-4-5",
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { cache_creation_input_tokens: 0, cache_read_input_tokens: 0, ...usage },
  },
});
const apiError = (status: number, type: string, headers?: Record<string, string>) => ({
  status,
  body: { type: "error", error: { type, message: `${type} injected` } },
  headers,
});

const req: GenerateRequest = {
  system: "You are a forecaster.",
  messages: [
    { role: "user", content: "Start." },
    {
      role: "assistant",
      content: "Searching twice.",
      tool_calls: [
        { id: "toolu_1", name: "search", arguments: '{"q":"a"}' },
        { id: "toolu_2", name: "search", arguments: '{"q":"b"' },
      ],
    },
    { role: "tool", tool_call_id: "toolu_1", name: "search", content: "r1" },
    { role: "tool", tool_call_id: "toolu_2", name: "search", content: "error: bad JSON" },
    { role: "user", content: "Wake: 09:00." },
  ],
  tools: [
    { name: "search", description: "Search", parameters: { type: "object", properties: { q: { type: "string" } } } },
  ],
  settings: { maxOutputTokens: 300, temperature: 0.5, effort: "high" },
};
const ctx = { actor: "agent", callIndex: 0 };

let srv: Awaited<ReturnType<typeof startAnthropicServer>>;
beforeEach(async () => {
  srv = await startAnthropicServer();
});
afterEach(async () => {
  await srv.close();
});
const model = () =>
  new AnthropicModel("anthropic:claude-haiku-4-5", {
    endpoint: { apiKey: "sk-ant-test", baseURL: srv.url },
    timeoutMs: 5_000,
  });

describe("AnthropicModel against a loopback Messages API", () => {
  it("maps tools, system cache breakpoint, tool_use/tool_result turns and usage", async () => {
    srv.replies.push(
      message(
        [
          { type: "text", text: "Let me look." },
          { type: "tool_use", id: "toolu_3", name: "search", input: { q: "c", n: 2 } },
        ],
        { input_tokens: 50, cache_creation_input_tokens: 20, cache_read_input_tokens: 1200, output_tokens: 30 },
      ),
    );
    const r = await model().generate(req, ctx);
    expect(r).toEqual({
      content: "Let me look.",
      tool_calls: [{ id: "toolu_3", name: "search", arguments: '{"q":"c","n":2}' }],
      usage: { input_tokens: 1270, cached_input_tokens: 1200, output_tokens: 30 },
      finish_reason: "tool_use",
    });
    const sent = srv.requests[0]!;
    expect(sent.path).toBe("/v1/messages");
    expect(JSON.stringify(sent.headers)).toContain("sk-ant-test");
    expect(sent.body.model).toBe("claude-haiku-4-5");
    expect(sent.body.max_tokens).toBe(300);
    expect(sent.body.temperature).toBe(0.5);
    expect(sent.body.output_config).toEqual({ effort: "high" });
    expect(sent.body.stream).toBeFalsy();
    expect(sent.body.system).toEqual([
      { type: "text", text: "You are a forecaster.", cache_control: { type: "ephemeral" } },
    ]);
    expect(sent.body.tools).toEqual([
      {
        name: "search",
        description: "Search",
        input_schema: { type: "object", properties: { q: { type: "string" } } },
      },
    ]);
    // cache breakpoints move with the conversation: the last block and the previous user turn's last block
    expect(sent.body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Start.", cache_control: { type: "ephemeral" } }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Searching twice." },
          { type: "tool_use", id: "toolu_1", name: "search", input: { q: "a" } },
          { type: "tool_use", id: "toolu_2", name: "search", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: "r1" },
          { type: "tool_result", tool_use_id: "toolu_2", content: "error: bad JSON" },
          { type: "text", text: "Wake: 09:00.", cache_control: { type: "ephemeral" } },
        ],
      },
    ]);
  });

  it("returns a text-only reply with null-free content and omits unset settings", async () => {
    srv.replies.push(message([{ type: "text", text: "Done." }], { input_tokens: 10, output_tokens: 2 }, "end_turn"));
    const r = await model().generate(
      {
        system: "",
        messages: [{ role: "user", content: "hi" }],
        tools: [],
        settings: { maxOutputTokens: 10, effort: "none" },
      },
      ctx,
    );
    expect(r).toEqual({
      content: "Done.",
      tool_calls: [],
      usage: { input_tokens: 10, cached_input_tokens: 0, output_tokens: 2 },
      finish_reason: "end_turn",
    });
    const b = srv.requests[0]!.body;
    expect(b.system).toBeUndefined();
    expect(b.tools).toBeUndefined();
    expect(b.temperature).toBeUndefined();
    expect(b.output_config).toBeUndefined();
  });

  const faults: [string, Reply, string, number | undefined][] = [
    ["429", apiError(429, "rate_limit_error", { "retry-after": "7" }), "rate_limit", 7000],
    ["529 overloaded", apiError(529, "overloaded_error"), "server", undefined],
    ["500", apiError(500, "api_error"), "server", undefined],
    ["401", apiError(401, "authentication_error"), "auth", undefined],
    ["400", apiError(400, "invalid_request_error"), "bad_request", undefined],
    ["timeout", "hang", "timeout", undefined],
    ["empty content", message([], { input_tokens: 5, output_tokens: 0 }, "refusal"), "empty", undefined],
  ];
  for (const [label, reply, kind, retryAfter] of faults) {
    it(`maps ${label} to ModelError(${kind})`, async () => {
      srv.replies.push(reply);
      const err = await model()
        .generate(req, ctx)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ModelError);
      expect((err as ModelError).kind).toBe(kind);
      expect((err as ModelError).retryAfterMs).toBe(retryAfter);
      expect(srv.requests).toHaveLength(1);
    });
  }
});

describe("anthropic mapping helpers", () => {
  it("merges consecutive same-role turns and keeps alternation", () => {
    expect(
      toAnthropicMessages([
        { role: "user", content: "a" },
        { role: "user", content: "b" },
        { role: "assistant", content: null },
      ]),
    ).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "(no reply)" }] },
    ]);
  });
  it("needs ANTHROPIC_API_KEY and takes ANTHROPIC_BASE_URL", () => {
    expect(() => resolveAnthropicEndpoint({})).toThrow(/ANTHROPIC_API_KEY/);
    expect(resolveAnthropicEndpoint({ ANTHROPIC_API_KEY: "k" })).toEqual({ apiKey: "k" });
    expect(resolveAnthropicEndpoint({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "http://127.0.0.1:1" })).toEqual({
      apiKey: "k",
      baseURL: "http://127.0.0.1:1",
    });
  });
});
