import { DAY_MS } from "../../common/time.js";
/**
 * Choosing the XBRL fact of a filing's own period — the scorer's gold and the reference clients'
 * reading of companyconcept both use this. A fact belongs to a 10-Q / 10-K when its `accn` is the
 * filing's accession, its `end` is the filing's report date and its duration (end − start, in
 * days) is "about 3 months" (10-Q) or "about 12 months" (10-K): inside the task's ranges
 * (default 80–100 and 350–380 days). Instant facts (no start) never match.
 */

export interface PeriodFact {
  start: string | null;
  end: string;
  val: number;
  accn: string;
  fy: number | null;
  fp: string | null;
}

export interface PeriodRule {
  accession: string;
  report_date: string;
  form: string;
  quarter_days: readonly [number, number];
  year_days: readonly [number, number];
}

/** whole days from start to end (both YYYY-MM-DD); NaN for malformed dates */
export function durationDays(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS);
}

/** The duration range of a form (null for forms without a period: 8-K). */
export function periodRange(
  rule: Pick<PeriodRule, "form" | "quarter_days" | "year_days">,
): readonly [number, number] | null {
  switch (rule.form) {
    case "10-Q":
      return rule.quarter_days;
    case "10-K":
      return rule.year_days;
    default:
      return null;
  }
}

/** The first matching fact in (start desc, val) order — deterministic when a filing repeats a fact. */
export function pickPeriodFact<F extends PeriodFact>(facts: readonly F[], rule: PeriodRule): F | null {
  const range = periodRange(rule);
  if (!range) return null;
  const hits = facts.filter((f) => {
    if (f.accn !== rule.accession || f.end !== rule.report_date || f.start === null) return false;
    const d = durationDays(f.start, f.end);
    return d >= range[0] && d <= range[1];
  });
  hits.sort((a, b) =>
    (a.start as string) < (b.start as string) ? 1 : (a.start as string) > (b.start as string) ? -1 : a.val - b.val,
  );
  return hits[0] ?? null;
}
