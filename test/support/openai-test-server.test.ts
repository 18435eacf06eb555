import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  cachedTokensFor,
  countTestTokens,
  type OpenAITestServer,
  type RequestBody,
  serializePrompt,
  startOpenAITestServer,
} from "./openai-test-server.js";

let server: OpenAITestServer;
beforeEach(async () => {
  server = await startOpenAITestServer();
});
afterEach(async () => {
  await server.close();
});

const post = async (body: unknown) => {
  const res = await fetch(`${server.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as RequestBody };
};

const longSystem = Array.from({ length: 400 }, (_, i) => `Rule ${i}: keep the ledger honest.`).join(" ");

describe("openai test server", () => {
  it("listens on loopback and answers with real chat.completion shapes", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    server.enqueue({ kind: "tool_calls", calls: [{ name: "f", arguments: { a: 1 } }], content: "calling" });
    const body = {
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      tools: [{ type: "function", function: { name: "f" } }],
    };
    const r = await post(body);
    expect(r.status).toBe(200);
    expect(r.json.object).toBe("chat.completion");
    expect(r.json.model).toBe("m");
    expect(r.json.choices[0].message).toEqual({
      role: "assistant",
      content: "calling",
      tool_calls: [{ id: "call_0_0", type: "function", function: { name: "f", arguments: '{"a":1}' } }],
      refusal: null,
    });
    expect(r.json.choices[0].finish_reason).toBe("tool_calls");
    expect(r.json.usage.prompt_tokens).toBe(countTestTokens(serializePrompt(body)));
    expect(r.json.usage.completion_tokens).toBe(countTestTokens('callingf{"a":1}'));
    expect(r.json.usage.prompt_tokens_details.cached_tokens).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.body).toEqual(body);
    expect(server.requests[0]?.headers["content-type"]).toBe("application/json");
  });

  it("serializes tools first, then messages, one JSON line each", () => {
    expect(serializePrompt({ tools: [{ t: 1 }], messages: [{ role: "user", content: "x" }] })).toBe(
      '{"t":1}\n{"role":"user","content":"x"}',
    );
  });

  it("applies the documented cache rule", () => {
    expect(cachedTokensFor(1023, 5000)).toBe(0);
    expect(cachedTokensFor(1024, 5000)).toBe(1024);
    expect(cachedTokensFor(1151, 5000)).toBe(1024);
    expect(cachedTokensFor(1152, 5000)).toBe(1152);
    expect(cachedTokensFor(3000, 1500)).toBe(1500);
  });

  it("reports cached tokens for an unchanged prefix and none for a changed one", async () => {
    const sys = { role: "system", content: longSystem };
    server.respond(() => ({ kind: "text", content: "ok" }));
    const first = await post({ model: "m", messages: [sys, { role: "user", content: "one" }] });
    const second = await post({
      model: "m",
      messages: [
        sys,
        { role: "user", content: "one" },
        { role: "assistant", content: "ok" },
        { role: "user", content: "two" },
      ],
    });
    const changed = await post({
      model: "m",
      messages: [
        { role: "system", content: `X ${longSystem}` },
        { role: "user", content: "one" },
      ],
    });
    const p1 = first.json.usage.prompt_tokens as number;
    expect(p1).toBeGreaterThan(1024);
    expect(first.json.usage.prompt_tokens_details.cached_tokens).toBe(0);
    const c2 = second.json.usage.prompt_tokens_details.cached_tokens as number;
    expect(c2).toBeGreaterThanOrEqual(1024);
    expect(c2 % 128).toBe(0);
    expect(c2).toBeLessThanOrEqual(p1);
    expect(c2).toBeGreaterThan(p1 - 128 - 10);
    expect(changed.json.usage.prompt_tokens_details.cached_tokens).toBe(0);
  });

  it("injects statuses with headers, empty choices and malformed tool JSON", async () => {
    server.enqueue(
      { kind: "status", status: 429, headers: { "retry-after": "3" } },
      { kind: "empty_choices" },
      { kind: "malformed_tool_json", name: "g" },
    );
    const body = { model: "m", messages: [{ role: "user", content: "x" }] };
    const a = await post(body);
    expect(a.status).toBe(429);
    expect(a.headers.get("retry-after")).toBe("3");
    expect(a.json.error.message).toContain("429");
    const b = await post(body);
    expect(b.status).toBe(200);
    expect(b.json.choices).toEqual([]);
    const c = await post(body);
    const args = c.json.choices[0].message.tool_calls[0].function.arguments as string;
    expect(() => JSON.parse(args)).toThrow();
  });

  it("holds a timeout request open until the client gives up", async () => {
    server.enqueue({ kind: "timeout" });
    const ac = new AbortController();
    const pending = fetch(`${server.url}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "m", messages: [] }),
      signal: ac.signal,
    }).then(
      () => "answered",
      () => "aborted",
    );
    setTimeout(() => ac.abort(), 100);
    expect(await pending).toBe("aborted");
  });

  it("passes the request index to the responder and fails loudly when the script is exhausted", async () => {
    const seen: number[] = [];
    server.respond((_b, i) => {
      seen.push(i);
      return { kind: "text", content: `n${i}` };
    });
    const body = { model: "m", messages: [{ role: "user", content: "x" }] };
    expect((await post(body)).json.choices[0].message.content).toBe("n0");
    expect((await post(body)).json.choices[0].message.content).toBe("n1");
    expect(seen).toEqual([0, 1]);
    const fresh = await startOpenAITestServer();
    try {
      const r = await fetch(`${fresh.url}/chat/completions`, { method: "POST", body: JSON.stringify(body) });
      expect(r.status).toBe(500);
      expect(((await r.json()) as RequestBody).error.message).toContain("exhausted");
      // GET /models answers the launch preflight; any other path is a 404
      expect((await fetch(`${fresh.url}/models`)).status).toBe(200);
      const nf = await fetch(`${fresh.url}/nothing-here`);
      expect(nf.status).toBe(404);
    } finally {
      await fresh.close();
    }
  });
});
