import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HOUR_MS } from "../../../src/common/time.js";
import {
  brierSkill,
  referenceBrier,
  standingSegments,
  timeAverage,
  uniformForecast,
} from "../../../src/tasks/forecast-portfolio/brier.js";

describe("per-instant BSS = 1 − Σ (p_o − 1[o = y])² over named outcomes ∪ {truth}", () => {
  it("pins the spec's examples: {A: 0.65, B: 0.25} with truth A → 0.815; {B: 0.8} with truth A → −0.64", () => {
    expect(brierSkill({ A: 0.65, B: 0.25 }, "A")).toBeCloseTo(0.815, 15);
    expect(brierSkill({ B: 0.8 }, "A")).toBeCloseTo(-0.64, 15);
  });

  it("binary questions: an unnamed outcome counts as 0 and unassigned mass is not redistributed", () => {
    expect(brierSkill({ Yes: 0.7 }, "No")).toBeCloseTo(1 - 0.49 - 1, 15); // −0.49, not 1 − 2·0.49
    expect(brierSkill({ Yes: 0.7 }, "Yes")).toBeCloseTo(1 - 0.09, 15); // the unnamed No contributes 0
    expect(brierSkill({ Yes: 0.7, No: 0.3 }, "No")).toBeCloseTo(1 - 0.49 - 0.49, 15);
    expect(brierSkill({}, "Yes")).toBe(0);
    expect(brierSkill({ Yes: 1, No: 0 }, "Yes")).toBe(1);
    expect(brierSkill(uniformForecast(["Yes", "No"]), "No")).toBe(0.5);
  });

  it("property: summing over all of a question's outcomes (unnamed = 0) equals summing over named ∪ {truth}", () => {
    const outcomes = ["Yes", "No"];
    fc.assert(
      fc.property(
        fc.subarray(outcomes),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 2, maxLength: 2 }),
        fc.constantFrom(...outcomes),
        (named, ps, truth) => {
          const f = Object.fromEntries(named.map((o, i) => [o, ps[i]!]));
          const overAll = 1 - outcomes.reduce((s, o) => s + ((f[o] ?? 0) - (o === truth ? 1 : 0)) ** 2, 0);
          expect(brierSkill(f, truth)).toBeCloseTo(overAll, 12);
        },
      ),
    );
  });

  it("BS_ref = 2b(1 − b) is the two-outcome Brier score of the base-rate forecaster", () => {
    expect(referenceBrier(0.5)).toBe(0.5);
    expect(referenceBrier(1 / 3)).toBeCloseTo(4 / 9, 15);
    expect(referenceBrier(0)).toBe(0);
    const b = 0.3;
    const bs =
      b * (1 - brierSkill({ Yes: b, No: 1 - b }, "Yes")) + (1 - b) * (1 - brierSkill({ Yes: b, No: 1 - b }, "No"));
    expect(referenceBrier(b)).toBeCloseTo(bs, 15);
  });
});

describe("time integration of the piecewise-constant standing forecast", () => {
  const h = (n: number) => n * HOUR_MS;

  it("hand-worked: uniform 2 h, {Yes 0.8, No 0.2} 4 h, {Yes 1} 4 h over 10 h with truth Yes → 0.868", () => {
    const segs = standingSegments(0, h(10), uniformForecast(["Yes", "No"]), [
      { t: h(2), forecast: { Yes: 0.8, No: 0.2 } },
      { t: h(6), forecast: { Yes: 1 } },
    ]);
    expect(segs.map((s) => [s.from, s.to, s.default])).toEqual([
      [0, h(2), true],
      [h(2), h(6), false],
      [h(6), h(10), false],
    ]);
    // (0.5·2 + 0.92·4 + 1·4) / 10
    expect(timeAverage(segs, "Yes")).toBeCloseTo(0.868, 15);
    // truth No: (0.5·2 + (1 − 0.8² − 0.8²)·4 + (1 − 1² − 1²)·4) / 10 = (1 − 1.12 − 4) / 10
    expect(timeAverage(segs, "No")).toBeCloseTo(-0.412, 15);
  });

  it("changes before the start set the standing forecast, changes at or after the end are ignored, the last of equal instants wins", () => {
    const segs = standingSegments(h(1), h(3), uniformForecast(["Yes", "No"]), [
      { t: 0, forecast: { Yes: 0.9, No: 0.1 } },
      { t: h(2), forecast: { Yes: 0.1 } },
      { t: h(2), forecast: { Yes: 0.6, No: 0.4 } },
      { t: h(3), forecast: { No: 1 } },
    ]);
    expect(segs).toEqual([
      { from: h(1), to: h(2), forecast: { Yes: 0.9, No: 0.1 }, default: false },
      { from: h(2), to: h(3), forecast: { Yes: 0.6, No: 0.4 }, default: false },
    ]);
    expect(() => standingSegments(h(1), h(1), {}, [])).toThrow(/empty interval/);
  });

  it("property: the time average of a constant forecast is its instant BSS, and TA ∈ [min, max] of the segments", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 999 }), fc.double({ min: 0, max: 1, noNaN: true })), {
          maxLength: 8,
        }),
        fc.constantFrom("Yes", "No"),
        (raw, truth) => {
          const changes = raw
            .map(([t, p]) => ({ t: t * 60_000, forecast: { Yes: p, No: 1 - p } }))
            .sort((a, b) => a.t - b.t);
          const segs = standingSegments(0, 1000 * 60_000, uniformForecast(["Yes", "No"]), changes);
          const vals = segs.map((s) => brierSkill(s.forecast, truth));
          const ta = timeAverage(segs, truth);
          expect(ta).toBeGreaterThanOrEqual(Math.min(...vals) - 1e-12);
          expect(ta).toBeLessThanOrEqual(Math.max(...vals) + 1e-12);
          expect(segs.reduce((s, x) => s + (x.to - x.from), 0)).toBe(1000 * 60_000);
        },
      ),
    );
  });
});
