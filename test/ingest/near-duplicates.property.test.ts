import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { minHash, NearDuplicateIndex, shingles, similarity } from "../../src/ingest/near-duplicates.js";

const word = fc.constantFrom(
  ..."alpha beta gamma delta bank rate fed market vote court ruling deal oil war peace".split(" "),
);
const text = fc.array(word, { minLength: 3, maxLength: 60 }).map((w) => w.join(" "));

describe("NearDuplicateIndex (property)", () => {
  it("returns only kept texts at least `threshold` similar, and always finds an exact copy", () => {
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 1, maxLength: 12 }),
        fc.nat(),
        fc.double({ min: 0.3, max: 1, noNaN: true }),
        (kept, pick, th) => {
          const sigs = kept.map(minHash);
          const idx = new NearDuplicateIndex<number>(th);
          for (const [i, s] of sigs.entries()) idx.add(s, i);
          for (const probe of sigs) {
            const found = idx.find(probe);
            expect(found).not.toBeNull();
            expect(similarity(sigs[found as number] as Uint32Array, probe)).toBeGreaterThanOrEqual(th);
          }
          const other = minHash(`${kept[pick % kept.length]} zulu yankee xray whiskey victor`);
          const f = idx.find(other);
          if (f !== null) expect(similarity(sigs[f] as Uint32Array, other)).toBeGreaterThanOrEqual(th);
        },
      ),
      { numRuns: 200, seed: 7 },
    );
  });
});

describe("minHash", () => {
  const words = Array.from({ length: 100 }, (_, i) => `w${(i * 7919) % 1000}`);
  const jaccard = (a: Set<string>, b: Set<string>) =>
    [...a].filter((x) => b.has(x)).length / new Set([...a, ...b]).size;
  it("estimates the shingle Jaccard similarity (one-word edits of a 100-word text: all found at the default)", () => {
    const base = words.join(" ");
    const idx = new NearDuplicateIndex<string>();
    idx.add(minHash(base), "base");
    for (let j = 0; j < words.length; j++) {
      const edited = words.map((w, i) => (i === j ? "edit" : w)).join(" ");
      const est = similarity(minHash(base), minHash(edited));
      expect(Math.abs(est - jaccard(shingles(base), shingles(edited)))).toBeLessThan(0.1);
      expect(idx.find(minHash(edited))).toBe("base");
    }
    const other = Array.from({ length: 100 }, (_, i) => `v${(i * 104729) % 997}`).join(" ");
    expect(similarity(minHash(base), minHash(other))).toBeLessThan(0.05);
    expect(idx.find(minHash(other))).toBeNull();
  });
});
