import { describe, expect, it } from "vitest";
import { passHatK, passHatKCurve } from "../../../src/report/stats/pass-k.js";

describe("pass^k (τ-bench: C(c, k) / C(n, k))", () => {
  it("matches hand-computed values for n = 5 seeds with c = 3 passes", () => {
    // C(3,1)/C(5,1) = 3/5; C(3,2)/C(5,2) = 3/10; C(3,3)/C(5,3) = 1/10; k > c → 0
    expect(passHatK(5, 3, 1)).toBeCloseTo(0.6, 15);
    expect(passHatK(5, 3, 2)).toBeCloseTo(0.3, 15);
    expect(passHatK(5, 3, 3)).toBeCloseTo(0.1, 15);
    expect(passHatK(5, 3, 4)).toBe(0);
    expect(passHatKCurve([1, 0, 1, 1, 0]).map((p) => Number(p.value.toFixed(12)))).toEqual([0.6, 0.3, 0.1, 0, 0]);
  });

  it("is 1 when every seed passes and does not overflow for large n", () => {
    expect(passHatK(8, 8, 8)).toBe(1);
    // C(180, 100) / C(200, 100) overflows as a ratio of binomials but not as a product
    const p = passHatK(200, 180, 100);
    expect(Number.isFinite(p) && p > 0 && p < 1).toBe(true);
  });

  it("refuses non-binary scores and impossible counts", () => {
    expect(() => passHatKCurve([1, 0.5])).toThrow(/binary/);
    expect(() => passHatK(3, 4, 1)).toThrow(/0 ≤ c ≤ n/);
    expect(() => passHatK(3, 1, 0)).toThrow(/1 ≤ k ≤ n/);
  });
});
