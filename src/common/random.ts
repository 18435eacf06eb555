/**
 * The one module of seeded randomness (simulation code never calls Math.random). Two generators,
 * each pinned by the anchors that use it, over one hash:
 * - `hash32(key)`: FNV-1a over the key's UTF-16 code units, finalized with murmur3's fmix32;
 * - `createRng(seed)` / `Rng.split(label)`: splittable xoroshiro128+ streams keyed by a seed path
 *   (the synthetic generator: adding rows to one sub-stream never shifts another);
 * - `SplitMix32` and `keyedUniform(...parts)`: a tiny 32-bit generator seeded by a key's hash, and
 *   a stateless uniform that depends only on its key (task-side environment randomness such as
 *   price-check's incidents and latency jitter, keyed like `${env_seed}:${venue}:outage`).
 */
import { type RandomGenerator, xoroshiro128plus } from "pure-rand";

const TWO_POW_32 = 4294967296;

/** murmur3's 32-bit finalizer; unsigned. */
export function fmix32(h0: number): number {
  let h = h0 | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** FNV-1a (32-bit) over UTF-16 code units from `basis` (the FNV offset basis by default), finalized by fmix32; unsigned. */
export function hash32(key: string, basis = 0x811c9dc5): number {
  let h = basis | 0;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h);
}

/** a seed path's 32-bit word for one salt (signed, as xoroshiro's state words are) */
const hashString = (s: string, salt: number): number => hash32(s, 0x811c9dc5 ^ salt) | 0;

/**
 * The splittable stream (`createRng`, the synthetic generator's).
 *
 * Each `Rng` wraps a pure-rand xoroshiro128plus generator. `split(label)` derives an independent
 * child whose 128-bit state is a murmur3-style hash of the parent's *seed path* (root seed plus
 * every label on the way down), never of the parent's consumed position. So drawing more numbers
 * from one sub-stream (e.g. adding markets) never shifts another sub-stream (e.g. reddit), and
 * `split("x")` returns the same stream no matter when it is called.
 */
export interface Rng {
  /** uniform in [0, 1) with 32 bits of resolution */
  next(): number;
  /** uniform integer in [0, n) */
  int(n: number): number;
  /** uniform in [a, b) */
  uniform(a: number, b: number): number;
  /** true with probability p */
  chance(p: number): boolean;
  /** standard normal (Box-Muller, one value per call) */
  normal(): number;
  /** exponential with the given rate (mean 1/rate) */
  exp(rate: number): number;
  /** Poisson variate (Knuth for small means, rounded normal above 60) */
  poisson(mean: number): number;
  /** one element of a non-empty array */
  pick<T>(items: readonly T[]): T;
  /** index drawn proportionally to non-negative weights */
  weighted(weights: readonly number[]): number;
  /** independent child stream for a label */
  split(label: string): Rng;
}

class SplitRng implements Rng {
  private readonly gen: RandomGenerator;
  constructor(private readonly path: string) {
    const s0 = hashString(path, 0x9e3779b9);
    const s1 = hashString(path, 0x7f4a7c15);
    const s2 = hashString(path, 0x165667b1);
    const s3 = hashString(path, 0x27d4eb2f);
    // xoroshiro128plus must not start from the all-zero state
    const state = s0 === 0 && s1 === 0 && s2 === 0 && s3 === 0 ? [1, 0, 0, 0] : [s0, s1, s2, s3];
    this.gen = xoroshiro128plus.fromState(state);
    // warm up: decorrelate nearby hashed states
    for (let i = 0; i < 8; i++) this.gen.unsafeNext();
  }
  next(): number {
    return (this.gen.unsafeNext() >>> 0) / TWO_POW_32;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  uniform(a: number, b: number): number {
    return a + (b - a) * this.next();
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  normal(): number {
    const u1 = 1 - this.next();
    const u2 = this.next();
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }
  exp(rate: number): number {
    return -Math.log(1 - this.next()) / rate;
  }
  poisson(mean: number): number {
    if (mean <= 0) return 0;
    if (mean > 60) return Math.max(0, Math.round(mean + Math.sqrt(mean) * this.normal()));
    const limit = Math.exp(-mean);
    let k = 0;
    let prod = this.next();
    while (prod > limit) {
      k++;
      prod *= this.next();
    }
    return k;
  }
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("Rng.pick on an empty array");
    return items[this.int(items.length)] as T;
  }
  weighted(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    let x = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i] as number;
      if (x < 0) return i;
    }
    return weights.length - 1;
  }
  split(label: string): Rng {
    return new SplitRng(`${this.path}/${label}`);
  }
}

/** Root stream for a seed (any finite number; it is keyed by its decimal form). */
export function createRng(seed: number): Rng {
  if (!Number.isFinite(seed)) throw new Error(`synth seed must be a finite number, got ${seed}`);
  return new SplitRng(`seed:${seed}`);
}

/** SplitMix32: a tiny, well-mixed 32-bit generator seeded by one unsigned 32-bit integer. */
export class SplitMix32 {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  static fromKey(key: string): SplitMix32 {
    return new SplitMix32(hash32(key));
  }

  nextU32(): number {
    this.state = (this.state + 0x9e3779b9) | 0;
    let z = this.state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  }

  /** uniform in [0, 1) */
  next(): number {
    return this.nextU32() / TWO_POW_32;
  }

  /** exponential with the given mean */
  exp(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }

  /** uniform integer in [0, n) */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
}

/** A uniform in [0, 1) determined by the key parts alone. */
export function keyedUniform(...parts: (string | number)[]): number {
  return new SplitMix32(hash32(parts.join(":"))).next();
}
