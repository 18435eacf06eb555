/**
 * The task's small, documented seeded randomness (never Math.random):
 * - `hash32(key)`: FNV-1a over the key's UTF-16 code units, finalized with murmur3's fmix32;
 * - `SplitMix32`: the 32-bit SplitMix generator (state += 0x9E3779B9, then a fmix-style mix);
 * - `keyedUniform(...parts)`: a uniform in [0, 1) that depends only on its key (a stateless draw,
 *   used for per-call latency jitter keyed by call index).
 * Streams are keyed by strings like `${env_seed}:${venue}:outage`, so adding a venue, symbol or
 * incident kind never shifts another stream's draws.
 */

const TWO_POW_32 = 4294967296;

function fmix32(h0: number): number {
  let h = h0 | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** FNV-1a (32-bit) over UTF-16 code units, finalized by fmix32; unsigned. */
export function hash32(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h);
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
