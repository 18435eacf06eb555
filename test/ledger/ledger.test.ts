import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dailyBrief } from "../../src/ledger/daily-brief.js";
import { readLedger, readLedgerLines } from "../../src/ledger/ledger-reader.js";
import { LedgerDivergenceError, LedgerWriter } from "../../src/ledger/ledger-writer.js";
import { Wallet } from "../../src/ledger/wallet.js";

const tmp = () => mkdtempSync(join(tmpdir(), "relive-ledger-"));

const call = (t: number, cost: number, domain = "data") =>
  ({
    type: "tool_call",
    t,
    actor: "agent",
    tool: "get_post",
    args: { id: "p1" },
    status: "ok",
    cost_usd: cost,
    domain,
  }) as const;

describe("ledger writer and reader", () => {
  it("assigns seq, writes one JSON line per event before append returns, reads back validated", () => {
    const path = join(tmp(), "ledger.jsonl");
    const w = LedgerWriter.create(path);
    w.append(call(1000, 0.5));
    w.append({ type: "note", t: 1000, kind: "x", message: "hello" });
    // acknowledged = written: visible to a reader before close
    expect(readLedgerLines(path)).toHaveLength(2);
    w.close();
    const ev = readLedger(path);
    expect(ev.map((e) => e.seq)).toEqual([0, 1]);
    expect(ev[0]).toMatchObject({ type: "tool_call", cost_usd: 0.5 });
  });

  it("refuses to create over an existing ledger", () => {
    const path = join(tmp(), "ledger.jsonl");
    LedgerWriter.create(path).close();
    expect(() => LedgerWriter.create(path)).toThrow(/EEXIST/);
  });

  it("drops a torn last line and repairs the file on request", () => {
    const path = join(tmp(), "ledger.jsonl");
    const w = LedgerWriter.create(path);
    w.append(call(1, 0));
    w.close();
    appendFileSync(path, '{"seq":1,"t":2,"type":"no');
    expect(readLedgerLines(path)).toHaveLength(1);
    readLedgerLines(path, { repair: true });
    expect(readFileSync(path, "utf8").endsWith("\n")).toBe(true);
    expect(readLedger(path)).toHaveLength(1);
  });

  it("names the line and field of an invalid event", () => {
    const path = join(tmp(), "ledger.jsonl");
    writeFileSync(path, `${JSON.stringify({ seq: 0, t: 1, type: "tool_call", actor: "a" })}\n`);
    expect(() => readLedger(path)).toThrow(/ledger.jsonl:1: not a valid ledger event: tool/);
  });

  it("verify mode compares the recorded prefix, then appends; a difference throws", () => {
    const path = join(tmp(), "ledger.jsonl");
    const w = LedgerWriter.create(path);
    w.append(call(1, 0.1));
    w.append(call(2, 0.1));
    w.close();
    const recorded = readLedgerLines(path);
    const v = LedgerWriter.verifying(path, recorded);
    expect(v.replaying).toBe(true);
    v.append(call(1, 0.1));
    v.append(call(2, 0.1));
    expect(v.replaying).toBe(false);
    v.append(call(3, 0.1));
    v.close();
    expect(readLedger(path).map((e) => e.t)).toEqual([1, 2, 3]);

    const bad = LedgerWriter.verifying(path, readLedgerLines(path));
    expect(() => bad.append(call(1, 0.2))).toThrow(LedgerDivergenceError);
  });
});

describe("wallet", () => {
  it("derives spend from events and refuses once the budget or a domain cap is spent", () => {
    const w = new Wallet({ budget_usd: 1, domain_caps: { llm: 0.5 } });
    expect(w.refusal("data")).toBeNull();
    w.apply({ ...call(1, 0.6), seq: 0 });
    expect(w.spent).toBeCloseTo(0.6, 12);
    w.apply({
      seq: 1,
      t: 2,
      type: "llm_call",
      actor: "agent",
      model: "m",
      call_index: 0,
      attempt: 1,
      status: "ok",
      input_tokens: 1,
      cached_input_tokens: 0,
      output_tokens: 1,
      cost_usd: 0.5,
    });
    expect(w.refusal("llm")).toMatch(/budget exhausted/);
    expect(w.spentIn("llm")).toBe(0.5);
    expect(w.overshoot).toBeCloseTo(0.1, 12);
    expect(w.spendByType()).toEqual({ llm: 0.5, "tool:get_post": 0.6 });
  });

  it("rejected and free calls cost nothing", () => {
    const w = new Wallet({ budget_usd: 1, domain_caps: {} });
    w.apply({ ...call(1, 0), seq: 0, status: "rejected", error: "x" });
    expect(w.spent).toBe(0);
  });
});

describe("daily brief", () => {
  it("renders the day, spend and what is left", () => {
    const w = new Wallet({ budget_usd: 20, domain_caps: { llm: 20 } });
    w.apply({ ...call(1, 1.25), seq: 0 });
    const b = dailyBrief(86_400_000, 2, 28, w);
    expect(b).toMatchObject({ type: "daily_brief", day: 2, days: 28, spent_usd: 1.25, left_usd: 18.75 });
    expect((b as { text: string }).text).toBe(
      "day 2 of 28: spent $1.2500 of $20.0000 ($18.7500 left); LLM $0.0000 of $20.0000 ($20.0000 left); by type: tool:get_post $1.2500",
    );
  });
});
