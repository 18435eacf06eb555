import { DAY_MS, HOUR_MS, isoDay, MINUTE_MS, startOfUtcDay } from "../../common/time.js";
import type { DailyDigestParams } from "./params.js";

/** One day's digest calendar: all instants UTC epoch ms. */
export interface DigestDay {
  /** `day:YYYY-MM-DD` (the UTC day of the window opening) */
  key: string;
  /** window opening a */
  opens: number;
  /** window close a + window (exclusive) */
  closes: number;
  /** candidate window [candidatesFrom, opens) */
  candidatesFrom: number;
  /** settlement a + settle_hours */
  settles: number;
}

type Calendar = Pick<
  DailyDigestParams,
  "window_open_minute_utc" | "window_minutes" | "candidate_hours" | "settle_hours"
>;

/** The digest day whose window opens on the UTC day containing `t`. */
export function digestDayOf(t: number, p: Calendar): DigestDay {
  const opens = startOfUtcDay(t) + p.window_open_minute_utc * MINUTE_MS;
  return {
    key: `day:${isoDay(opens)}`,
    opens,
    closes: opens + p.window_minutes * MINUTE_MS,
    candidatesFrom: opens - p.candidate_hours * HOUR_MS,
    settles: opens + p.settle_hours * HOUR_MS,
  };
}

/** The day whose delivery window contains `t`, or null when no window is open at `t`. */
export function openWindowAt(t: number, p: Calendar): DigestDay | null {
  const d = digestDayOf(t, p);
  return t >= d.opens && t < d.closes ? d : null;
}

/** The first window opening strictly after `t`. */
export function nextWindowAfter(t: number, p: Calendar): DigestDay {
  const d = digestDayOf(t, p);
  return d.opens > t ? d : digestDayOf(d.opens + DAY_MS, p);
}

/** Every day whose window opens in [from, to), in order. */
export function daysOpeningIn(from: number, to: number, p: Calendar): DigestDay[] {
  const out: DigestDay[] = [];
  let d = digestDayOf(from, p);
  if (d.opens < from) d = digestDayOf(d.opens + DAY_MS, p);
  while (d.opens < to) {
    out.push(d);
    d = digestDayOf(d.opens + DAY_MS, p);
  }
  return out;
}

/** Deadlines for the deadline guard: each window's close that falls in [from, to). */
export function digestDeadlines(from: number, to: number, p: Calendar): number[] {
  const out: number[] = [];
  let d = digestDayOf(from - DAY_MS, p);
  while (d.closes < to) {
    if (d.closes >= from) out.push(d.closes);
    d = digestDayOf(d.opens + DAY_MS, p);
  }
  return out;
}
