import { DateTime } from "luxon";

/**
 * EDGAR's `acceptanceDateTime` is the New York wall clock written with a `Z`
 * ("2022-02-04T20:11:27.000Z" means 20:11:27 in New York, 01:11:27 UTC the next day). The SEC
 * replay writes it that way; the reference clients read it back to true UTC. (The importer in
 * src/ingest has its own reader: tasks do not import ingest.)
 */

export const EDGAR_ZONE = "America/New_York";
const STAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d{1,3})?Z$/;

/** true UTC instant → EDGAR acceptanceDateTime (New York wall clock with `.000Z`) */
export function edgarStamp(t: number): string {
  return DateTime.fromMillis(t, { zone: EDGAR_ZONE }).toFormat("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'");
}

/** EDGAR acceptanceDateTime → true UTC instant; null when it is not in EDGAR's format */
export function edgarStampToUtc(stamp: string): number | null {
  const m = STAMP.exec(stamp);
  if (!m) return null;
  const dt = DateTime.fromISO(`${m[1]}${m[2] ?? ""}`, { zone: EDGAR_ZONE });
  return dt.isValid ? dt.toMillis() : null;
}
