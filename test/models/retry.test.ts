import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { GenerateRequest, GenerateResponse, Model } from "../../src/models/model.js";
import { ModelError } from "../../src/models/model.js";
import { OpenAICompatibleModel } from "../../src/models/openai-provider.js";
import { PriceTable } from "../../src/models/price-table.js";
import { type AttemptInfo, generateWithRetries, retryDelayMs } from "../../src/models/retry.js";
import { type OpenAITestServer, type ScriptedReply, startOpenAITestServer } from "../support/openai-test-server.js";

const req: GenerateRequest = {
  system: "sys",
  messages: [{ role: "user", content: "go" }],
  tools: [{ name: "f", description: "f", parameters: { type: "object", properties: {} } }],
  settings: { maxOutputTokens: 64 },
};
const ok: GenerateResponse = {
  content: "ok",
  tool_calls: [],
  usage: { input_tokens: 10, cached_input_tokens: 0, output_tokens: 2 },
};

/** A model that fails with the given errors, then succeeds. */
function flaky(errors: ModelError[]): Model & { calls: number } {
  const m = {
    name: "fake:flaky",
    calls: 0,
    async generate(): Promise<GenerateResponse> {
      const e = errors[m.calls++];
      if (e) throw e;
      return ok;
    },
  };
  return m;
}

describe("generateWithRetries", () => {
  it("retries retryable errors with exponential, jitter-free delays and reports every attempt", async () => {
    const m = flaky([
      new ModelError("server", "500"),
      new ModelError("timeout", "t"),
      new ModelError("network", "n"),
      new ModelError("empty", "e"),
    ]);
    const slept: number[] = [];
    const attempts: AttemptInfo[] = [];
    const r = await generateWithRetries(
      m,
      req,
      { actor: "a", callIndex: 0 },
      {
        baseDelayMs: 100,
        sleep: async (ms) => {
          slept.push(ms);
        },
        onAttempt: (a) => attempts.push(a),
      },
    );
    expect(r).toBe(ok);
    expect(slept).toEqual([100, 200, 400, 800]);
    expect(attempts.map((a) => [a.attempt, a.ok, a.error?.kind])).toEqual([
      [1, false, "server"],
      [2, false, "timeout"],
      [3, false, "network"],
      [4, false, "empty"],
      [5, true, undefined],
    ]);
    expect(attempts[4]?.response).toBe(ok);
  });

  it("honours Retry-After and caps every delay at maxDelayMs", async () => {
    const m = flaky([
      new ModelError("rate_limit", "429", 1500),
      new ModelError("rate_limit", "429", 90_000),
      new ModelError("server", "s"),
    ]);
    const slept: number[] = [];
    await generateWithRetries(
      m,
      req,
      { actor: "a", callIndex: 0 },
      {
        baseDelayMs: 1000,
        maxDelayMs: 3000,
        sleep: async (ms) => {
          slept.push(ms);
        },
        onAttempt: () => {},
      },
    );
    expect(slept).toEqual([1500, 3000, 3000]);
    expect(retryDelayMs(1, new ModelError("server", "x"))).toBe(1000);
    expect(retryDelayMs(7, new ModelError("server", "x"))).toBe(60_000);
  });

  it("throws the last ModelError when attempts are exhausted", async () => {
    const errors = [1, 2, 3].map((i) => new ModelError("server", `fail ${i}`));
    const m = flaky(errors);
    const attempts: AttemptInfo[] = [];
    const err = await generateWithRetries(
      m,
      req,
      { actor: "a", callIndex: 0 },
      {
        maxAttempts: 3,
        sleep: async () => {},
        onAttempt: (a) => attempts.push(a),
      },
    ).catch((e: unknown) => e);
    expect(err).toBe(errors[2]);
    expect(m.calls).toBe(3);
    expect(attempts.every((a) => !a.ok)).toBe(true);
  });

  it("does not retry auth or bad_request errors, nor non-ModelErrors", async () => {
    for (const e of [new ModelError("auth", "401"), new ModelError("bad_request", "400")]) {
      const m = flaky([e]);
      const attempts: AttemptInfo[] = [];
      await expect(
        generateWithRetries(
          m,
          req,
          { actor: "a", callIndex: 0 },
          { sleep: async () => {}, onAttempt: (a) => attempts.push(a) },
        ),
      ).rejects.toBe(e);
      expect(m.calls).toBe(1);
      expect(attempts).toHaveLength(1);
    }
    const bug = new Error("bug");
    const m: Model = {
      name: "fake:bug",
      generate: async () => {
        throw bug;
      },
    };
    const attempts: AttemptInfo[] = [];
    await expect(
      generateWithRetries(
        m,
        req,
        { actor: "a", callIndex: 0 },
        { sleep: async () => {}, onAttempt: (a) => attempts.push(a) },
      ),
    ).rejects.toBe(bug);
    expect(attempts).toHaveLength(0);
  });
});

