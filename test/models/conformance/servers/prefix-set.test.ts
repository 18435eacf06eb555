import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lcp, PrefixSet } from "./prefix-set.js";

describe("PrefixSet: the longest common prefix of a text with any earlier one", () => {
  it("exact values", () => {
    const s = new PrefixSet();
    expect(s.add("abcdef")).toBe(0);
    expect(s.add("abcxyz")).toBe(3);
    expect(s.add("abcdeZ")).toBe(5);
    expect(s.add("b")).toBe(0);
    expect(s.add("abcdef")).toBe(6);
    expect(s.add("")).toBe(0);
  });

  it("property: the same as comparing with every earlier text", () => {
    // requests as a conversation grows: most texts continue or cut an earlier one
    const step = fc.record({
      from: fc.nat(),
      cut: fc.nat(),
      tail: fc.string({ unit: fc.constantFrom("a", "b", "]", "é", "🙂") }),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => {
        const set = new PrefixSet();
        const seen: string[] = [];
        for (const x of steps) {
          const base = seen.length ? (seen[x.from % seen.length] as string) : "";
          const text = base.slice(0, x.cut % (base.length + 1)) + x.tail;
          const want = seen.reduce((m, p) => Math.max(m, lcp(p, text)), 0);
          expect(set.add(text)).toBe(want);
          seen.push(text);
        }
      }),
      { numRuns: 500, seed: 11 },
    );
  });
});
