import fc from "fast-check";
import { Tiktoken } from "js-tiktoken/lite";
import cl100k from "js-tiktoken/ranks/cl100k_base";
import { describe, expect, it } from "vitest";
import { countTokens } from "../../src/agent/token-counter.js";

const fresh = new Tiktoken(cl100k);

describe("countTokens", () => {
  it("property: the cl100k count of the text, whether or not the same text was counted before", () => {
    const piece = fc.string({ unit: fc.constantFrom(...'ab Z9{}":,.\n é中', "🙂"), maxLength: 400, size: "max" });
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        (texts, picks) => {
          // long texts (remembered) and short ones, each asked again in a random order
          const all = texts.map((t, i) => (i % 2 === 0 ? t.repeat(3) : t));
          for (const p of [...all.keys(), ...picks]) {
            const t = all[p % all.length] as string;
            expect(countTokens(t)).toBe(fresh.encode(t).length);
          }
        },
      ),
      { numRuns: 40, seed: 5 },
    );
  });
});
