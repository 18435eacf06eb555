import type { CompanyRow } from "../../../world/types.js";

/**
 * The company rows valid at the view's time, one per CIK in CIK order: of the rows visible now
 * (`view.filings.companies()`), each CIK's latest, so a world that records a rename as a later row
 * serves the ticker and name valid at `now` and never one that becomes visible later. Today's worlds
 * hold one row per CIK (see the README: the names come from the submissions snapshot).
 */
export function companiesAsOf(visible: readonly CompanyRow[]): CompanyRow[] {
  const byCik = new Map<string, CompanyRow>();
  for (const c of visible) {
    const prev = byCik.get(c.cik);
    if (!prev || c.visible_at > prev.visible_at) byCik.set(c.cik, c);
  }
  return [...byCik.values()].sort((a, b) => (a.cik < b.cik ? -1 : a.cik > b.cik ? 1 : 0));
}
