import { parseIsoInstant } from "../../../common/time.js";

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** An instant query parameter: ISO-8601 with a zone, or epoch milliseconds. Absent → undefined. */
export function instantParam(name: string, raw: string | undefined): Parsed<number | undefined> {
  if (raw === undefined || raw === "") return { ok: true, value: undefined };
  if (/^-?\d{1,15}$/.test(raw)) return { ok: true, value: Number(raw) };
  try {
    return { ok: true, value: parseIsoInstant(raw) };
  } catch {
    return {
      ok: false,
      error: `${name} must be an ISO-8601 instant with a zone (e.g. 2026-03-02T09:00:00Z) or epoch ms`,
    };
  }
}

/** A non-negative integer query parameter in [0, max], with a default. */
export function intParam(name: string, raw: string | undefined, dflt: number, max: number): Parsed<number> {
  if (raw === undefined || raw === "") return { ok: true, value: dflt };
  if (!/^\d{1,9}$/.test(raw) || Number(raw) > max)
    return { ok: false, error: `${name} must be an integer from 0 to ${max}` };
  return { ok: true, value: Number(raw) };
}
