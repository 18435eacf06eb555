import { describe, expect, it } from "vitest";
import { LedgerEvent } from "../../src/ledger/events.js";
import { serializeEvent } from "../../src/ledger/serialize.js";

describe("outcome events carry released_at", () => {
  const base = { seq: 3, t: 1000, type: "outcome" as const, key: "bp:x", status: "miss", credit: 0, detail: { a: 1 } };

  it("version 2 writes it in schema order, after credit and before detail", () => {
    expect(serializeEvent({ ...base, released_at: 2000 }, 2)).toBe(
      '{"seq":3,"t":1000,"type":"outcome","key":"bp:x","status":"miss","credit":0,"released_at":2000,"detail":{"a":1}}',
    );
  });

  it("a line from an older ledger (no released_at) still parses, and serializes as before", () => {
    const old = '{"seq":3,"t":1000,"type":"outcome","key":"bp:x","status":"miss","credit":0,"detail":{"a":1}}';
    const e = LedgerEvent.parse(JSON.parse(old));
    expect(e).toEqual(base);
    expect(serializeEvent(e, 2)).toBe(old);
  });
});
