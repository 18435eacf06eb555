import { describe, expect, it } from "vitest";
import {
  DAY_MS,
  formatDuration,
  HOUR_MS,
  isoDay,
  isoMinute,
  MINUTE_MS,
  nextUtcMidnight,
  parseIsoInstant,
  startOfUtcDay,
  utcDayNumber,
} from "../../src/common/time.js";

describe("day helpers", () => {
  const noon = Date.UTC(2024, 1, 29, 12, 34, 56, 789);

  it("constants", () => {
    expect(MINUTE_MS).toBe(60_000);
    expect(HOUR_MS).toBe(3_600_000);
    expect(DAY_MS).toBe(86_400_000);
  });

  it("startOfUtcDay and nextUtcMidnight", () => {
    expect(startOfUtcDay(noon)).toBe(Date.UTC(2024, 1, 29));
    expect(nextUtcMidnight(noon)).toBe(Date.UTC(2024, 2, 1));
    // strictly after: exactly midnight gives the next day
    expect(nextUtcMidnight(Date.UTC(2024, 2, 1))).toBe(Date.UTC(2024, 2, 2));
    expect(nextUtcMidnight(Date.UTC(2024, 2, 1) - 1)).toBe(Date.UTC(2024, 2, 1));
    // before the epoch
    expect(startOfUtcDay(-1)).toBe(-DAY_MS);
    expect(nextUtcMidnight(-1)).toBe(0);
    expect(utcDayNumber(-1)).toBe(-1);
    expect(utcDayNumber(DAY_MS * 3 + 5)).toBe(3);
    expect(() => startOfUtcDay(Number.NaN)).toThrow(RangeError);
  });

  it("formats", () => {
    expect(isoMinute(noon)).toBe("2024-02-29T12:34Z");
    expect(isoDay(noon)).toBe("2024-02-29");
    expect(parseIsoInstant("2024-02-29T12:34:56.789Z")).toBe(noon);
    expect(parseIsoInstant("2024-02-29T14:34+02:00")).toBe(Date.UTC(2024, 1, 29, 12, 34));
    expect(() => parseIsoInstant("2024-02-29T12:34")).toThrow(/explicit zone/);
    expect(() => parseIsoInstant("2024-02-30T25:00Z")).toThrow(RangeError);
  });

  it("formatDuration", () => {
    expect(formatDuration(DAY_MS)).toBe("1 day");
    expect(formatDuration(3 * HOUR_MS)).toBe("3 hours");
    expect(formatDuration(90_000)).toBe("90 seconds");
    expect(formatDuration(MINUTE_MS)).toBe("1 minute");
    expect(formatDuration(250)).toBe("250 ms");
  });
});
