import { DateTime } from "luxon";

/**
 * The NYSE trading calendar, hand-coded (no network): weekends and the exchange's full-day
 * holidays. Rules (NYSE Rule 7.2): New Year's Day, Martin Luther King Jr. Day (3rd Monday of
 * January), Washington's Birthday (3rd Monday of February), Good Friday, Memorial Day (last Monday
 * of May), Juneteenth (from 2022), Independence Day, Labor Day (1st Monday of September),
 * Thanksgiving (4th Thursday of November), Christmas. A holiday on a Saturday is observed the
 * Friday before, on a Sunday the Monday after — except New Year's Day on a Saturday, which is not
 * observed (the exchange stays open on December 31). Special closures are listed by date
 * (2025-01-09, national day of mourning for President Carter). Early closes do not move the open.
 * The rules are pinned for 2021–2027 (tested against the published calendars); other years throw.
 */

export const NYSE_ZONE = "America/New_York";
export const NYSE_YEARS = { from: 2021, to: 2027 } as const;
/** the regular open, New York time */
export const NYSE_OPEN = { hour: 9, minute: 30 } as const;

const SPECIAL_CLOSURES: readonly string[] = ["2025-01-09"];

const ymd = (d: DateTime) => d.toISODate() as string;

function checkYear(year: number): void {
  if (year < NYSE_YEARS.from || year > NYSE_YEARS.to)
    throw new RangeError(
      `the NYSE calendar is pinned for ${NYSE_YEARS.from}–${NYSE_YEARS.to}; ${year} is outside it (extend nyse-calendar.ts)`,
    );
}

const day = (year: number, month: number, d: number) =>
  DateTime.fromObject({ year, month, day: d }, { zone: NYSE_ZONE });

/** the n-th (1-based) given weekday (1 = Monday) of a month */
function nthWeekday(year: number, month: number, weekday: number, n: number): DateTime {
  const first = day(year, month, 1);
  return first.plus({ days: ((weekday - first.weekday + 7) % 7) + 7 * (n - 1) });
}

function lastWeekday(year: number, month: number, weekday: number): DateTime {
  const last = day(year, month, 1).endOf("month").startOf("day");
  return last.minus({ days: (last.weekday - weekday + 7) % 7 });
}

/** Easter Sunday (anonymous Gregorian algorithm) */
function easter(year: number): DateTime {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const dd = ((h + l - 7 * m + 114) % 31) + 1;
  return day(year, month, dd);
}

/** Saturday → Friday before, Sunday → Monday after */
function observed(d: DateTime): DateTime {
  if (d.weekday === 6) return d.minus({ days: 1 });
  if (d.weekday === 7) return d.plus({ days: 1 });
  return d;
}

const cache = new Map<number, readonly string[]>();

/** The full-day NYSE holidays of a year (YYYY-MM-DD, ascending). */
export function nyseHolidays(year: number): readonly string[] {
  checkYear(year);
  const hit = cache.get(year);
  if (hit) return hit;
  const out: DateTime[] = [];
  const newYear = day(year, 1, 1);
  if (newYear.weekday !== 6) out.push(observed(newYear));
  out.push(nthWeekday(year, 1, 1, 3));
  out.push(nthWeekday(year, 2, 1, 3));
  out.push(easter(year).minus({ days: 2 }));
  out.push(lastWeekday(year, 5, 1));
  if (year >= 2022) out.push(observed(day(year, 6, 19)));
  out.push(observed(day(year, 7, 4)));
  out.push(nthWeekday(year, 9, 1, 1));
  out.push(nthWeekday(year, 11, 4, 4));
  out.push(observed(day(year, 12, 25)));
  const dates = [...out.map(ymd), ...SPECIAL_CLOSURES.filter((s) => s.startsWith(`${year}-`))].sort();
  cache.set(year, dates);
  return dates;
}

/** Is the New York calendar date `iso` (YYYY-MM-DD) a trading day? */
export function isNyseTradingDay(iso: string): boolean {
  const d = DateTime.fromISO(iso, { zone: NYSE_ZONE });
  if (!d.isValid) throw new RangeError(`not a date: ${JSON.stringify(iso)}`);
  return d.weekday <= 5 && !nyseHolidays(d.year).includes(iso);
}

const openOf = (d: DateTime) => d.set({ hour: NYSE_OPEN.hour, minute: NYSE_OPEN.minute, second: 0, millisecond: 0 });

/** The first NYSE open (09:30 New York time on a trading day) strictly after `t` (UTC ms). */
export function nextNyseOpen(t: number): number {
  let d = DateTime.fromMillis(t, { zone: NYSE_ZONE }).startOf("day");
  for (;;) {
    const open = openOf(d);
    if (open.toMillis() > t && isNyseTradingDay(ymd(d))) return open.toMillis();
    d = d.plus({ days: 1 });
  }
}

/** Every NYSE open in [from, to), ascending. */
export function nyseOpensIn(from: number, to: number): number[] {
  const out: number[] = [];
  let t = nextNyseOpen(from - 1);
  while (t < to) {
    out.push(t);
    t = nextNyseOpen(t);
  }
  return out;
}
