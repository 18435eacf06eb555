import type { Rng } from "../common/random.js";

/**
 * The second stream of the different-futures option (generate.ts `SynthOptions.future`): draws
 * that happen at or after `from` come from `rng` (labelled like the stream they replace) instead
 * of the world seed's stream. `null` = the ordinary world.
 */
export type FutureStream = { rng: Rng; from: number } | null;

/** the future stream narrowed to a sub-stream label, or null */
export function futureSplit(f: FutureStream, label: string): FutureStream {
  return f && { rng: f.rng.split(label), from: f.from };
}
