import { DAY_MS, isoDay, isoInstant } from "../../common/time.js";
import type { Observation, StateSection } from "../task.js";
import type { ViewCloses } from "./daily-closes.js";
import type { RiskPortfolioEnv } from "./environment.js";

/** The decision-critical state now: the books due (window open, not filed) with their deadlines, and the books filed. */
export function bookState(env: RiskPortfolioEnv): StateSection[] {
  return [
    {
      title: "books due (filing window open, not filed)",
      lines: env.booksDue().map((b) => `${b.day}: due before ${isoInstant(b.deadline)}`),
    },
    { title: "books filed (final)", open: 0, lines: env.filed().map((f) => `${f.day}: filed ${isoInstant(f.t)}`) },
  ];
}

/**
 * Daily closes that became known in (since, now] (a day's close is known at the next midnight),
 * read through the as-of view by `closes`; non-trading days give nothing.
 */
export function closeObservations(closes: ViewCloses, since: number, now: number): Observation[] {
  const out: Observation[] = [];
  // close_time = day + 1 day ∈ (since, now]
  for (let d = Math.floor(since / DAY_MS) * DAY_MS; d + DAY_MS <= now; d += DAY_MS) {
    if (d + DAY_MS <= since) continue;
    const c = closes.get(d);
    if (!c) continue;
    out.push({
      t: c.close_time,
      kind: "daily_close",
      id: isoDay(c.day),
      summary: `close of ${isoDay(c.day)}: ${Object.entries(c.prices)
        .map(([s, p]) => `${s} ${p}`)
        .join(", ")}`,
    });
  }
  return out;
}
