import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { GenerateRequest, GenerateResponse, Model } from "../../src/models/model.js";
import { LoggedModel, readLlmLog } from "../../src/run/llm-log.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const reply = (text: string): GenerateResponse => ({
  content: text,
  tool_calls: [],
  usage: { input_tokens: 3, cached_input_tokens: 0, output_tokens: 2 },
});

/** a live model that answers every request with its call index */
const live: Model = {
  name: "fake:echo",
  generate: async (_req, ctx) => reply(`call ${ctx.callIndex}`),
};

const request = (text: string): GenerateRequest => ({
  system: "s",
  messages: [{ role: "user", content: text }],
  tools: [],
  settings: { maxOutputTokens: 16 },
});

describe("llm.jsonl is made durable like the ledger", () => {
  it("each live reply starts a background fsync of llm.jsonl, and replayed replies start none", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "relive-llm-log-")), "llm.jsonl");
    const m = new LoggedModel(live, path, "fake:echo");
    expect(m.syncs).toEqual({ requested: 0, completed: 0 });
    await m.generate(request("a"), { actor: "agent", callIndex: 0 });
    expect(m.syncs.requested).toBe(1);
    while (m.syncs.completed < 1) await sleep(5);
    await m.generate(request("b"), { actor: "agent", callIndex: 1 });
    expect(m.syncs.requested).toBe(2);
    m.close();
    const logged = readLlmLog(path);
    expect(logged.map((e) => e.response.content)).toEqual(["call 0", "call 1"]);

    const resumed = new LoggedModel(live, path, "fake:echo", logged);
    await resumed.generate(request("a"), { actor: "agent", callIndex: 0 });
    expect(resumed.syncs).toEqual({ requested: 0, completed: 0 });
    resumed.close();
    expect(readFileSync(path, "utf8").trim().split("\n")).toHaveLength(2);
  }, 120_000);
});
