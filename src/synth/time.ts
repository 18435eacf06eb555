/** Time constants and small UTC helpers for the generator (pure; never reads wall time). */
export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

/** 00:00 UTC of the day containing t */
export function utcDayStart(t: number): number {
  return Math.floor(t / DAY) * DAY;
}

/** YYYY-MM-DD of an instant (UTC) */
export function isoDate(t: number): string {
  return new Date(t).toISOString().slice(0, 10);
}

/** epoch ms of a YYYY-MM-DD date at 00:00 UTC */
export function dateToMs(d: string): number {
  return Date.parse(`${d}T00:00:00Z`);
}

/** round down to a multiple of step */
export function floorTo(t: number, step: number): number {
  return Math.floor(t / step) * step;
}

/** round up to a multiple of step */
export function ceilTo(t: number, step: number): number {
  return Math.ceil(t / step) * step;
}

/** zero-padded decimal */
export function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}
