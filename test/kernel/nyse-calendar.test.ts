import fc from "fast-check";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import {
  easterSunday,
  isNyseTradingDay,
  NYSE_SPECIAL_CLOSURES,
  nextNyseOpen,
  nyseHolidays,
  nyseOpensIn,
} from "../../src/kernel/nyse-calendar.js";
import * as oldPath from "../../src/tasks/filing-tracker/nyse-calendar.js";

const et = (iso: string) => DateTime.fromISO(iso, { zone: "America/New_York" }).toMillis();

/**
 * The NYSE's published full-day closures, 2021–2027 (nyse.com holidays and trading hours): the
 * table the calendar used to be pinned to (it threw outside it); the rules must give it exactly.
 */
const PUBLISHED: Record<number, string[]> = {
  2021: ["01-01", "01-18", "02-15", "04-02", "05-31", "07-05", "09-06", "11-25", "12-24"],
  2022: ["01-17", "02-21", "04-15", "05-30", "06-20", "07-04", "09-05", "11-24", "12-26"],
  2023: ["01-02", "01-16", "02-20", "04-07", "05-29", "06-19", "07-04", "09-04", "11-23", "12-25"],
  2024: ["01-01", "01-15", "02-19", "03-29", "05-27", "06-19", "07-04", "09-02", "11-28", "12-25"],
  2025: ["01-01", "01-09", "01-20", "02-17", "04-18", "05-26", "06-19", "07-04", "09-01", "11-27", "12-25"],
  2026: ["01-01", "01-19", "02-16", "04-03", "05-25", "06-19", "07-03", "09-07", "11-26", "12-25"],
  2027: ["01-01", "01-18", "02-15", "03-26", "05-31", "06-18", "07-05", "09-06", "11-25", "12-24"],
};

/** Known full-day closures of other years (nyse.com and the NYSE's historical closings list). */
const KNOWN: Record<number, string[]> = {
  // MLK Day not yet observed; Christmas on a Thursday
  1997: ["01-01", "02-17", "03-28", "05-26", "07-04", "09-01", "11-27", "12-25"],
  // first MLK Day
  1998: ["01-01", "01-19", "02-16", "04-10", "05-25", "07-03", "09-07", "11-26", "12-25"],
  // September 11: closed Tuesday to Friday
  2001: [
    "01-01",
    "01-15",
    "02-19",
    "04-13",
    "05-28",
    "07-04",
    "09-03",
    "09-11",
    "09-12",
    "09-13",
    "09-14",
    "11-22",
    "12-25",
  ],
  2004: ["01-01", "01-19", "02-16", "04-09", "05-31", "06-11", "07-05", "09-06", "11-25", "12-24"],
  // 2007-01-02: mourning for President Ford
  2007: ["01-01", "01-02", "01-15", "02-19", "04-06", "05-28", "07-04", "09-03", "11-22", "12-25"],
  // 2011-01-01 is a Saturday: not observed
  2011: ["01-17", "02-21", "04-22", "05-30", "07-04", "09-05", "11-24", "12-26"],
  // New Year's Day on a Sunday → Monday; Hurricane Sandy
  2012: ["01-02", "01-16", "02-20", "04-06", "05-28", "07-04", "09-03", "10-29", "10-30", "11-22", "12-25"],
  2018: ["01-01", "01-15", "02-19", "03-30", "05-28", "07-04", "09-03", "11-22", "12-05", "12-25"],
  // Independence Day on a Saturday → Friday 07-03
  2020: ["01-01", "01-20", "02-17", "04-10", "05-25", "07-03", "09-07", "11-26", "12-25"],
  // 2028-01-01 is a Saturday: not observed
  2028: ["01-17", "02-21", "04-14", "05-29", "06-19", "07-04", "09-04", "11-23", "12-25"],
};

describe("NYSE calendar (rules for any year from 1971)", () => {
  it("the old import path re-exports the shared calendar", () => {
    expect(oldPath.nyseHolidays).toBe(nyseHolidays);
    expect(oldPath.nextNyseOpen).toBe(nextNyseOpen);
  });

  it.each(Object.keys(KNOWN).map(Number))("%i: the rules give exactly the known closures", (year) => {
    expect(nyseHolidays(year)).toEqual(KNOWN[year]!.map((d) => `${year}-${d}`));
  });

  it("Good Friday by the Easter computus (known Easter Sundays)", () => {
    expect(easterSunday(1981)).toBe("1981-04-19");
    expect(easterSunday(2000)).toBe("2000-04-23");
    expect(easterSunday(2008)).toBe("2008-03-23");
    expect(easterSunday(2011)).toBe("2011-04-24");
    expect(easterSunday(2038)).toBe("2038-04-25");
    expect(easterSunday(2285)).toBe("2285-03-22");
    expect(isNyseTradingDay("2038-04-23")).toBe(false);
    expect(isNyseTradingDay("2008-03-21")).toBe(false);
  });

  it("Juneteenth only from 2022; election days to 1980 and the one-off closures from the data list", () => {
    expect(isNyseTradingDay("2021-06-18")).toBe(true);
    expect(isNyseTradingDay("2022-06-20")).toBe(false);
    expect(isNyseTradingDay("1980-11-04")).toBe(false);
    expect(isNyseTradingDay("1984-11-06")).toBe(true);
    for (const c of NYSE_SPECIAL_CLOSURES) expect(isNyseTradingDay(c.date), c.date).toBe(false);
    // Saturday Christmas → Friday; Sunday Juneteenth → Monday (2033-06-20)
    expect(isNyseTradingDay("2032-12-24")).toBe(false);
    expect(isNyseTradingDay("2033-06-20")).toBe(false);
  });

  it("years before the rules start throw, naming the year", () => {
    expect(() => nyseHolidays(1970)).toThrow(/start in 1971.*1970 is before/);
    expect(() => isNyseTradingDay("2022-13-01")).toThrow(/not a date/);
  });

  it.each(Object.keys(PUBLISHED).map(Number))("%i: the rules give exactly the published closures", (year) => {
    expect(nyseHolidays(year)).toEqual(PUBLISHED[year]!.map((d) => `${year}-${d}`));
  });

  it("New Year's Day on a Saturday is not observed (2021-12-31 and 2027-12-31 trade)", () => {
    expect(isNyseTradingDay("2021-12-31")).toBe(true);
    expect(isNyseTradingDay("2027-12-31")).toBe(true);
    expect(isNyseTradingDay("2022-01-03")).toBe(true);
    expect(isNyseTradingDay("2022-12-26")).toBe(false);
  });

  it("across year ends: 2027-12-31 (a Friday) → 2028-01-03, Sandy → 2012-10-31", () => {
    expect(new Date(nextNyseOpen(et("2027-12-30T18:00:00"))).toISOString()).toBe("2027-12-31T14:30:00.000Z");
    expect(new Date(nextNyseOpen(et("2027-12-31T18:00:00"))).toISOString()).toBe("2028-01-03T14:30:00.000Z");
    expect(new Date(nextNyseOpen(et("2012-10-26T18:00:00"))).toISOString()).toBe("2012-10-31T13:30:00.000Z");
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
    const lo = Date.parse("1971-01-01T00:00:00Z");
    const hi = Date.parse("2099-12-20T00:00:00Z");
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
      { numRuns: 200, seed: 11 },
    );
  });
});
