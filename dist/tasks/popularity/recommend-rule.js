import { HOUR_MS } from "../../kernel/day.js";
const horizonMs = (p) => Math.round(p.horizon_hours * HOUR_MS);
const capWindowMs = (p) => Math.round(p.cap_window_hours * HOUR_MS);
function inCapWindow(prior, now, p) {
  const from = now - capWindowMs(p);
  return prior.filter((r) => r.t > from && r.t <= now);
}
function judgeRecommendation(post, now, sim_start, prior, p) {
  if (post.created_utc < sim_start) return { ok: false, reason: "before_run_start" };
  if (now >= post.created_utc + horizonMs(p)) return { ok: false, reason: "revealed" };
  const dup = prior.find((r) => r.id === post.id);
  if (dup) return { ok: false, reason: "already_recommended", at: dup.t };
  const window = inCapWindow(prior, now, p);
  if (window.length >= p.cap) {
    const oldest = Math.min(...window.map((r) => r.t));
    return { ok: false, reason: "cap_reached", next_slot_at: oldest + capWindowMs(p) };
  }
  return { ok: true };
}
export {
  capWindowMs,
  horizonMs,
  inCapWindow,
  judgeRecommendation
};
//# sourceMappingURL=recommend-rule.js.map
