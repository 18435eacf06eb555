import { describe, expect, it } from "vitest";
import { companiesAsOf } from "../../../src/tasks/filing-tracker/web/company-as-of.js";
import type { CompanyRow } from "../../../src/world/types.js";

const row = (cik: string, ticker: string, name: string, visible_at: number): CompanyRow => ({
  cik,
  ticker,
  name,
  visible_at,
});

describe("SEC replay: the ticker and name valid at now", () => {
  const history = [
    row("0000000002", "BBB", "Bee Corp", 10),
    row("0000000001", "FB", "Facebook Inc", 5),
    row("0000000001", "META", "Meta Platforms Inc", 50),
  ];
  // what the as-of view returns at a time: the rows visible then
  const at = (t: number) => companiesAsOf(history.filter((r) => r.visible_at <= t));

  it("before a rename is visible, the earlier ticker and name; after it, the new ones; one row per CIK in CIK order", () => {
    expect(at(4)).toEqual([]);
    expect(at(5)).toEqual([row("0000000001", "FB", "Facebook Inc", 5)]);
    expect(at(49)).toEqual([row("0000000001", "FB", "Facebook Inc", 5), row("0000000002", "BBB", "Bee Corp", 10)]);
    expect(at(50)).toEqual([
      row("0000000001", "META", "Meta Platforms Inc", 50),
      row("0000000002", "BBB", "Bee Corp", 10),
    ]);
  });
});
