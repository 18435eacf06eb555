import { z } from "zod";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "../common/time.js";
import type { BreakpointRow } from "../world/types.js";

/** One price point of one outcome (t in UTC ms). */
export interface PricePoint {
  t: number;
  p: number;
}

/**
 * Breakpoint detection parameters (a move large against recent volatility), tunable from the CLI
 * (`--bp key=value`) and recorded in the world's truth labels (`breakpoint_params`).
 *
 * The first outcome's series is forward-filled onto a grid of `grid_ms`; a move starts at a grid
 * step whose change is at least `z` times the standard deviation of the previous `lookback_steps`
 * changes (never less than `sigma_floor`); it extends while the following steps move the same way
 * by at least `continue_z` σ; it is a breakpoint when its total size is at least `min_move`.
 * The next search starts `min_gap_ms` after a breakpoint ends.
 */
export const BreakpointParams = z.object({
  /** grid step; 0 = the median spacing of the series' points, at least 10 min */
  grid_ms: z.number().int().nonnegative().default(0),
  lookback_steps: z.number().int().min(2).default(48),
  z: z.number().positive().default(4),
  continue_z: z.number().nonnegative().default(1),
  sigma_floor: z.number().positive().default(0.01),
  min_move: z.number().positive().default(0.05),
  min_gap_ms: z
    .number()
    .int()
    .nonnegative()
    .default(12 * HOUR_MS),
});
export type BreakpointParams = z.infer<typeof BreakpointParams>;
export const DEFAULT_BREAKPOINT_PARAMS: BreakpointParams = BreakpointParams.parse({});

const GRIDS = [10 * MINUTE_MS, HOUR_MS, 6 * HOUR_MS, DAY_MS];

/** The grid of a series when `grid_ms` is 0: the smallest of 10 min, 1 h, 6 h, 1 d ≥ the median spacing. */
export function autoGridMs(points: readonly PricePoint[]): number {
  if (points.length < 2) return GRIDS[0] as number;
  const gaps: number[] = [];
  for (let i = 1; i < points.length; i++) gaps.push((points[i] as PricePoint).t - (points[i - 1] as PricePoint).t);
  gaps.sort((a, b) => a - b);
  const med = gaps[Math.floor(gaps.length / 2)] as number;
  return GRIDS.find((g) => g >= med * 0.9) ?? DAY_MS;
}

/**
 * Breakpoints of one market from its first outcome's points (sorted by t). t_start is the first
 * price point of the move, t_end its last; size = price after − price before (signed, rounded to
 * 1e-4), so up moves are positive.
 */
export function detectBreakpoints(
  market: string,
  points: readonly PricePoint[],
  params: BreakpointParams,
): BreakpointRow[] {
  if (points.length < 3) return [];
  const grid = params.grid_ms > 0 ? params.grid_ms : autoGridMs(points);
  const t0 = (points[0] as PricePoint).t;
  const n = Math.floor(((points[points.length - 1] as PricePoint).t - t0) / grid) + 1;
  // forward-filled level at the end of each grid step k: the last point with t ≤ t0 + k·grid
  const level = new Float64Array(n);
  let j = 0;
  for (let k = 0; k < n; k++) {
    const edge = t0 + k * grid;
    while (j + 1 < points.length && (points[j + 1] as PricePoint).t <= edge) j++;
    level[k] = (points[j] as PricePoint).p;
  }
  const d = new Float64Array(n); // d[k] = level[k] − level[k−1]
  for (let k = 1; k < n; k++) d[k] = (level[k] as number) - (level[k - 1] as number);
  const out: BreakpointRow[] = [];
  let k = 1;
  let searchFrom = 1;
  while (k < n) {
    if (k < searchFrom) {
      k++;
      continue;
    }
    const lo = Math.max(1, k - params.lookback_steps);
    let m = 0;
    let s = 0;
    const cnt = k - lo;
    for (let i = lo; i < k; i++) m += d[i] as number;
    m = cnt > 0 ? m / cnt : 0;
    for (let i = lo; i < k; i++) s += ((d[i] as number) - m) ** 2;
    const sigma = Math.max(params.sigma_floor, cnt > 1 ? Math.sqrt(s / (cnt - 1)) : 0);
    const dk = d[k] as number;
    if (Math.abs(dk) < params.z * sigma) {
      k++;
      continue;
    }
    const sign = Math.sign(dk);
    let e = k;
    while (
      e + 1 < n &&
      Math.sign(d[e + 1] as number) === sign &&
      Math.abs(d[e + 1] as number) >= params.continue_z * sigma
    )
      e++;
    const size = Math.round(((level[e] as number) - (level[k - 1] as number)) * 1e4) / 1e4;
    if (Math.abs(size) >= params.min_move) {
      const from = t0 + (k - 1) * grid;
      const to = t0 + e * grid;
      const first = points.find((p) => p.t > from) as PricePoint;
      let last = first;
      for (const p of points) if (p.t > from && p.t <= to) last = p;
      out.push({
        id: `${market}-bp${String(out.length + 1).padStart(2, "0")}`,
        market,
        t_start: first.t,
        t_end: last.t,
        size,
      });
      searchFrom = e + 1 + Math.ceil(params.min_gap_ms / grid);
      k = e + 1;
    } else k++;
  }
  return out;
}

/**
 * t_det of resolution-detect (tasks.md §2, the synthetic generator's rule): the first point where
 * the winner's price is ≥ `enter` (0.99) and never again < `exit` (0.95) afterwards; null if none.
 */
export function detectionTime(winner: readonly PricePoint[], enter = 0.99, exit = 0.95): number | null {
  let tDet: number | null = null;
  for (const { t, p } of winner) {
    if (p < exit) tDet = null;
    else if (p >= enter && tDet === null) tDet = t;
  }
  return tDet;
}
