import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RowDigest } from "../../src/world/row-digest.js";

describe("RowDigest", () => {
  it("addParts(a, b, c) is add(a + b + c) (the news key digested without building it)", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string(), fc.string(), fc.string())), (keys) => {
        const whole = new RowDigest();
        const parts = new RowDigest();
        for (const [a, b, c] of keys) {
          whole.add(a + b + c);
          parts.addParts(a, b, c);
        }
        expect(parts.toString()).toBe(whole.toString());
      }),
      { numRuns: 300 },
    );
    const d = new RowDigest();
    d.addParts("n1", "\u0001", String(1_700_000_000_000));
    const e = new RowDigest();
    e.add(`n1\u0001${1_700_000_000_000}`);
    expect(d.toString()).toBe(e.toString());
  });
});
