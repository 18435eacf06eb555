import { unsafeUniformIntDistribution, xoroshiro128plus } from "pure-rand";
import { quantileSorted } from "./summary.js";

/** The report's fixed bootstrap seed: every CI is reproducible byte for byte. */
export const BOOTSTRAP_SEED = 20_260_301;
export const BOOTSTRAP_RESAMPLES = 10_000;
export const CI_LEVEL = 0.95;

export interface Interval {
  lo: number;
  hi: number;
}

export interface BootstrapOptions {
  seed?: number;
  resamples?: number;
  level?: number;
}

/**
 * Percentile bootstrap confidence interval of the mean: `resamples` resamples of size n drawn
 * with replacement by a xoroshiro128+ generator seeded with `seed` (a fresh generator per call,
 * so a CI never depends on which other CIs were computed before it), the interval being the
 * (1 − level)/2 and (1 + level)/2 type-7 quantiles of the resampled means. Null below two values
 * (a single seed has no sampling distribution to speak of).
 */
export function bootstrapMeanCi(xs: readonly number[], o: BootstrapOptions = {}): Interval | null {
  const n = xs.length;
  if (n < 2) return null;
  const resamples = o.resamples ?? BOOTSTRAP_RESAMPLES;
  const level = o.level ?? CI_LEVEL;
  if (!Number.isInteger(resamples) || resamples < 1) throw new Error(`resamples must be a positive integer`);
  if (!(level > 0 && level < 1)) throw new Error(`CI level must be in (0, 1), got ${level}`);
  const gen = xoroshiro128plus(o.seed ?? BOOTSTRAP_SEED);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += xs[unsafeUniformIntDistribution(0, n - 1, gen)]!;
    means[r] = s / n;
  }
  means.sort();
  return { lo: quantileSorted(means, (1 - level) / 2), hi: quantileSorted(means, (1 + level) / 2) };
}
