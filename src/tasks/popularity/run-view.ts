import { isoInstant } from "../../common/time.js";
import type { AsOfView } from "../../world/as-of-view.js";
import type { Observation, StateSection } from "../task.js";
import type { PopularityParams } from "./params.js";
import { capWindowMs, horizonMs } from "./recommend-rule.js";
import type { RecommendationBook } from "./recommendation-book.js";

/**
 * The decision-critical state at `now`: the rolling cap (the accepted recommendations counting
 * against it, each with the instant its slot frees) and the recommendations still pending (their
 * post not yet revealed). Only the agent's own commitments: nothing about outcomes.
 */
export function recommendationState(book: RecommendationBook, now: number, p: PopularityParams): StateSection[] {
  const window = book.inCapWindow(now, p);
  const cap: StateSection = {
    title: `recommendation cap (rolling ${p.cap_window_hours} h)`,
    open: 0,
    lines: [
      `used ${window.length} of ${p.cap}, ${Math.max(0, p.cap - window.length)} remaining`,
      ...window.map((r) => `${r.id} recommended ${isoInstant(r.t)}, slot frees ${isoInstant(r.t + capWindowMs(p))}`),
    ],
  };
  const H = horizonMs(p);
  const pending: StateSection = {
    title: "pending recommendations (post not yet revealed)",
    lines: book
      .pending(now, p)
      .map(
        (r) =>
          `${r.id} created ${isoInstant(r.created_utc)}, recommended ${isoInstant(r.t)}, reveals ${isoInstant(r.created_utc + H)}`,
      ),
  };
  return [cap, pending];
}

/**
 * Root posts that became visible in (since, now], by (visible_at, id), read through the as-of view
 * (which never returns anything past its own clock). A post may become visible after its creation,
 * so the read is by visible time (`reddit.arrivals`, one range of the visible_at index), not by
 * creation time.
 */
export function postObservations(view: AsOfView, since: number, now: number): Observation[] {
  return view.reddit
    .arrivals(since, now)
    .map(
      (x): Observation => ({ t: x.visible_at, kind: "reddit_post", id: x.id, summary: `r/${x.subreddit}: ${x.title}` }),
    )
    .sort((a, b) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
