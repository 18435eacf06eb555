import { describe, expect, it } from "vitest";
import { fisherExact } from "../../../src/report/stats/fisher-exact.js";

describe("fisherExact (two-sided, as R's fisher.test)", () => {
  it("matches known values", () => {
    // Fisher's tea-tasting table: fisher.test(matrix(c(3, 1, 1, 3), 2))$p.value = 0.4857143
    expect(fisherExact(3, 1, 1, 3)).toBeCloseTo(0.4857143, 6);
    // fisher.test(matrix(c(1, 11, 9, 3), 2))$p.value = 0.002759456
    expect(fisherExact(1, 9, 11, 3)).toBeCloseTo(0.002759456, 8);
    // a perfectly balanced table
    expect(fisherExact(50, 50, 50, 50)).toBeCloseTo(1, 9);
  });

  it("is symmetric in rows and columns and 1 for an empty margin", () => {
    expect(fisherExact(9, 1, 11, 3)).toBeCloseTo(fisherExact(11, 3, 9, 1), 12);
    expect(fisherExact(1, 9, 11, 3)).toBeCloseTo(fisherExact(1, 11, 9, 3), 12);
    expect(fisherExact(0, 0, 4, 7)).toBe(1);
  });

  it("detects strong association in large tables and refuses non-counts", () => {
    expect(fisherExact(600, 400, 400, 600)).toBeLessThan(1e-15);
    expect(() => fisherExact(1.5, 1, 1, 1)).toThrow(/cell a must be a count/);
  });
});
