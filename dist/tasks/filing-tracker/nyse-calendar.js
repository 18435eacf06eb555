import { DateTime } from "luxon";
const NYSE_ZONE = "America/New_York";
const NYSE_YEARS = { from: 2021, to: 2027 };
const NYSE_OPEN = { hour: 9, minute: 30 };
const SPECIAL_CLOSURES = ["2025-01-09"];
const ymd = (d) => d.toISODate();
function checkYear(year) {
  if (year < NYSE_YEARS.from || year > NYSE_YEARS.to)
    throw new RangeError(
      `the NYSE calendar is pinned for ${NYSE_YEARS.from}\u2013${NYSE_YEARS.to}; ${year} is outside it (extend nyse-calendar.ts)`
    );
}
const day = (year, month, d) => DateTime.fromObject({ year, month, day: d }, { zone: NYSE_ZONE });
function nthWeekday(year, month, weekday, n) {
  const first = day(year, month, 1);
  return first.plus({ days: (weekday - first.weekday + 7) % 7 + 7 * (n - 1) });
}
function lastWeekday(year, month, weekday) {
  const last = day(year, month, 1).endOf("month").startOf("day");
  return last.minus({ days: (last.weekday - weekday + 7) % 7 });
}
function easter(year) {
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
  const dd = (h + l - 7 * m + 114) % 31 + 1;
  return day(year, month, dd);
}
function observed(d) {
  if (d.weekday === 6) return d.minus({ days: 1 });
  if (d.weekday === 7) return d.plus({ days: 1 });
  return d;
}
const cache = /* @__PURE__ */ new Map();
function nyseHolidays(year) {
  checkYear(year);
  const hit = cache.get(year);
  if (hit) return hit;
  const out = [];
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
function isNyseTradingDay(iso) {
  const d = DateTime.fromISO(iso, { zone: NYSE_ZONE });
  if (!d.isValid) throw new RangeError(`not a date: ${JSON.stringify(iso)}`);
  return d.weekday <= 5 && !nyseHolidays(d.year).includes(iso);
}
const openOf = (d) => d.set({ hour: NYSE_OPEN.hour, minute: NYSE_OPEN.minute, second: 0, millisecond: 0 });
function nextNyseOpen(t) {
  let d = DateTime.fromMillis(t, { zone: NYSE_ZONE }).startOf("day");
  for (; ; ) {
    const open = openOf(d);
    if (open.toMillis() > t && isNyseTradingDay(ymd(d))) return open.toMillis();
    d = d.plus({ days: 1 });
  }
}
function nyseOpensIn(from, to) {
  const out = [];
  let t = nextNyseOpen(from - 1);
  while (t < to) {
    out.push(t);
    t = nextNyseOpen(t);
  }
  return out;
}
export {
  NYSE_OPEN,
  NYSE_YEARS,
  NYSE_ZONE,
  isNyseTradingDay,
  nextNyseOpen,
  nyseHolidays,
  nyseOpensIn
};
//# sourceMappingURL=nyse-calendar.js.map
