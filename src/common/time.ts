/**
 * UTC calendar helpers on epoch milliseconds. Pure functions of their argument: nothing here reads
 * wall time (`new Date(t)` is only used to format a given instant).
 */

export const SECOND_MS = 1_000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

function assertInstant(t: number): void {
  if (!Number.isFinite(t)) throw new RangeError(`not a finite epoch-ms instant: ${t}`);
}

/** 00:00 UTC of the day containing `t` (works for instants before 1970 too). */
export function startOfUtcDay(t: number): number {
  assertInstant(t);
  return Math.floor(t / DAY_MS) * DAY_MS;
}

/** The first 00:00 UTC strictly after `t` (so a `t` exactly at midnight gives the next day's). */
export function nextUtcMidnight(t: number): number {
  return startOfUtcDay(t) + DAY_MS;
}

/** Whole UTC days since 1970-01-01 (day 0); negative before the epoch. */
export function utcDayNumber(t: number): number {
  assertInstant(t);
  return Math.floor(t / DAY_MS);
}

/** `YYYY-MM-DDTHH:mm:ss.sssZ` */
export function isoInstant(t: number): string {
  assertInstant(t);
  return new Date(t).toISOString();
}

/** `YYYY-MM-DD` (UTC) */
export function isoDay(t: number): string {
  return isoInstant(t).slice(0, 10);
}

/** `YYYY-MM-DDTHH:mmZ` (UTC, seconds truncated): the form used in wake markers. */
export function isoMinute(t: number): string {
  return `${isoInstant(t).slice(0, 16)}Z`;
}

/** Parse an ISO-8601 instant that carries an explicit zone (`Z` or `±hh:mm`); throws otherwise. */
export function parseIsoInstant(s: string): number {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(s)) {
    throw new RangeError(`not an ISO-8601 instant with an explicit zone: "${s}"`);
  }
  const t = Date.parse(s);
  if (!Number.isFinite(t)) throw new RangeError(`not a valid ISO-8601 instant: "${s}"`);
  return t;
}

/**
 * The one reader of instants from configs, tool arguments and raw rows: epoch ms (a number or
 * digits), an ISO date (`YYYY-MM-DD`: 00:00 UTC) or an ISO date-time (`T` or a space; a missing
 * zone means UTC, never the host's zone). Null when it is none of these.
 */
export function parseUtcInstant(v: number | string): number | null {
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

/** 00:00 UTC of an ISO date (`YYYY-MM-DD`), for episode windows; throws on anything else. */
export function utcDay(isoDate: string): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(isoDate)) throw new RangeError(`not an ISO date (YYYY-MM-DD): "${isoDate}"`);
  const t = parseUtcInstant(isoDate);
  if (t === null) throw new RangeError(`not a valid date: "${isoDate}"`);
  return t;
}

const DURATION_UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: SECOND_MS, m: MINUTE_MS, h: HOUR_MS, d: DAY_MS };

/**
 * A duration written as one or more `<integer><unit>` parts, units ms, s, m, h, d (`1h`, `90s`,
 * `1d12h`), for files people write (world recipes). Null when malformed or not positive.
 */
export function parseDurationMs(text: string): number | null {
  const s = text.trim();
  if (!/^(\d+(ms|s|m|h|d))+$/.test(s)) return null;
  let ms = 0;
  for (const m of s.matchAll(/(\d+)(ms|s|m|h|d)/g)) ms += Number(m[1]) * (DURATION_UNIT_MS[m[2] as string] as number);
  return ms > 0 ? ms : null;
}

/** Human-readable duration for tool docs: "1 day", "3 hours", "90 seconds", "250 ms". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`not a duration: ${ms}`);
  const units: ReadonlyArray<readonly [number, string]> = [
    [DAY_MS, "day"],
    [HOUR_MS, "hour"],
    [MINUTE_MS, "minute"],
    [SECOND_MS, "second"],
  ];
  for (const [size, name] of units) {
    if (ms >= size && ms % size === 0) {
      const n = ms / size;
      return `${n} ${name}${n === 1 ? "" : "s"}`;
    }
  }
  return `${ms} ms`;
}
