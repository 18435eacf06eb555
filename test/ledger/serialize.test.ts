import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { LedgerEvent } from "../../src/ledger/events.js";
import { LedgerDivergenceError, LedgerWriter } from "../../src/ledger/ledger-writer.js";
import { CURRENT_LEDGER_VERSION, ledgerVersionOf, serializeEvent } from "../../src/ledger/serialize.js";

const call = (order: "a" | "b"): LedgerEvent =>
  order === "a"
    ? {
        seq: 3,
        type: "tool_call",
        t: 5,
        actor: "agent",
        tool: "x",
        args: { b: 1, a: 2 },
        status: "ok",
        cost_usd: 0,
        domain: "d",
      }
    : {
        domain: "d",
        cost_usd: 0,
        status: "ok",
        args: { a: 2, b: 1 },
        tool: "x",
        actor: "agent",
        t: 5,
        type: "tool_call",
        seq: 3,
      };

describe("ledger serializer", () => {
  it("version 2 fixes the key order whatever the object literal's order; nested values are canonical", () => {
    const line =
      '{"seq":3,"t":5,"type":"tool_call","actor":"agent","tool":"x","args":{"a":2,"b":1},"status":"ok","cost_usd":0,"domain":"d"}';
    expect(serializeEvent(call("a"), 2)).toBe(line);
    expect(serializeEvent(call("b"), 2)).toBe(line);
  });

  it("version 1 is the literal's own order (so version-1 ledgers verify byte for byte)", () => {
    expect(serializeEvent(call("a"), 1)).toBe(JSON.stringify(call("a")));
    expect(serializeEvent(call("b"), 1)).not.toBe(serializeEvent(call("a"), 1));
  });

  it("refuses fields outside the event's schema", () => {
    expect(() => serializeEvent({ ...call("a"), extra: 1 } as unknown as LedgerEvent, 2)).toThrow(
      /outside its schema: extra/,
    );
  });

  it("reads the version from run_start (absent = 1) and verifies a version-1 ledger with the version-1 serializer", () => {
    expect(ledgerVersionOf('{"seq":0,"type":"run_start"}')).toBe(1);
    expect(ledgerVersionOf('{"seq":0,"type":"note"}')).toBe(CURRENT_LEDGER_VERSION);
    expect(ledgerVersionOf('{"seq":0,"t":0,"type":"run_start","ledger_version":2}')).toBe(2);
    expect(ledgerVersionOf(undefined)).toBe(CURRENT_LEDGER_VERSION);
    expect(() => ledgerVersionOf('{"ledger_version":9}')).toThrow(/newer than this relive/);
    const dir = mkdtempSync(join(tmpdir(), "relive-ser-"));
    const path = join(dir, "ledger.jsonl");
    const start = {
      type: "run_start",
      t: 0,
      run_id: "r",
      task: "t",
      task_version: "1",
      episode: "e",
      sim_start: 0,
      sim_end: 1,
      seed: 0,
      agent: "a",
      trigger: "sleep",
      world_hash: "h",
      budget_usd: 1,
    } as const;
    // a version-1 line: the literal's order with seq first, no ledger_version
    const v1 = [
      JSON.stringify({ seq: 0, ...start }),
      JSON.stringify({ seq: 1, type: "note", t: 0, kind: "k", message: "m" }),
    ];
    writeFileSync(path, `${v1.join("\n")}\n`);
    const w = LedgerWriter.verifying(path, v1);
    expect(w.version).toBe(1);
    w.append(start);
    w.append({ type: "note", t: 0, kind: "k", message: "m" });
    w.close();
    // the same events in another literal order diverge from a version-1 record
    const w2 = LedgerWriter.verifying(path, v1);
    w2.append(start);
    expect(() => w2.append({ message: "m", kind: "k", t: 0, type: "note" })).toThrow(LedgerDivergenceError);
    w2.close();
  });
});