describe("R4: provider faults against the loopback server", () => {
  let server: OpenAITestServer;
  beforeEach(async () => {
    server = await startOpenAITestServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it("completes a call sequence through an injected mix of faults; only successful attempts cost", async () => {
    const prices = PriceTable.fromRecord(
      { "openai:gpt-4.1": { input: 2, cached_input: 0.5, output: 8 } },
      "test table",
    );
    const model = new OpenAICompatibleModel("openai:gpt-4.1", {
      endpoint: { baseURL: server.url, apiKey: "sk-test" },
      timeoutMs: 5_000,
    });
    const script: ScriptedReply[][] = [
      [
        { kind: "status", status: 429, headers: { "retry-after-ms": "1" } },
        { kind: "status", status: 500 },
        { kind: "tool_calls", calls: [{ name: "f", arguments: {} }] },
      ],
      [{ kind: "timeout" }, { kind: "empty_choices" }, { kind: "text", content: "thinking" }],
      [{ kind: "malformed_tool_json", name: "f" }],
      [
        { kind: "status", status: 503 },
        { kind: "status", status: 502 },
        { kind: "empty_choices" },
        { kind: "text", content: "done" },
      ],
    ];
    server.enqueue(...script.flat());

    const ledger: { callIndex: number; attempt: number; ok: boolean; kind?: string; cost: number }[] = [];
    const responses: GenerateResponse[] = [];
    for (let i = 0; i < script.length; i++) {
      const r = await generateWithRetries(
        model,
        req,
        { actor: "agent", callIndex: i },
        {
          baseDelayMs: 1,
          onAttempt: (a) =>
            ledger.push({
              callIndex: i,
              attempt: a.attempt,
              ok: a.ok,
              kind: a.error?.kind,
              cost: a.ok && a.response ? prices.cost(model.name, a.response.usage) : 0,
            }),
        },
      );
      responses.push(r);
    }

    expect(ledger.map((l) => [l.callIndex, l.attempt, l.ok, l.kind])).toEqual([
      [0, 1, false, "rate_limit"],
      [0, 2, false, "server"],
      [0, 3, true, undefined],
      [1, 1, false, "timeout"],
      [1, 2, false, "empty"],
      [1, 3, true, undefined],
      [2, 1, true, undefined],
      [3, 1, false, "server"],
      [3, 2, false, "server"],
      [3, 3, false, "empty"],
      [3, 4, true, undefined],
    ]);
    expect(server.requests).toHaveLength(11);
    const failed = ledger.filter((l) => !l.ok);
    const succeeded = ledger.filter((l) => l.ok);
    expect(failed).toHaveLength(7);
    expect(failed.every((l) => l.cost === 0)).toBe(true);
    expect(succeeded).toHaveLength(4);
    expect(succeeded.every((l) => l.cost > 0)).toBe(true);
    // The malformed tool call is a successful (billed) reply: protocol errors are the agent loop's business.
    expect(() => JSON.parse(responses[2]?.tool_calls[0]?.arguments ?? "")).toThrow();
    expect(responses[3]?.content).toBe("done");
    const total = succeeded.reduce((s, l) => s + l.cost, 0);
    const expected = responses.reduce((s, r) => s + prices.cost(model.name, r.usage), 0);
    expect(total).toBe(expected);
  });
});
