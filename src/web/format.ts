import { DAY_MS, HOUR_MS, MINUTE_MS } from "../common/time.js";
/** Display helpers for the dashboard pages (pure functions of their arguments). */

/** ISO 8601 of a simulated instant, without milliseconds when they are 0. */
export function isoTime(t: number | null | undefined): string {
  if (t === null || t === undefined || !Number.isFinite(t)) return "—";
  return new Date(t).toISOString().replace(".000Z", "Z");
}

/** "d3 14:05" — simulated time as day-of-episode (1-based) and UTC clock, relative to `origin`. */
export function episodeTime(t: number | null | undefined, origin: number | null | undefined): string {
  if (t === null || t === undefined || origin === null || origin === undefined) return "";
  const rel = t - origin;
  const d = Math.floor(rel / DAY_MS);
  const rest = rel - d * DAY_MS;
  const hh = String(Math.floor(rest / HOUR_MS)).padStart(2, "0");
  const mm = String(Math.floor((rest % HOUR_MS) / MINUTE_MS)).padStart(2, "0");
  return `d${d + 1} ${hh}:${mm}`;
}

export function usd(v: number | null | undefined, digits = 4): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return "—";
  return `$${v.toFixed(digits)}`;
}

export function count(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return "—";
  return v.toLocaleString("en-US");
}

export function metric(v: number | null | undefined): string {
  if (v === null || v === undefined) return "—";
  if (!Number.isFinite(v)) return String(v);
  return Number.isInteger(v) ? String(v) : v.toFixed(4).replace(/0+$/, "").replace(/\.$/, "");
}

/** JSON of a value, cut to `max` characters. */
export function shortJson(v: unknown, max = 160): string {
  const s = v === undefined ? "" : JSON.stringify(v);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** A query string of the defined, non-empty parameters ("" when none). */
export function qs(params: Record<string, string | number | null | undefined>): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") u.set(k, String(v));
  const s = u.toString();
  return s === "" ? "" : `?${s}`;
}
