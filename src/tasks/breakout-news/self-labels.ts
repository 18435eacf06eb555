import { isoInstant, MINUTE_MS } from "../../common/time.js";
import type { AsOfView } from "../../world/as-of-view.js";
import type { Claim } from "./claim-book.js";
import { type BreakoutNewsParams, windowMs } from "./params.js";

export type SelfLabel = {
  market: string;
  claimed_at: string;
  news_id: string;
  direction: "up" | "down";
  label: "confirmed" | "not_confirmed";
  /** when the label became decidable from visible prices (the `since` filter applies to it) */
  decided_at: string;
  /** first-outcome level at the claim */
  level_at_claim: number | null;
  /** confirmed: the price point where the durable move started, and its level */
  move_started?: string;
  level_at_move?: number;
};

/**
 * `self` labels (tasks.md §1): each claim checked against delayed visible prices only.
 *
 * Durable move: with p0 the first outcome's level at the claim instant τ (the last price point at or
 * before τ), θ = `self_move_threshold`, H = `self_hold_minutes` and s = +1 for up, −1 for down, a
 * durable move is a price point at s₀ ∈ (τ, τ + W] with s·(level − p0) ≥ θ that holds: the
 * forward-filled level stays at s·(level − p0) ≥ θ over all of [s₀, s₀ + H].
 * - `confirmed` once such a move is visible: decided at s₀ + H + delay (every point up to s₀ + H is
 *   visible then);
 * - `not_confirmed` when none exists by τ + W + H: decided at τ + W + H + delay;
 * - before either, the claim has no label (it is omitted).
 * Only labels decided at or before now are returned, and with `since` only those decided after it.
 */
export function selfLabels(
  view: AsOfView,
  claims: readonly Claim[],
  p: BreakoutNewsParams,
  since: number | null,
): SelfLabel[] {
  const now = view.now();
  const delay = p.price_delay_minutes * MINUTE_MS;
  const visibleUntil = now - delay;
  const W = windowMs(p);
  const H = p.self_hold_minutes * MINUTE_MS;
  const out: SelfLabel[] = [];
  for (const c of claims) {
    if (c.t + delay > now) continue;
    const m = view.markets.get(c.market);
    const outcome = m.outcomes[0];
    if (outcome === undefined) continue;
    const p0 = view.markets.lastPrice(c.market, c.t).find((x) => x.outcome === outcome)?.p ?? null;
    if (p0 === null) continue;
    const sign = c.direction === "up" ? 1 : -1;
    const horizon = Math.min(c.t + W + H, visibleUntil);
    const pts = view.markets
      .prices(c.market, c.t + 1, horizon)
      .filter((x) => x.outcome === outcome && x.t <= visibleUntil);
    let found: { t: number; p: number } | null = null;
    for (let i = 0; i < pts.length && !found; i++) {
      const s0 = pts[i]!;
      if (s0.t > c.t + W) break;
      if (sign * (s0.p - p0) < p.self_move_threshold) continue;
      if (s0.t + H > visibleUntil) break;
      let holds = true;
      for (let j = i + 1; j < pts.length && pts[j]!.t <= s0.t + H; j++)
        if (sign * (pts[j]!.p - p0) < p.self_move_threshold) {
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
      level_at_claim: p0,
    };
    let label: SelfLabel;
    if (found) {
      label = {
        ...base,
        label: "confirmed",
        decided_at: isoInstant(found.t + H + delay),
        move_started: isoInstant(found.t),
        level_at_move: found.p,
      };
    } else if (c.t + W + H + delay <= now) {
      label = { ...base, label: "not_confirmed", decided_at: isoInstant(c.t + W + H + delay) };
    } else continue;
    if (since !== null && Date.parse(label.decided_at) <= since) continue;
    out.push(label);
  }
  return out;
}
