import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type AnovaObservation, twoWayAnova } from "../../../src/report/stats/anova.js";

const design = (cells: Record<string, number[]>): AnovaObservation[] =>
  Object.entries(cells).flatMap(([k, ys]) => {
    const [a, b] = k.split("|") as [string, string];
    return ys.map((y) => ({ a, b, y }));
  });

/**
 * Upper tail of F(1, 8), by hand: F(1, ν) = T_ν², and for even ν the t distribution has the
 * closed form P(|T| < t) = sin θ · (1 + ½ cos²θ + (1·3)/(2·4) cos⁴θ + (1·3·5)/(2·4·6) cos⁶θ)
 * with θ = atan(t / √ν); with t² = F: sin θ = √(F / (F + 8)), cos²θ = 8 / (F + 8).
 */
const fTail1x8 = (F: number) => {
  const c2 = 8 / (F + 8);
  return 1 - Math.sqrt(F / (F + 8)) * (1 + c2 / 2 + (3 / 8) * c2 ** 2 + (5 / 16) * c2 ** 3);
};
/** Upper tail of F(2, 8), by hand: P(F > f) = (1 + 2f/8)^(−8/2). */
const fTail2x8 = (F: number) => (1 + F / 4) ** -4;

describe("two-way ANOVA with repetitions (Type II SS)", () => {
  it("matches a hand-worked balanced 2 × 2 × 3 example exactly", () => {
    // cells (model A1/A2 × trigger B1/B2, three seeds each) and their means:
    //   A1B1: 2, 4, 6  → 4     A1B2: 5, 7, 9  → 7
    //   A2B1: 8, 10, 12 → 10   A2B2: 7, 9, 11 → 9
    // grand mean 7.5; A means 5.5, 9.5; B means 7, 8.
    // SS_A  = b·n·Σ(Ā − Ḡ)² = 2·3·(2² + 2²)        = 48
    // SS_B  = a·n·Σ(B̄ − Ḡ)² = 2·3·(0.5² + 0.5²)    = 3
    // interaction residuals (cell − Ā − B̄ + Ḡ): −1, +1, +1, −1 → SS_AB = 3·4 = 12
    // within cells: deviations (−2, 0, 2) → 8 per cell → SS_E = 32, df_E = 12 − 4 = 8, MS_E = 4
    // total = 48 + 3 + 12 + 32 = 95 (balanced: Type II = classical)
    // F_A = 48/4 = 12, F_B = 3/4 = 0.75, F_AB = 12/4 = 3, each on (1, 8) df
    // p_A = 1 − 1.28·√0.6 = 0.00851626337090…  (cos²θ = 0.4: 1 + 0.2 + 0.06 + 0.02 = 1.28)
    const a = twoWayAnova(
      design({ "A1|B1": [2, 4, 6], "A1|B2": [5, 7, 9], "A2|B1": [8, 10, 12], "A2|B2": [7, 9, 11] }),
    );
    expect(a.balanced).toBe(true);
    expect(a.noVariance).toBe(false);
    expect(a.levels).toEqual({ a: ["A1", "A2"], b: ["B1", "B2"] });
    expect(a.total.ss).toBeCloseTo(95, 10);
    expect(a.total.df).toBe(11);
    expect(a.a.ss).toBeCloseTo(48, 10);
    expect(a.b.ss).toBeCloseTo(3, 10);
    expect(a.ab.ss).toBeCloseTo(12, 10);
    expect(a.residual.ss).toBeCloseTo(32, 10);
    expect([a.a.df, a.b.df, a.ab.df, a.residual.df]).toEqual([1, 1, 1, 8]);
    expect(a.a.share).toBeCloseTo(48 / 95, 12);
    expect(a.b.share).toBeCloseTo(3 / 95, 12);
    expect(a.ab.share).toBeCloseTo(12 / 95, 12);
    expect(a.residual.share).toBeCloseTo(32 / 95, 12);
    expect(a.a.f).toBeCloseTo(12, 10);
    expect(a.b.f).toBeCloseTo(0.75, 10);
    expect(a.ab.f).toBeCloseTo(3, 10);
    expect(1 - 1.28 * Math.sqrt(0.6)).toBeCloseTo(fTail1x8(12), 15);
    // jStat's continued fraction stops at a relative step of 3e-7: p-values agree to ~1e-9
    expect(a.a.p).toBeCloseTo(fTail1x8(12), 8);
    expect(a.b.p).toBeCloseTo(fTail1x8(0.75), 8);
    expect(a.ab.p).toBeCloseTo(fTail1x8(3), 8);
    expect(Math.abs(a.a.p! - 0.0085162633709013)).toBeLessThan(1e-9);
  });

  it("handles an unbalanced 3 × 2 design with Type II sums of squares", () => {
    // model m1/m2/m3 × trigger s/c with 3/2, 2/4, 1/2 seeds. Type II by model comparison:
    // SS(model | trigger) = RSS(1+T) − RSS(1+M+T), etc. Exact values (rational arithmetic, and
    // the same figures from numpy.linalg.lstsq + scipy.stats.f.sf):
    // SS_M = 2785/48, SS_T = 245/16, SS_MT = 73/48, SS_E = 38/3 (df 8), SS_total = 1385/14
    const a = twoWayAnova(
      design({ "m1|s": [1, 2, 4], "m1|c": [3, 5], "m2|s": [6, 5], "m2|c": [9, 7, 8, 10], "m3|s": [2], "m3|c": [4, 3] }),
    );
    expect(a.balanced).toBe(false);
    expect(a.a.ss).toBeCloseTo(2785 / 48, 10);
    expect(a.b.ss).toBeCloseTo(245 / 16, 10);
    expect(a.ab.ss).toBeCloseTo(73 / 48, 10);
    expect(a.residual.ss).toBeCloseTo(38 / 3, 10);
    expect(a.total.ss).toBeCloseTo(1385 / 14, 10);
    expect([a.a.df, a.b.df, a.ab.df, a.residual.df]).toEqual([2, 1, 2, 8]);
    // MS_E = 38/24; F_M = (2785/96)/(38/24) = 2785/152, F_T = 5880/608, F_MT = 73/152
    expect(a.a.f).toBeCloseTo(2785 / 152, 10);
    expect(a.b.f).toBeCloseTo(5880 / 608, 10);
    expect(a.ab.f).toBeCloseTo(73 / 152, 10);
    expect(a.a.p).toBeCloseTo(fTail2x8(2785 / 152), 8);
    expect(a.b.p).toBeCloseTo(fTail1x8(5880 / 608), 8);
    expect(a.ab.p).toBeCloseTo(fTail2x8(73 / 152), 8);
    expect(a.ab.p).toBeCloseTo(0.6353687774737726, 8);
    // unbalanced: the Type II terms do not add up to the total
    expect(a.a.ss + a.b.ss + a.ab.ss + a.residual.ss).not.toBeCloseTo(a.total.ss, 3);
  });

  it("says 'no variance' (no share, no F) when every score is equal", () => {
    const a = twoWayAnova(design({ "x|s": [0.5, 0.5], "x|c": [0.5, 0.5], "y|s": [0.5, 0.5], "y|c": [0.5, 0.5] }));
    expect(a.noVariance).toBe(true);
    for (const t of [a.a, a.b, a.ab]) expect(t).toMatchObject({ ss: 0, share: null, f: null, p: null });
    expect(a.residual).toMatchObject({ ss: 0, share: null, df: 4 });
  });

  it("gives an infinite F (p = 0) when seeds agree within cells but models differ", () => {
    const a = twoWayAnova(design({ "x|s": [1, 1], "x|c": [1, 1], "y|s": [0, 0], "y|c": [0, 0] }));
    expect(a.a).toMatchObject({ ss: 2, df: 1, share: 1, f: Number.POSITIVE_INFINITY, p: 0 });
    expect(a.b).toMatchObject({ ss: 0, share: 0, f: null, p: null });
    expect(a.residual).toMatchObject({ ss: 0, df: 4, share: 0 });
  });

  it("leaves F undefined with one seed per cell, and loses interaction df to an empty cell", () => {
    const single = twoWayAnova(design({ "x|s": [1], "x|c": [2], "y|s": [4], "y|c": [3] }));
    expect(single.residual.df).toBe(0);
    expect(single.a.f).toBeNull();
    expect(single.a.ss).toBeCloseTo(4, 12);
    const empty = twoWayAnova(design({ "x|s": [1, 2], "x|c": [2, 3], "y|s": [4, 6] }));
    expect(empty.ab.df).toBe(0);
    expect(empty.residual.df).toBe(3);
    // a single model: its term has no df
    const oneModel = twoWayAnova(design({ "x|s": [1, 2], "x|c": [3, 5] }));
    expect(oneModel.a).toMatchObject({ ss: 0, df: 0, f: null, p: null });
    expect(oneModel.b.ss).toBeCloseTo(6.25, 12);
  });

  it("equals the classical decomposition on any balanced design (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 4 }),
        fc.integer({ min: 2, max: 3 }),
        fc.integer({ min: 2, max: 4 }),
        fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: 48, maxLength: 48 }),
        (na, nb, reps, pool) => {
          const obs: AnovaObservation[] = [];
          let k = 0;
          for (let i = 0; i < na; i++)
            for (let j = 0; j < nb; j++)
              for (let r = 0; r < reps; r++) obs.push({ a: `a${i}`, b: `b${j}`, y: pool[k++]! });
          const m = (f: (o: AnovaObservation) => boolean) => {
            const xs = obs.filter(f).map((o) => o.y);
            return xs.reduce((s, x) => s + x, 0) / xs.length;
          };
          const g = m(() => true);
          let ssA = 0;
          let ssB = 0;
          let ssAB = 0;
          let ssE = 0;
          for (let i = 0; i < na; i++) ssA += nb * reps * (m((o) => o.a === `a${i}`) - g) ** 2;
          for (let j = 0; j < nb; j++) ssB += na * reps * (m((o) => o.b === `b${j}`) - g) ** 2;
          for (let i = 0; i < na; i++)
            for (let j = 0; j < nb; j++) {
              const cell = m((o) => o.a === `a${i}` && o.b === `b${j}`);
              ssAB += reps * (cell - m((o) => o.a === `a${i}`) - m((o) => o.b === `b${j}`) + g) ** 2;
              for (const o of obs) if (o.a === `a${i}` && o.b === `b${j}`) ssE += (o.y - cell) ** 2;
            }
          const a = twoWayAnova(obs);
          if (a.noVariance) return;
          const tol = 1e-9 * Math.max(1, a.total.ss);
          expect(Math.abs(a.a.ss - ssA)).toBeLessThan(tol);
          expect(Math.abs(a.b.ss - ssB)).toBeLessThan(tol);
          expect(Math.abs(a.ab.ss - ssAB)).toBeLessThan(tol);
          expect(Math.abs(a.residual.ss - ssE)).toBeLessThan(tol);
          expect(Math.abs(a.a.ss + a.b.ss + a.ab.ss + a.residual.ss - a.total.ss)).toBeLessThan(tol);
          expect([a.a.df, a.b.df, a.ab.df, a.residual.df]).toEqual([
            na - 1,
            nb - 1,
            (na - 1) * (nb - 1),
            na * nb * (reps - 1),
          ]);
        },
      ),
      { numRuns: 60 },
    );
  });
});
