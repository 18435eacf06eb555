import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/common/canonical-json.js";
import { CassetteMismatchError, CassetteModel, CassetteRecorder, requestHash } from "../../src/models/cassette.js";
import type { GenerateRequest, GenerateResponse } from "../../src/models/model.js";
import { OpenAICompatibleModel } from "../../src/models/openai-provider.js";
import { type OpenAITestServer, startOpenAITestServer } from "../support/openai-test-server.js";

const dir = mkdtempSync(join(tmpdir(), "relive-cassette-"));
const mkReq = (text: string, over: Partial<GenerateRequest> = {}): GenerateRequest => ({
  system: "sys",
  messages: [{ role: "user", content: text }],
  tools: [{ name: "f", description: "f", parameters: { type: "object", properties: { q: { type: "string" } } } }],
  settings: { maxOutputTokens: 128, temperature: 0 },
  ...over,
});

let server: OpenAITestServer;
beforeAll(async () => {
  server = await startOpenAITestServer();
});
afterAll(async () => {
  await server.close();
});

const calls: { req: GenerateRequest; ctx: { actor: string; callIndex: number } }[] = [
  { req: mkReq("a0"), ctx: { actor: "agent", callIndex: 0 } },
  { req: mkReq("w0"), ctx: { actor: "watcher", callIndex: 0 } },
  { req: mkReq("a1"), ctx: { actor: "agent", callIndex: 1 } },
];

async function record(path: string): Promise<GenerateResponse[]> {
  server.enqueue(
    { kind: "tool_calls", calls: [{ name: "f", arguments: { q: "x" } }], content: "calling f" },
    { kind: "malformed_tool_json", name: "f" },
    { kind: "text", content: "final ünïcode ✓" },
  );
  const live = new OpenAICompatibleModel("openai:gpt-4.1-mini", {
    endpoint: { baseURL: server.url, apiKey: "k" },
    timeoutMs: 5_000,
  });
  const wrapped = new CassetteRecorder(path).wrap(live);
  expect(wrapped.name).toBe("openai:gpt-4.1-mini");
  const out: GenerateResponse[] = [];
  for (const c of calls) out.push(await wrapped.generate(c.req, c.ctx));
  return out;
}

describe("cassettes", () => {
  it("records every successful call and replays byte-identical responses", async () => {
    const path = join(dir, "nested", "run.jsonl");
    const live = await record(path);
    const lines = readFileSync(path, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    const first = JSON.parse(lines[0] as string);
    expect(Object.keys(first)).toEqual(["actor", "call_index", "model", "request_hash", "response"]);
    expect(first).toMatchObject({
      actor: "agent",
      call_index: 0,
      model: "openai:gpt-4.1-mini",
      request_hash: requestHash(calls[0]!.req),
    });

    const replay = CassetteModel.load(path);
    expect(replay.name).toBe(`cassette:${path}`);
    expect(replay.recordedModel).toBe("openai:gpt-4.1-mini");
    expect(replay.size).toBe(3);
    // replay in a different order: keyed by (actor, index), not by position
    for (const i of [2, 0, 1]) {
      const c = calls[i]!;
      const r = await replay.generate(c.req, c.ctx);
      expect(JSON.stringify(r)).toBe(JSON.stringify(live[i]));
    }
    // re-recording the replay gives a byte-identical cassette
    const again = join(dir, "again.jsonl");
    const rewrapped = new CassetteRecorder(again).wrap(replay);
    for (const c of calls) await rewrapped.generate(c.req, c.ctx);
    expect(readFileSync(again, "utf8")).toBe(readFileSync(path, "utf8"));
  });

  it("throws CassetteMismatchError on a changed request or a missing entry", async () => {
    const path = join(dir, "mismatch.jsonl");
    await record(path);
    const replay = CassetteModel.load(path);
    const changed = mkReq("a0", { settings: { maxOutputTokens: 129, temperature: 0 } });
    const err = await replay.generate(changed, { actor: "agent", callIndex: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CassetteMismatchError);
    const m = err as CassetteMismatchError;
    expect(m.actor).toBe("agent");
    expect(m.callIndex).toBe(0);
    expect(m.expectedHash).toBe(requestHash(calls[0]!.req));
    expect(m.actualHash).toBe(requestHash(changed));
    expect(m.message).toContain('actor "agent" call index 0');
    expect(m.message).toContain(m.expectedHash!);
    expect(m.message).toContain(m.actualHash);

    const missing = await replay.generate(mkReq("a2"), { actor: "agent", callIndex: 2 }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(CassetteMismatchError);
    expect((missing as CassetteMismatchError).expectedHash).toBeNull();
    const otherActor = await replay.generate(calls[0]!.req, { actor: "critic", callIndex: 0 }).catch((e: unknown) => e);
    expect(otherActor).toBeInstanceOf(CassetteMismatchError);
  });

  it("drops a torn last line, rejects corrupt, empty and mixed-model cassettes", async () => {
    const path = join(dir, "torn.jsonl");
    await record(path);
    appendFileSync(path, '{"actor":"agent","call_index":2,"mod');
    expect(CassetteModel.load(path).size).toBe(3);

    const corrupt = join(dir, "corrupt.jsonl");
    writeFileSync(corrupt, `not json\n${readFileSync(path, "utf8")}`);
    expect(() => CassetteModel.load(corrupt)).toThrow(/corrupt\.jsonl:1: not valid JSON/);

    const empty = join(dir, "empty.jsonl");
    writeFileSync(empty, "");
    expect(() => CassetteModel.load(empty)).toThrow(/has no entries/);

    const lines = readFileSync(path, "utf8").split("\n").slice(0, 2);
    const mixed = join(dir, "mixed.jsonl");
    writeFileSync(mixed, `${lines[0]}\n${(lines[1] as string).replace("openai:gpt-4.1-mini", "openai:gpt-4.1")}\n`);
    expect(() => CassetteModel.load(mixed)).toThrow(/mixed\.jsonl:2: model openai:gpt-4.1 differs/);

    const badShape = join(dir, "shape.jsonl");
    writeFileSync(
      badShape,
      `${JSON.stringify({ actor: "a", call_index: -1, model: "openai:x", request_hash: "0".repeat(64), response: {} })}\n`,
    );
    expect(() => CassetteModel.load(badShape)).toThrow(/shape\.jsonl:1: call_index/);

    expect(() => CassetteModel.load(join(dir, "nope.jsonl"))).toThrow(/cannot read cassette/);
  });

  it("does not record failed calls", async () => {
    const path = join(dir, "failed.jsonl");
    server.enqueue({ kind: "status", status: 500 });
    const live = new OpenAICompatibleModel("openai:gpt-4.1-mini", {
      endpoint: { baseURL: server.url, apiKey: "k" },
      timeoutMs: 5_000,
    });
    await expect(
      new CassetteRecorder(path).wrap(live).generate(mkReq("x"), { actor: "a", callIndex: 0 }),
    ).rejects.toThrow();
    expect(() => readFileSync(path)).toThrow();
  });

  it("hashes requests by canonical JSON: key order and undefined members do not matter", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (obj) => {
        const reversed = Object.fromEntries(Object.entries(obj).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(obj));
        expect(JSON.parse(canonicalJson(obj))).toEqual(JSON.parse(JSON.stringify(obj)));
      }),
    );
    const a = mkReq("x");
    const b: GenerateRequest = { ...a, settings: { temperature: 0, maxOutputTokens: 128, effort: undefined } };
    expect(requestHash(b)).toBe(requestHash(a));
    expect(requestHash(mkReq("y"))).not.toBe(requestHash(a));
  });
});
