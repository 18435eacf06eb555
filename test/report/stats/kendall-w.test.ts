import { describe, expect, it } from "vitest";
import { averageRanksDescending, kendallW } from "../../../src/report/stats/kendall-w.js";

describe("Kendall's W", () => {
  it("matches a hand-worked example without ties (4 judges, 3 models)", () => {
    // ratings (higher = better) → ranks: J1 1,2,3; J2 1,3,2; J3 1,2,3; J4 2,1,3
    // rank sums 5, 8, 11; mean m(n+1)/2 = 8; S = 9 + 0 + 9 = 18
    // W = 12 S / (m² (n³ − n)) = 216 / (16 · 24) = 0.5625; χ² = m (n − 1) W = 4.5 on 2 df;
    // χ²₂ upper tail = e^(−x/2) → p = e^(−2.25)
    const k = kendallW([
      [3, 2, 1],
      [3, 1, 2],
      [3, 2, 1],
      [2, 3, 1],
    ]);
    expect(k.rankSums).toEqual([5, 8, 11]);
    expect(k.w).toBeCloseTo(0.5625, 14);
    expect(k.chi2).toBeCloseTo(4.5, 14);
    expect(k.df).toBe(2);
    expect(k.p).toBeCloseTo(Math.exp(-2.25), 10);
  });

  it("applies the tie correction", () => {
    // J1 ratings 10, 10, 5 → ranks 1.5, 1.5, 3 (one tie group of 2: T = 2³ − 2 = 6); J2 → 1, 2, 3
    // rank sums 2.5, 3.5, 6; mean 4; S = 2.25 + 0.25 + 4 = 6.5
    // W = 12 · 6.5 / (2² · 24 − 2 · 6) = 78 / 84 = 13/14; χ² = 2 · 2 · 13/14 = 26/7; p = e^(−13/7)
    const k = kendallW([
      [10, 10, 5],
      [3, 2, 1],
    ]);
    expect(k.ranks).toEqual([
      [1.5, 1.5, 3],
      [1, 2, 3],
    ]);
    expect(k.w).toBeCloseTo(13 / 14, 14);
    expect(k.chi2).toBeCloseTo(26 / 7, 14);
    expect(k.p).toBeCloseTo(Math.exp(-13 / 7), 10);
  });

  it("is 1 for identical rankings and undefined when every judge ties everything", () => {
    expect(
      kendallW([
        [0.9, 0.5, 0.1],
        [0.8, 0.7, 0.2],
      ]).w,
    ).toBeCloseTo(1, 14);
    const tied = kendallW([
      [1, 1],
      [2, 2],
    ]);
    expect(tied.w).toBeNull();
    expect(tied.p).toBeNull();
  });

  it("averages tied ranks, best first", () => {
    expect(averageRanksDescending([0.2, 0.9, 0.2, 0.5])).toEqual([3.5, 1, 3.5, 2]);
  });

  it("refuses incomplete rankings", () => {
    expect(() => kendallW([[1, 2]])).toThrow(/at least 2 judges/);
    expect(() => kendallW([[1, 2], [1]])).toThrow(/every object/);
  });
});
