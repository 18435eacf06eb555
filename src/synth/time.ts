/**
 * The generator's short names for the shared time module's constants and UTC helpers
 * (src/common/time.ts is the one time module), plus zero padding for generated ids and texts.
 */
export {
  DAY_MS as DAY,
  HOUR_MS as HOUR,
  isoDay as isoDate,
  MINUTE_MS as MINUTE,
  startOfUtcDay as utcDayStart,
} from "../common/time.js";

/** zero-padded decimal */
export function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}
