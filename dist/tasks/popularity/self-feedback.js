import { HOUR_MS, isoInstant } from "../../kernel/day.js";
import { horizonMs } from "./recommend-rule.js";
const PAGE = 1e3;
function selfLabels(view, recs, p, since) {
  const now = view.now();
  const H = horizonMs(p);
  const out = [];
  const due = recs.map((r) => ({ r, reveal: r.created_utc + H })).filter((x) => x.reveal <= now && (since === null || x.reveal > since)).sort((a, b) => a.reveal - b.reveal || (a.r.id < b.r.id ? -1 : 1));
  for (const { r, reveal } of due) {
    const created = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = view.reddit.cascade(r.id, { offset, limit: PAGE });
      for (const c of page.comments) if (c.visible_at <= reveal) created.push(c.created_utc);
      if (page.comments.length < PAGE) break;
    }
    const countBefore = (t) => created.filter((c) => c < t).length;
    const comments_at = {};
    for (const h of p.feedback_ages_hours) comments_at[`${h}h`] = countBefore(r.created_utc + Math.round(h * HOUR_MS));
    const atReveal = countBefore(reveal);
    out.push({
      post_id: r.id,
      recommended_at: isoInstant(r.t),
      delay_hours: (r.t - r.created_utc) / HOUR_MS,
      revealed_at: isoInstant(reveal),
      visible_comments_at_reveal: atReveal,
      comments_at,
      reached_threshold: atReveal >= p.tail_threshold
    });
  }
  return out;
}
export {
  selfLabels
};
//# sourceMappingURL=self-feedback.js.map
