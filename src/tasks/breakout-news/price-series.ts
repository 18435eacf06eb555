import { isoInstant, MINUTE_MS } from "../../common/time.js";
import type { AsOfView } from "../../world/as-of-view.js";

export interface SeriesRequest {
  market: string;
  outcomes: readonly string[];
  start: number;
  end: number;
  /** null: every change; else the forward-filled level every `grid_minutes` from `start` */
  gridMinutes: number | null;
  /** now − the price delay: every point with t ≤ this is visible */
  visibleUntil: number;
  maxPoints: number;
}

export type SeriesAnswer = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/**
 * The `get_prices` answer: per outcome, the level at `start` (the last point at or before it) and
 * either every change in (start, end] or the level on a grid. `end` is clamped to `visibleUntil`;
 * everything is read through the as-of view, so nothing published after now can appear.
 */
export function priceSeries(view: AsOfView, r: SeriesRequest): SeriesAnswer {
  if (r.end < r.start) return { ok: false, error: `end ${isoInstant(r.end)} is before start ${isoInstant(r.start)}` };
  if (r.start > r.visibleUntil)
    return {
      ok: false,
      error:
        `start ${isoInstant(r.start)} is after visible_until ${isoInstant(r.visibleUntil)}: ` +
        "a price point becomes visible only after the price delay",
    };
  const end = Math.min(r.end, r.visibleUntil);
  const startLevels = new Map(view.markets.lastPrice(r.market, r.start).map((x) => [x.outcome, x.p]));
  const rows = end > r.start ? view.markets.prices(r.market, r.start + 1, end) : [];
  const byOutcome = new Map<string, { t: number; p: number }[]>(r.outcomes.map((o) => [o, []]));
  for (const x of rows) byOutcome.get(x.outcome)?.push({ t: x.t, p: x.p });
  const head = {
    market_id: r.market,
    start: isoInstant(r.start),
    end: isoInstant(end),
    end_clamped: r.end > end,
    visible_until: isoInstant(r.visibleUntil),
  };
  if (r.gridMinutes === null) {
    const n = rows.length;
    if (n > r.maxPoints)
      return {
        ok: false,
        error: `${n} price changes in [start, end]: at most ${r.maxPoints} per call; narrow the range or pass grid_minutes`,
      };
    return {
      ok: true,
      value: {
        ...head,
        series: r.outcomes.map((o) => ({
          outcome: o,
          level_at_start: startLevels.get(o) ?? null,
          changes: (byOutcome.get(o) ?? []).map((c) => ({ t: isoInstant(c.t), p: c.p })),
        })),
      },
    };
  }
  const step = r.gridMinutes * MINUTE_MS;
  const count = Math.floor((end - r.start) / step) + 1;
  if (count * r.outcomes.length > r.maxPoints)
    return {
      ok: false,
      error:
        `${count} grid points per outcome × ${r.outcomes.length} outcomes: at most ${r.maxPoints} per call; ` +
        "narrow the range or coarsen grid_minutes",
    };
  return {
    ok: true,
    value: {
      ...head,
      grid_minutes: r.gridMinutes,
      series: r.outcomes.map((o) => {
        const changes = byOutcome.get(o) ?? [];
        let level = startLevels.get(o) ?? null;
        let i = 0;
        const points: { t: string; p: number | null }[] = [];
        for (let k = 0; k < count; k++) {
          const t = r.start + k * step;
          while (i < changes.length && (changes[i] as { t: number }).t <= t) level = (changes[i++] as { p: number }).p;
          points.push({ t: isoInstant(t), p: level });
        }
        return { outcome: o, points };
      }),
    },
  };
}
