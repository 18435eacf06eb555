import { DateTime } from "luxon";

/**
 * The NYSE trading calendar, computed by rule for any year from 1971 (no network, no per-year
 * table): weekends, the exchange's full-day holidays and a data list of one-off closures.
 *
 * Holiday rules (NYSE Rule 7.2; the Uniform Monday Holiday Act took effect in 1971):
 * - New Year's Day (Jan 1): on a Sunday observed the Monday after; on a Saturday NOT observed (the
 *   exchange stays open on the Friday, December 31: the end of an accounting year).
 * - Martin Luther King Jr. Day: 3rd Monday of January, from 1998 (the exchange first closed for it then).
 * - Washington's Birthday: 3rd Monday of February.
 * - Good Friday: two days before Easter Sunday (anonymous Gregorian computus).
 * - Memorial Day: last Monday of May.
 * - Juneteenth (June 19): from 2022.
 * - Independence Day (July 4), Christmas (Dec 25).
 * - Labor Day: 1st Monday of September. Thanksgiving: 4th Thursday of November.
 * - Juneteenth, Independence Day and Christmas on a Saturday are observed the Friday before, on a
 *   Sunday the Monday after.
 * One-off closures (presidential election days to 1980, national days of mourning, weather and
 * emergencies) are the data list `NYSE_SPECIAL_CLOSURES`. Early closes do not move the open.
 * Years before 1971 throw a RangeError: the rules were different then (Saturday sessions, Lincoln's
 * Birthday, fixed-date Washington's Birthday and Memorial Day).
 */

export const NYSE_ZONE = "America/New_York";
/** the first year the rules above describe */
export const NYSE_RULES_FROM = 1971;
/** the regular open, New York time */
export const NYSE_OPEN = { hour: 9, minute: 30 } as const;

/** Full-day closures that no recurring rule gives (from 1971), with their reason. */
export const NYSE_SPECIAL_CLOSURES: readonly { date: string; reason: string }[] = [
  { date: "1972-11-07", reason: "presidential election day" },
  { date: "1972-12-28", reason: "funeral of President Truman" },
  { date: "1973-01-25", reason: "funeral of President Johnson" },
  { date: "1976-11-02", reason: "presidential election day" },
  { date: "1977-07-14", reason: "New York City blackout" },
  { date: "1980-11-04", reason: "presidential election day" },
  { date: "1985-09-27", reason: "Hurricane Gloria" },
  { date: "1994-04-27", reason: "funeral of President Nixon" },
  { date: "2001-09-11", reason: "September 11 attacks" },
  { date: "2001-09-12", reason: "September 11 attacks" },
  { date: "2001-09-13", reason: "September 11 attacks" },
  { date: "2001-09-14", reason: "September 11 attacks" },
  { date: "2004-06-11", reason: "national day of mourning for President Reagan" },
  { date: "2007-01-02", reason: "national day of mourning for President Ford" },
  { date: "2012-10-29", reason: "Hurricane Sandy" },
  { date: "2012-10-30", reason: "Hurricane Sandy" },
  { date: "2018-12-05", reason: "national day of mourning for President George H. W. Bush" },
  { date: "2025-01-09", reason: "national day of mourning for President Carter" },
];

const ymd = (d: DateTime) => d.toISODate() as string;

function checkYear(year: number): void {
  if (!Number.isInteger(year)) throw new RangeError(`not a year: ${year}`);
  if (year < NYSE_RULES_FROM)
    throw new RangeError(
      `the NYSE calendar rules start in ${NYSE_RULES_FROM} (Uniform Monday Holiday Act); ${year} is before that`,
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

/** Easter Sunday of a Gregorian year (anonymous Gregorian algorithm; Meeus/Jones/Butcher), YYYY-MM-DD. */
export function easterSunday(year: number): string {
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
  return `${year}-${String(month).padStart(2, "0")}-${String(dd).padStart(2, "0")}`;
}

/** Saturday → Friday before, Sunday → Monday after */
function observed(d: DateTime): DateTime {
  if (d.weekday === 6) return d.minus({ days: 1 });
  if (d.weekday === 7) return d.plus({ days: 1 });
  return d;
}

const cache = new Map<number, readonly string[]>();

/** The full-day NYSE holidays and closures of a year on weekdays (YYYY-MM-DD, ascending). */
export function nyseHolidays(year: number): readonly string[] {
  checkYear(year);
  const hit = cache.get(year);
  if (hit) return hit;
  const out: DateTime[] = [];
  const newYear = day(year, 1, 1);
  if (newYear.weekday !== 6) out.push(observed(newYear));
  if (year >= 1998) out.push(nthWeekday(year, 1, 1, 3));
  out.push(nthWeekday(year, 2, 1, 3));
  out.push(DateTime.fromISO(easterSunday(year), { zone: NYSE_ZONE }).minus({ days: 2 }));
  out.push(lastWeekday(year, 5, 1));
  if (year >= 2022) out.push(observed(day(year, 6, 19)));
  out.push(observed(day(year, 7, 4)));
  out.push(nthWeekday(year, 9, 1, 1));
  out.push(nthWeekday(year, 11, 4, 4));
  out.push(observed(day(year, 12, 25)));
  const special = NYSE_SPECIAL_CLOSURES.filter((s) => s.date.startsWith(`${year}-`)).map((s) => s.date);
  const dates = [...new Set([...out.map(ymd), ...special])].sort();
  cache.set(year, dates);
  return dates;
}

/** Is the New York calendar date `iso` (YYYY-MM-DD) a trading day? */
export function isNyseTradingDay(iso: string): boolean {
  const d = DateTime.fromISO(iso, { zone: NYSE_ZONE });
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso) || !d.isValid) throw new RangeError(`not a date: ${JSON.stringify(iso)}`);
  return d.weekday <= 5 && !nyseHolidays(d.year).includes(iso);
}

const openOf = (d: DateTime) => d.set({ hour: NYSE_OPEN.hour, minute: NYSE_OPEN.minute, second: 0, millisecond: 0 });

/** The first NYSE open (09:30 New York time on a trading day) strictly after `t` (UTC ms). */
export function nextNyseOpen(t: number): number {
  if (!Number.isFinite(t)) throw new RangeError(`not a finite epoch-ms instant: ${t}`);
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
