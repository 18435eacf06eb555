import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, bootstrapMeanCi } from "../../../src/report/stats/bootstrap.js";
import { quantileSorted } from "../../../src/report/stats/summary.js";

describe("percentile bootstrap CI of the mean", () => {
  const xs = [0.2, 0.5, 0.9, 0.4, 0.7];

  it("is deterministic for the fixed seed and pinned", () => {
    expect(BOOTSTRAP_RESAMPLES).toBe(10_000);
    const a = bootstrapMeanCi(xs);
    expect(bootstrapMeanCi([...xs])).toEqual(a);
    expect(bootstrapMeanCi(xs, { seed: BOOTSTRAP_SEED })).toEqual(a);
    // pinned: a change of generator, seed, resampling or quantile rule shows here
    expect(a).toEqual({ lo: 0.33999999999999997, hi: 0.74 });
  });

  it("changes with the seed", () => {
    expect(bootstrapMeanCi(xs, { seed: 7 })).toEqual({ lo: 0.33999999999999997, hi: 0.76 });
    expect(bootstrapMeanCi(xs, { seed: 7 })).not.toEqual(bootstrapMeanCi(xs));
  });

  it("gives [0, 1] for the sample {0, 1} (resampled means 0, ½, 1 with mass ¼, ½, ¼)", () => {
    expect(bootstrapMeanCi([0, 1])).toEqual({ lo: 0, hi: 1 });
  });

  it("has no interval below two values, and a point interval for a constant sample", () => {
    expect(bootstrapMeanCi([])).toBeNull();
    expect(bootstrapMeanCi([0.3])).toBeNull();
    expect(bootstrapMeanCi([0.3, 0.3, 0.3])).toEqual({ lo: 0.3, hi: 0.3 });
  });

  it("is close to the normal-theory interval for a larger sample", () => {
    const sample = Array.from({ length: 40 }, (_, i) => Math.sin(i * 1.7) + i / 40);
    const m = sample.reduce((s, x) => s + x, 0) / sample.length;
    const sd = Math.sqrt(sample.reduce((s, x) => s + (x - m) ** 2, 0) / sample.length);
    const half = (1.96 * sd) / Math.sqrt(sample.length);
    const ci = bootstrapMeanCi(sample)!;
    expect(Math.abs(ci.lo - (m - half))).toBeLessThan(0.1 * half);
    expect(Math.abs(ci.hi - (m + half))).toBeLessThan(0.1 * half);
  });

  it("lies within the sample's range and brackets nothing outside it (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -100, max: 100, noNaN: true }), { minLength: 2, maxLength: 12 }), (s) => {
        const ci = bootstrapMeanCi(s, { resamples: 500 })!;
        expect(ci.lo).toBeLessThanOrEqual(ci.hi);
        expect(ci.lo).toBeGreaterThanOrEqual(Math.min(...s) - 1e-9);
        expect(ci.hi).toBeLessThanOrEqual(Math.max(...s) + 1e-9);
      }),
      { numRuns: 50 },
    );
  });

  it("uses type-7 quantiles", () => {
    expect(quantileSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantileSorted([1, 2, 3, 4], 0.025)).toBeCloseTo(1.075, 12);
    expect(quantileSorted([5], 0.975)).toBe(5);
  });
});
