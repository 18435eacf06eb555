import { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS } from "../../common/time.js";

const UNIT_MS: Record<string, number> = { ms: 1, s: SECOND_MS, m: MINUTE_MS, h: HOUR_MS, d: DAY_MS };

/**
 * A duration of the task file: one or more `<integer><unit>` parts, units ms, s, m, h, d
 * (`30m`, `1h30m`, `90s`), or a bare integer of minutes. Null when malformed or not positive.
 */
export function parseDuration(v: string | number): number | null {
  if (typeof v === "number") return Number.isInteger(v) && v > 0 ? v * MINUTE_MS : null;
  const s = v.trim();
  if (/^\d+$/.test(s)) return parseDuration(Number(s));
  if (!/^(\d+(ms|s|m|h|d))+$/.test(s)) return null;
  let ms = 0;
  for (const m of s.matchAll(/(\d+)(ms|s|m|h|d)/g)) ms += Number(m[1]) * UNIT_MS[m[2]!]!;
  return ms > 0 ? ms : null;
}
