import { unsafeUniformIntDistribution, xoroshiro128plus } from "pure-rand";
import { quantileSorted } from "./summary.js";
const BOOTSTRAP_SEED = 20260301;
const BOOTSTRAP_RESAMPLES = 1e4;
const CI_LEVEL = 0.95;
function bootstrapMeanCi(xs, o = {}) {
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
    for (let i = 0; i < n; i++) s += xs[unsafeUniformIntDistribution(0, n - 1, gen)];
    means[r] = s / n;
  }
  means.sort();
  return { lo: quantileSorted(means, (1 - level) / 2), hi: quantileSorted(means, (1 + level) / 2) };
}
export {
  BOOTSTRAP_RESAMPLES,
  BOOTSTRAP_SEED,
  CI_LEVEL,
  bootstrapMeanCi
};
//# sourceMappingURL=bootstrap.js.map
