import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  f1Of,
  integrateSteps,
  meanOf,
  medianOf,
  precisionOf,
  quantileOf,
  recallOf,
  sumOf,
  timeAverageOf,
} from "../../src/tasks/metrics.js";

describe("metrics: the not_scorable conventions of tasks.md", () => {
  it("precision 0 without claims, recall null without a denominator, F1 0 when both are 0", () => {
    expect(precisionOf(0, 0)).toBe(0);
    expect(precisionOf(1, 4)).toBe(0.25);
    expect(recallOf(3, 0)).toBeNull();
    expect(recallOf(1, 2)).toBe(0.5);
    expect(f1Of(0.5, null)).toBeNull();
    expect(f1Of(0, 0)).toBe(0);
    expect(f1Of(0.25, 0.25)).toBe(0.25);
    expect(f1Of(0.5, 1)).toBe(2 / 3);
  });
});

describe("metrics: sums, means, medians, quantiles", () => {
  it("exact values; null for empty samples", () => {
    expect(sumOf([0.1, 0.2, 0.3])).toBe(0.1 + 0.2 + 0.3);
    expect(meanOf([])).toBeNull();
    expect(meanOf([1, 2, 4])).toBe(7 / 3);
    expect(medianOf([])).toBeNull();
    expect(medianOf([5, 1, 3])).toBe(3);
    expect(medianOf([4, 1, 3, 2])).toBe(2.5);
    expect(quantileOf([], 0.5)).toBeNull();
    expect(quantileOf([1, 2, 3, 4], 0.9)).toBeCloseTo(3.7, 12);
    expect(() => quantileOf([1], 1.5)).toThrow(/quantile must be in \[0, 1\]/);
  });

  it("property: sums and means run in index order (bit-identical to a left fold)", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 40 }), (xs) => {
        const fold = xs.reduce((s, x) => s + x, 0);
        expect(sumOf(xs)).toBe(fold);
        expect(meanOf(xs)).toBe(fold / xs.length);
      }),
      { seed: 7, numRuns: 200 },
    );
  });
});

describe("metrics: exact time-integrals of piecewise-constant series", () => {
  const steps = [
    { from: 0, to: 10, value: 1 },
    { from: 10, to: 10, value: 99 },
    { from: 10, to: 40, value: -0.5 },
  ];

  it("integrates piece by piece, clipped to the interval; zero-length pieces add nothing", () => {
    expect(integrateSteps(steps)).toEqual({ ms: 40, integral: 10 - 15 });
    expect(integrateSteps(steps, 5, 20)).toEqual({ ms: 15, integral: 5 - 5 });
    expect(integrateSteps(steps, 50, 60)).toEqual({ ms: 0, integral: 0 });
    expect(timeAverageOf(steps)).toBe(-5 / 40);
    expect(timeAverageOf(steps, 0, 10)).toBe(1);
    expect(timeAverageOf(steps, 50, 60)).toBeNull();
  });

  it("property: the time average of contiguous pieces equals Σ value·length / span, left to right", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ len: fc.integer({ min: 1, max: 1e6 }), value: fc.double({ min: -1, max: 1, noNaN: true }) }),
          {
            minLength: 1,
            maxLength: 20,
          },
        ),
        (raw) => {
          let t = 1_700_000_000_000;
          const pieces = raw.map((r) => {
            const p = { from: t, to: t + r.len, value: r.value };
            t += r.len;
            return p;
          });
          let acc = 0;
          for (const p of pieces) acc += p.value * (p.to - p.from);
          expect(timeAverageOf(pieces)).toBe(acc / (t - pieces[0]!.from));
        },
      ),
      { seed: 11, numRuns: 200 },
    );
  });
});
