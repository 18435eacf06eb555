import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HOUR_MS } from "../../../src/common/time.js";
import { prefixDenominators, recallDenominator } from "../../../src/tasks/popularity/scorer.js";

describe("prefixDenominators", () => {
  it("entry k is recallDenominator of the first k creation instants, for any ascending list and cap", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 20 * HOUR_MS }), { maxLength: 80 }),
        fc.integer({ min: 1, max: 6 }),
        (gaps, cap) => {
          let t = Date.parse("2026-03-01T00:00:00Z");
          const created = gaps.map((g) => (t += g));
          const prefix = prefixDenominators(created, cap);
          expect(prefix).toHaveLength(created.length + 1);
          expect(prefix).toEqual(prefix.map((_, k) => recallDenominator(created.slice(0, k), cap)));
        },
      ),
    );
  });
});
