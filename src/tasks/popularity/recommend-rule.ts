import { HOUR_MS } from "../../common/time.js";
import type { PopularityParams } from "./params.js";

/** An accepted recommendation. */
export interface Recommendation {
  id: string;
  /** when it was accepted */
  t: number;
  /** the post's creation instant */
  created_utc: number;
}

export type RuleVerdict =
  | { ok: true }
  | { ok: false; reason: "before_run_start" | "revealed" }
  | { ok: false; reason: "already_recommended"; at: number }
  | { ok: false; reason: "cap_reached"; next_slot_at: number };

type RuleParams = Pick<PopularityParams, "horizon_hours" | "cap" | "cap_window_hours">;

export const horizonMs = (p: Pick<PopularityParams, "horizon_hours">) => Math.round(p.horizon_hours * HOUR_MS);
export const capWindowMs = (p: Pick<PopularityParams, "cap_window_hours">) => Math.round(p.cap_window_hours * HOUR_MS);

/** accepted recommendations counting against the cap at `now`: accepted in (now − window, now] */
export function inCapWindow(prior: readonly Recommendation[], now: number, p: RuleParams): Recommendation[] {
  const from = now - capWindowMs(p);
  return prior.filter((r) => r.t > from && r.t <= now);
}

/** The accepted recommendations the rules consult: by id, and those in the cap window at `now`. */
export interface PriorRecommendations {
  get(id: string): Recommendation | undefined;
  /** equal to `inCapWindow(all accepted, now, p)` */
  inCapWindow(now: number, p: Pick<PopularityParams, "cap_window_hours">): readonly Recommendation[];
}

/**
 * The recommendation rules for a post already known to be visible at `now` (the caller checks
 * visibility): created at or after the run start, not yet revealed (now < created + horizon), not
 * recommended before, and fewer than `cap` accepted recommendations in the rolling window. Shared by
 * the `recommend` tool (post read through the as-of view) and the scorer (post read from the raw
 * world), so both apply the same rules in the same order.
 */
export function judgeRecommendation(
  post: { id: string; created_utc: number },
  now: number,
  sim_start: number,
  prior: PriorRecommendations,
  p: RuleParams,
): RuleVerdict {
  if (post.created_utc < sim_start) return { ok: false, reason: "before_run_start" };
  if (now >= post.created_utc + horizonMs(p)) return { ok: false, reason: "revealed" };
  const dup = prior.get(post.id);
  if (dup) return { ok: false, reason: "already_recommended", at: dup.t };
  const window = prior.inCapWindow(now, p);
  if (window.length >= p.cap) {
    const oldest = Math.min(...window.map((r) => r.t));
    return { ok: false, reason: "cap_reached", next_slot_at: oldest + capWindowMs(p) };
  }
  return { ok: true };
}
