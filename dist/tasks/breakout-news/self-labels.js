import { isoInstant, MINUTE_MS } from "../../kernel/day.js";
import { windowMs } from "./params.js";
function selfLabels(view, claims, p, since) {
  const now = view.now();
  const delay = p.price_delay_minutes * MINUTE_MS;
  const visibleUntil = now - delay;
  const W = windowMs(p);
  const H = p.self_hold_minutes * MINUTE_MS;
  const out = [];
  for (const c of claims) {
    if (c.t + delay > now) continue;
    const m = view.markets.get(c.market);
    const outcome = m.outcomes[0];
    if (outcome === void 0) continue;
    const p0 = view.markets.lastPrice(c.market, c.t).find((x) => x.outcome === outcome)?.p ?? null;
    if (p0 === null) continue;
    const sign = c.direction === "up" ? 1 : -1;
    const horizon = Math.min(c.t + W + H, visibleUntil);
    const pts = view.markets.prices(c.market, c.t + 1, horizon).filter((x) => x.outcome === outcome && x.t <= visibleUntil);
    let found = null;
    for (let i = 0; i < pts.length && !found; i++) {
      const s0 = pts[i];
      if (s0.t > c.t + W) break;
      if (sign * (s0.p - p0) < p.self_move_threshold) continue;
      if (s0.t + H > visibleUntil) break;
      let holds = true;
      for (let j = i + 1; j < pts.length && pts[j].t <= s0.t + H; j++)
        if (sign * (pts[j].p - p0) < p.self_move_threshold) {
          holds = false;
          break;
        }
      if (holds) found = { t: s0.t, p: s0.p };
    }
    const base = {
      market: c.market,
      claimed_at: isoInstant(c.t),
      news_id: c.news_id,
      direction: c.direction,
      level_at_claim: p0
    };
    let label;
    if (found) {
      label = {
        ...base,
        label: "confirmed",
        decided_at: isoInstant(found.t + H + delay),
        move_started: isoInstant(found.t),
        level_at_move: found.p
      };
    } else if (c.t + W + H + delay <= now) {
      label = { ...base, label: "not_confirmed", decided_at: isoInstant(c.t + W + H + delay) };
    } else continue;
    if (since !== null && Date.parse(label.decided_at) <= since) continue;
    out.push(label);
  }
  return out;
}
export {
  selfLabels
};
//# sourceMappingURL=self-labels.js.map
