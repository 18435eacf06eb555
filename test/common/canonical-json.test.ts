import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/common/canonical-json.js";
import type { LedgerEvent } from "../../src/ledger/events.js";
import { serializeEvent } from "../../src/ledger/serialize.js";

/** the first implementation (arrays and join), kept as the reference the faster one must equal byte for byte */
function referenceCanonicalJson(v: unknown): string {
  if (v === null || typeof v !== "object") {
    const s = JSON.stringify(v);
    return s === undefined ? "null" : s;
  }
  if (Array.isArray(v)) return `[${v.map((x) => (x === undefined ? "null" : referenceCanonicalJson(x))).join(",")}]`;
  const rec = v as Record<string, unknown>;
  const keys = Object.keys(rec)
    .filter((k) => rec[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${referenceCanonicalJson(rec[k])}`).join(",")}}`;
}

/** keys that sort differently as strings and as numbers, need escaping, or sit outside the BMP */
const key = fc.oneof(
  fc.constantFrom("a", "b", "B", "_", "10", "2", "0", "é", "\u{1F600}", 'q"uote', "back\\slash", "", "constructor"),
  fc.string({ maxLength: 4 }),
);
const leaf = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, Number.NaN, Number.POSITIVE_INFINITY, 1e21, 1e-7),
  fc.string({ maxLength: 6 }),
  fc.constant(() => 1),
);
const value = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(tie("v"), { maxLength: 5 }),
    // sparse arrays: a hole is empty in the output, an undefined element is null
    fc.sparseArray(tie("v"), { maxLength: 5 }),
    fc.dictionary(key, tie("v"), { maxKeys: 6 }),
    // more keys than the in-place sort takes
    fc.dictionary(key, leaf, { minKeys: 17, maxKeys: 24 }),
  ),
})).v;

describe("canonical JSON", () => {
  it("equals the reference implementation byte for byte (keys sorted, undefined dropped, holes empty)", () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(canonicalJson(v)).toBe(referenceCanonicalJson(v));
      }),
      { numRuns: 3000 },
    );
  });

  it("sorts keys as strings whatever order they arrive in", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, undefined, { z: 1, y: 2 }], c: undefined }, 10: 0, 2: 0 })).toBe(
      '{"10":0,"2":0,"a":{"d":[3,null,{"y":2,"z":1}]},"b":1}',
    );
    const sparse = [1, 2, 3];
    delete sparse[1];
    expect(canonicalJson(sparse)).toBe("[1,,3]");
    expect(canonicalJson([1, undefined, 3])).toBe("[1,null,3]");
  });

  it("ledger lines: version 2 equals schema order + the reference canonical JSON of each field", () => {
    const event = (args: unknown) =>
      ({
        domain: "d",
        cost_usd: 0,
        status: "ok",
        args,
        tool: "x",
        actor: "agent",
        t: 5,
        type: "tool_call",
        seq: 3,
      }) as unknown as LedgerEvent;
    const order = ["seq", "t", "type", "actor", "tool", "args", "status", "cost_usd", "domain"];
    fc.assert(
      fc.property(value, (args) => {
        const e = event(args) as unknown as Record<string, unknown>;
        const want = `{${order
          .filter((k) => e[k] !== undefined)
          .map((k) => `${JSON.stringify(k)}:${referenceCanonicalJson(e[k])}`)
          .join(",")}}`;
        expect(serializeEvent(event(args), 2)).toBe(want);
      }),
      { numRuns: 1000 },
    );
  });
});
