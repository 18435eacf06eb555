import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { SlidingWindowLimiter } from "../../src/kernel/rate-limiter.js";
import { readLedger } from "../../src/ledger/ledger-reader.js";
import { LedgerWriter } from "../../src/ledger/ledger-writer.js";
import { Wallet } from "../../src/ledger/wallet.js";
import { defineTool, ok, reject } from "../../src/tools/tool.js";
import { ToolRuntime } from "../../src/tools/tool-runtime.js";
import { NotVisibleError } from "../../src/world/as-of-view.js";

function setup(budget = 1) {
  const path = join(mkdtempSync(join(tmpdir(), "relive-tools-")), "ledger.jsonl");
  const ledger = LedgerWriter.create(path);
  const wallet = new Wallet({ budget_usd: budget, domain_caps: {} });
  ledger.subscribe((e) => wallet.apply(e));
  let now = 1_000;
  const tools = [
    defineTool({
      name: "get_item",
      description: "reads an item",
      kind: "data",
      domain: "data",
      args: z.object({ id: z.string(), page: z.number().int().min(0).optional() }),
      price: () => 0.4,
      limiter: "api",
      run: ({ id }) => {
        if (id === "future") throw new NotVisibleError("item", id);
        return ok({ id });
      },
    }),
    defineTool({
      name: "claim",
      description: "commits",
      kind: "commit",
      args: z.object({ value: z.number() }),
      run: ({ value }) => (value < 0 ? reject("value must be ≥ 0") : ok({ accepted: true })),
    }),
  ];
  const rt = new ToolRuntime({
    tools,
    limiters: { api: new SlidingWindowLimiter({ limit: 2, windowMs: 60_000 }) },
    ledger,
    wallet,
    now: () => now,
  });
  return { rt, ledger, wallet, path, advance: (ms: number) => (now += ms) };
}

describe("tool runtime", () => {
  it("validates arguments with a message naming the field and the valid arguments, free", async () => {
    const { rt, wallet } = setup();
    const r = await rt.call("agent", "get_item", { id: 3 });
    expect(r).toEqual({
      ok: false,
      error:
        "invalid arguments for get_item: id: Invalid input: expected string, received number. Valid arguments: { id: string, page?: integer }",
    });
    expect(wallet.spent).toBe(0);
  });

  it("names the available tools for an unknown tool", async () => {
    const { rt } = setup();
    expect(await rt.call("agent", "nope", {})).toEqual({
      ok: false,
      error: 'unknown tool "nope"; available tools: get_item, claim',
    });
  });

  it("charges accepted priced calls, applies the shared limiter, refuses when the wallet is spent", async () => {
    const { rt, wallet, ledger, path, advance } = setup(0.5);
    expect((await rt.call("agent", "get_item", { id: "a" })).ok).toBe(true);
    expect(wallet.spent).toBe(0.4);
    // wallet not yet spent (0.4 < 0.5): the next call may overshoot by its own cost
    expect((await rt.call("agent", "get_item", { id: "b" })).ok).toBe(true);
    expect(wallet.spent).toBeCloseTo(0.8, 12);
    const refused = await rt.call("agent", "get_item", { id: "c" });
    expect(refused).toEqual({ ok: false, error: "get_item refused: budget exhausted: spent $0.8000 of $0.5" });
    advance(1);
    ledger.close();
    const ev = readLedger(path);
    expect(ev.map((e) => (e.type === "tool_call" ? e.status : e.type))).toEqual(["ok", "ok", "unpaid"]);
  });

  it("rate limits with a retry hint and charges nothing", async () => {
    const { rt, wallet } = setup(10);
    await rt.call("agent", "get_item", { id: "a" });
    await rt.call("agent", "get_item", { id: "b" });
    const r = await rt.call("agent", "get_item", { id: "c" });
    expect(r).toEqual({ ok: false, error: "rate limited (api): retry after 60 s" });
    expect(wallet.spent).toBeCloseTo(0.8, 12);
  });

  it("turns not-visible ids into free rejections with the view's exact message", async () => {
    const { rt, wallet } = setup();
    expect(await rt.call("agent", "get_item", { id: "future" })).toEqual({
      ok: false,
      error: 'unknown item id: "future"',
    });
    expect(wallet.spent).toBe(0);
  });

  it("ledgers accepted commitments and free rejections", async () => {
    const { rt, ledger, path } = setup();
    expect(await rt.call("agent", "claim", { value: -1 })).toEqual({ ok: false, error: "value must be ≥ 0" });
    await rt.call("agent", "claim", { value: 2 });
    ledger.close();
    const ev = readLedger(path);
    expect(ev.map((e) => e.type)).toEqual(["tool_call", "tool_call", "commitment"]);
    expect(ev[2]).toMatchObject({ type: "commitment", tool: "claim", args: { value: 2 } });
  });

  it("publishes JSON Schemas generated from zod", () => {
    const { rt } = setup();
    const doc = rt.docs().find((d) => d.name === "get_item")!;
    expect(doc.parameters).toMatchObject({ type: "object", required: ["id"], properties: { id: { type: "string" } } });
  });
});

describe("tool notices", () => {
  it("a handler's notes are ledgered right after its tool_call (and commitment) lines, also when it rejects", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "relive-notes-")), "ledger.jsonl");
    const ledger = LedgerWriter.create(path);
    const wallet = new Wallet({ budget_usd: 1, domain_caps: {} });
    const tool = defineTool({
      name: "act",
      description: "test",
      args: z.object({ fail: z.boolean() }).strict(),
      kind: "commit",
      run(a, c) {
        c.note?.("web_blocked", "GET https://x.example/");
        return a.fail ? reject("no") : ok(1);
      },
    });
    const rt = new ToolRuntime({ tools: [tool], limiters: {}, ledger, wallet, now: () => 5 });
    await rt.call("agent", "act", { fail: false });
    await rt.call("agent", "act", { fail: true });
    ledger.close();
    expect(readLedger(path).map((e) => `${e.type}${e.type === "tool_call" ? `:${e.status}` : ""}`)).toEqual([
      "tool_call:ok",
      "commitment",
      "note",
      "tool_call:rejected",
      "note",
    ]);
  });
});
