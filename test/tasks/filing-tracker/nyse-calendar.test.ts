import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  isNyseTradingDay,
  nextNyseOpen,
  nyseHolidays,
  nyseOpensIn,
} from "../../../src/tasks/filing-tracker/nyse-calendar.js";
import { et } from "./tiny-world.js";

/** The NYSE's published full-day closures, 2021–2027 (nyse.com holidays and trading hours). */
const PUBLISHED: Record<number, string[]> = {
  2021: ["01-01", "01-18", "02-15", "04-02", "05-31", "07-05", "09-06", "11-25", "12-24"],
  2022: ["01-17", "02-21", "04-15", "05-30", "06-20", "07-04", "09-05", "11-24", "12-26"],
  2023: ["01-02", "01-16", "02-20", "04-07", "05-29", "06-19", "07-04", "09-04", "11-23", "12-25"],
  2024: ["01-01", "01-15", "02-19", "03-29", "05-27", "06-19", "07-04", "09-02", "11-28", "12-25"],
  2025: ["01-01", "01-09", "01-20", "02-17", "04-18", "05-26", "06-19", "07-04", "09-01", "11-27", "12-25"],
  2026: ["01-01", "01-19", "02-16", "04-03", "05-25", "06-19", "07-03", "09-07", "11-26", "12-25"],
  2027: ["01-01", "01-18", "02-15", "03-26", "05-31", "06-18", "07-05", "09-06", "11-25", "12-24"],
};

describe("NYSE calendar (hand-coded rules, 2021–2027)", () => {
  it.each(Object.keys(PUBLISHED).map(Number))("%i: the rules give exactly the published closures", (year) => {
    expect(nyseHolidays(year)).toEqual(PUBLISHED[year]!.map((d) => `${year}-${d}`));
  });

  it("New Year's Day on a Saturday is not observed (2021-12-31 and 2027-12-31 trade)", () => {
    expect(isNyseTradingDay("2021-12-31")).toBe(true);
    expect(isNyseTradingDay("2027-12-31")).toBe(true);
    expect(isNyseTradingDay("2022-01-03")).toBe(true);
    expect(isNyseTradingDay("2022-12-26")).toBe(false);
  });

  it("years outside the pinned range throw", () => {
    expect(() => nyseHolidays(2020)).toThrow(/pinned for 2021–2027/);
    expect(() => nextNyseOpen(Date.parse("2027-12-31T20:00:00Z"))).toThrow(/2028 is outside/);
  });

  it("the next open skips weekends and holidays and follows daylight saving", () => {
    const open = (t: number) => new Date(nextNyseOpen(t)).toISOString();
    // Friday evening (after 17:30 ET) → Monday 09:30 EDT
    expect(open(et("2022-04-22T21:36:59"))).toBe("2022-04-25T13:30:00.000Z");
    // before the open on a trading day → that morning
    expect(open(et("2022-10-24T06:08:50"))).toBe("2022-10-24T13:30:00.000Z");
    // exactly at the open → the next trading day (strictly after)
    expect(open(et("2026-03-04T09:30:00"))).toBe("2026-03-05T14:30:00.000Z");
    expect(open(et("2026-03-04T09:29:59"))).toBe("2026-03-04T14:30:00.000Z");
    // Friday before the March DST switch (EST) → Monday 09:30 EDT = 13:30Z
    expect(open(et("2026-03-06T20:00:00"))).toBe("2026-03-09T13:30:00.000Z");
    // Thursday before Good Friday 2026 → Monday 04-06
    expect(open(et("2026-04-02T16:10:00"))).toBe("2026-04-06T13:30:00.000Z");
    // Wednesday before Thanksgiving 2022 → Friday 11-25 (half day, same open)
    expect(open(et("2022-11-23T17:00:00"))).toBe("2022-11-25T14:30:00.000Z");
    // the November switch back to EST
    expect(open(et("2022-11-04T18:00:00"))).toBe("2022-11-07T14:30:00.000Z");
    expect(
      nyseOpensIn(et("2026-04-02T00:00:00"), et("2026-04-07T00:00:00")).map((t) => new Date(t).toISOString()),
    ).toEqual(["2026-04-02T13:30:00.000Z", "2026-04-06T13:30:00.000Z"]);
  });

  it("property: the next open is after t, at 09:30 New York time on a trading day, and no trading day's open lies between", () => {
    const lo = Date.parse("2021-01-01T00:00:00Z");
    const hi = Date.parse("2027-12-20T00:00:00Z");
    fc.assert(
      fc.property(fc.integer({ min: lo, max: hi }), (t) => {
        const o = nextNyseOpen(t);
        const wall = new Intl.DateTimeFormat("en-CA", {
          timeZone: "America/New_York",
          year: "numeric",
          month: "2-digit",
          day: "2-digit",
          hour: "2-digit",
          minute: "2-digit",
          hourCycle: "h23",
        }).format(o);
        const [date, time] = wall.split(", ");
        expect(time).toBe("09:30");
        expect(isNyseTradingDay(date!)).toBe(true);
        expect(o).toBeGreaterThan(t);
        expect(nyseOpensIn(t + 1, o)).toEqual([]);
      }),
      { numRuns: 100, seed: 11 },
    );
  });
});
