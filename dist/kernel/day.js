const SECOND_MS = 1e3;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
function assertInstant(t) {
  if (!Number.isFinite(t)) throw new RangeError(`not a finite epoch-ms instant: ${t}`);
}
function startOfUtcDay(t) {
  assertInstant(t);
  return Math.floor(t / DAY_MS) * DAY_MS;
}
function nextUtcMidnight(t) {
  return startOfUtcDay(t) + DAY_MS;
}
function utcDayNumber(t) {
  assertInstant(t);
  return Math.floor(t / DAY_MS);
}
function isoInstant(t) {
  assertInstant(t);
  return new Date(t).toISOString();
}
function isoDay(t) {
  return isoInstant(t).slice(0, 10);
}
function isoMinute(t) {
  return `${isoInstant(t).slice(0, 16)}Z`;
}
function parseIsoInstant(s) {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(s)) {
    throw new RangeError(`not an ISO-8601 instant with an explicit zone: "${s}"`);
  }
  const t = Date.parse(s);
  if (!Number.isFinite(t)) throw new RangeError(`not a valid ISO-8601 instant: "${s}"`);
  return t;
}
function parseUtcInstant(v) {
  if (typeof v === "number") return Number.isInteger(v) ? v : null;
  const s = v.trim();
  if (/^-?\d+$/.test(s)) return Number(s);
  let iso = s.replace(" ", "T");
  if (/^\d{4}-\d{2}-\d{2}$/.test(iso)) iso = `${iso}T00:00:00Z`;
  else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(iso)) iso = `${iso}Z`;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(iso)) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
}
function utcDay(isoDate) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(isoDate)) throw new RangeError(`not an ISO date (YYYY-MM-DD): "${isoDate}"`);
  const t = parseUtcInstant(isoDate);
  if (t === null) throw new RangeError(`not a valid date: "${isoDate}"`);
  return t;
}
function formatDuration(ms) {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`not a duration: ${ms}`);
  const units = [
    [DAY_MS, "day"],
    [HOUR_MS, "hour"],
    [MINUTE_MS, "minute"],
    [SECOND_MS, "second"]
  ];
  for (const [size, name] of units) {
    if (ms >= size && ms % size === 0) {
      const n = ms / size;
      return `${n} ${name}${n === 1 ? "" : "s"}`;
    }
  }
  return `${ms} ms`;
}
export {
  DAY_MS,
  HOUR_MS,
  MINUTE_MS,
  SECOND_MS,
  formatDuration,
  isoDay,
  isoInstant,
  isoMinute,
  nextUtcMidnight,
  parseIsoInstant,
  parseUtcInstant,
  startOfUtcDay,
  utcDay,
  utcDayNumber
};
//# sourceMappingURL=day.js.map
