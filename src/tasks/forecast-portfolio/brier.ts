/**
 * Brier arithmetic of forecast-portfolio (tasks.md §6). A forecast maps outcome labels to
 * probabilities; an outcome the forecast does not name has probability 0, and unassigned mass
 * (Σp < 1) is not redistributed. Summing over every outcome of the question with unnamed outcomes at
 * 0 equals summing over the named outcomes ∪ {truth}, because an unnamed outcome that is not the
 * truth contributes (0 − 0)² = 0: so for a Yes/No question {Yes: 0.7} scores 1 − 0.7² − 1² = −0.49
 * when the answer is No, not 1 − 2·0.7².
 */

import { integrateSteps, type StepPiece } from "../metrics.js";

export type Forecast = Readonly<Record<string, number>>;

/** BSS of one forecast against the truth: 1 − Σ_{o ∈ named ∪ {truth}} (p_o − 1[o = truth])² */
export function brierSkill(f: Forecast, truth: string): number {
  let sum = 0;
  for (const [o, p] of Object.entries(f)) {
    const d = p - (o === truth ? 1 : 0);
    sum += d * d;
  }
  if (!Object.hasOwn(f, truth)) sum += 1;
  return 1 - sum;
}

/** the uniform forecast over a question's outcomes (the standing forecast before a first submission) */
export function uniformForecast(outcomes: readonly string[]): Forecast {
  return Object.fromEntries(outcomes.map((o) => [o, 1 / outcomes.length]));
}

/** A piece of a piecewise-constant standing forecast: `forecast` stands on [from, to). */
export interface Segment {
  from: number;
  to: number;
  forecast: Forecast;
  /** true for the uniform default before the first submission */
  default: boolean;
}

/**
 * The standing forecast over [start, end): the uniform default until the first change, then each
 * change stands from its instant until the next one. Changes at or after `end` are ignored; changes
 * before `start` set the forecast standing at `start`; of several changes at one instant the last
 * wins. Zero-length segments are dropped.
 */
export function standingSegments(
  start: number,
  end: number,
  initial: Forecast,
  changes: readonly { t: number; forecast: Forecast }[],
): Segment[] {
  if (!(end > start)) throw new RangeError(`empty interval [${start}, ${end})`);
  const out: Segment[] = [];
  let cur: Forecast = initial;
  let isDefault = true;
  let from = start;
  for (const c of changes) {
    if (c.t >= end) break;
    if (c.t > from) {
      out.push({ from, to: c.t, forecast: cur, default: isDefault });
      from = c.t;
    }
    cur = c.forecast;
    isDefault = false;
  }
  out.push({ from, to: end, forecast: cur, default: isDefault });
  return out;
}

/** the segments as a piecewise-constant BSS series (for the shared time-integrals) */
export function bssSteps(segments: readonly Segment[], truth: string): StepPiece[] {
  return segments.map((s) => ({ from: s.from, to: s.to, value: brierSkill(s.forecast, truth) }));
}

/** ∫ BSS(t) dt / (end − start) over the segments, computed exactly segment by segment */
export function timeAverage(segments: readonly Segment[], truth: string): number {
  const first = segments[0];
  const last = segments.at(-1);
  if (!first || !last) throw new RangeError("no segments");
  return integrateSteps(bssSteps(segments, truth)).integral / (last.to - first.from);
}

/** BS_ref = 2b(1 − b): the two-outcome Brier score of always forecasting the base rate b */
export function referenceBrier(baseRate: number): number {
  return 2 * baseRate * (1 - baseRate);
}
