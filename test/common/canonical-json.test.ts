import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/common/canonical-json.js";

/** the definition canonicalJson had before it was written as one pass (request hashes and run ids rest on it) */
function reference(v: unknown): string {
  if (v === null || typeof v !== "object") {
    const s = JSON.stringify(v);
    return s === undefined ? "null" : s;
  }
  if (Array.isArray(v)) return `[${v.map((x) => (x === undefined ? "null" : reference(x))).join(",")}]`;
  const rec = v as Record<string, unknown>;
  const keys = Object.keys(rec)
    .filter((k) => rec[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${reference(rec[k])}`).join(",")}}`;
}

describe("canonicalJson", () => {
  it("exact values: sorted keys, undefined members dropped, undefined elements and non-JSON scalars as null", () => {
    expect(canonicalJson({ b: 1, a: [undefined, () => 1, "x"], c: undefined, "10": true, "9": null })).toBe(
      '{"10":true,"9":null,"a":[null,null,"x"],"b":1}',
    );
    // biome-ignore lint/suspicious/noSparseArray: a hole is part of what is defined
    expect(canonicalJson([1, , 3])).toBe("[1,,3]");
    expect(canonicalJson(new Date(0))).toBe("{}");
    expect(canonicalJson(undefined)).toBe("null");
    expect(() => canonicalJson({ a: 1n })).toThrow(TypeError);
  });

  it("property: the same text as the reference definition for any value (10,000 values)", () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBoxedValues: true,
          withMap: true,
          withSet: true,
          withNullPrototype: true,
          withObjectString: true,
          withSparseArray: true,
          withTypedArray: true,
          withDate: true,
          withBigInt: false,
          maxDepth: 4,
        }),
        (v) => {
          expect(canonicalJson(v)).toBe(reference(v));
        },
      ),
      { numRuns: 10_000, seed: 20261207 },
    );
  });

  it("property: JSON values of requests with keys in any order", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (obj) => {
        const reversed = Object.fromEntries(Object.entries(obj).reverse());
        expect(canonicalJson(reversed)).toBe(reference(obj));
        expect(JSON.parse(canonicalJson(obj))).toEqual(JSON.parse(JSON.stringify(obj)));
      }),
      { numRuns: 2_000, seed: 7 },
    );
  });
});
