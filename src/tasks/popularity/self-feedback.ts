import { HOUR_MS, isoInstant } from "../../common/time.js";
import type { AsOfView } from "../../world/as-of-view.js";
import type { PopularityParams } from "./params.js";
import { horizonMs, type Recommendation } from "./recommend-rule.js";

const PAGE = 1000;

/**
 * `self` labels (tasks.md §3): for each of the agent's own accepted recommendations whose post was
 * revealed in (since, now], the comment counts visible at reveal, read through the as-of view only:
 * comments created before the post's age reached each feedback age (1 h, 6 h, 24 h by default) and
 * the revealed cascade. Nothing here reads hidden data: a post's first 24 h of comments are public
 * once it is revealed.
 */
export function selfLabels(
  view: AsOfView,
  recs: readonly Recommendation[],
  p: PopularityParams,
  since: number | null,
): Record<string, unknown>[] {
  const now = view.now();
  const H = horizonMs(p);
  const out: Record<string, unknown>[] = [];
  const due = recs
    .map((r) => ({ r, reveal: r.created_utc + H }))
    .filter((x) => x.reveal <= now && (since === null || x.reveal > since))
    .sort((a, b) => a.reveal - b.reveal || (a.r.id < b.r.id ? -1 : 1));
  for (const { r, reveal } of due) {
    const created: number[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = view.reddit.cascade(r.id, { offset, limit: PAGE });
      for (const c of page.comments) if (c.visible_at <= reveal) created.push(c.created_utc);
      if (page.comments.length < PAGE) break;
    }
    const countBefore = (t: number) => created.filter((c) => c < t).length;
    const comments_at: Record<string, number> = {};
    for (const h of p.feedback_ages_hours) comments_at[`${h}h`] = countBefore(r.created_utc + Math.round(h * HOUR_MS));
    const atReveal = countBefore(reveal);
    out.push({
      post_id: r.id,
      recommended_at: isoInstant(r.t),
      delay_hours: (r.t - r.created_utc) / HOUR_MS,
      revealed_at: isoInstant(reveal),
      visible_comments_at_reveal: atReveal,
      comments_at,
      reached_threshold: atReveal >= p.tail_threshold,
    });
  }
  return out;
}
