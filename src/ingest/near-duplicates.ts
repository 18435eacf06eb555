import { featureHash } from "../world/embedder-hashing.js";

/** A 64-bit SimHash as two unsigned 32-bit halves. */
export interface SimHash {
  hi: number;
  lo: number;
}

const WORD_RE = /[\p{L}\p{N}]+/gu;

/**
 * SimHash (Charikar) of a text over its word 3-shingles (single words when shorter), each shingle
 * hashed to 64 bits as two differently seeded 32-bit feature hashes.
 */
export function simHash(text: string): SimHash {
  const words = text.toLowerCase().match(WORD_RE) ?? [];
  const v = new Int32Array(64);
  const add = (s: string) => {
    const a = featureHash(s);
    const b = featureHash(`\u0001${s}`);
    for (let i = 0; i < 32; i++) {
      v[i] = (v[i] as number) + ((a >>> i) & 1 ? 1 : -1);
      v[32 + i] = (v[32 + i] as number) + ((b >>> i) & 1 ? 1 : -1);
    }
  };
  if (words.length < 3) for (const w of words) add(w);
  else for (let i = 0; i + 2 < words.length; i++) add(`${words[i]} ${words[i + 1]} ${words[i + 2]}`);
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < 32; i++) {
    if ((v[i] as number) > 0) lo |= 1 << i;
    if ((v[32 + i] as number) > 0) hi |= 1 << i;
  }
  return { hi: hi >>> 0, lo: lo >>> 0 };
}

const popcount = (x: number) => {
  let n = x - ((x >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (Math.imul((n + (n >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number;
};

export function hamming(a: SimHash, b: SimHash): number {
  return popcount((a.hi ^ b.hi) >>> 0) + popcount((a.lo ^ b.lo) >>> 0);
}

/**
 * An index of kept texts that finds an earlier near-duplicate: SimHash within `maxDistance`
 * (≤ 3: four 16-bit bands, so two fingerprints that close share a band exactly, by pigeonhole).
 */
export class NearDuplicateIndex<K> {
  private readonly bands = new Map<number, { h: SimHash; key: K }[]>();

  constructor(readonly maxDistance = 3) {
    if (!Number.isInteger(maxDistance) || maxDistance < 0 || maxDistance > 3)
      throw new RangeError("maxDistance must be an integer in 0..3 (four 16-bit bands)");
  }

  private static bandKeys(h: SimHash): number[] {
    return [h.lo & 0xffff, 0x10000 + (h.lo >>> 16), 0x20000 + (h.hi & 0xffff), 0x30000 + (h.hi >>> 16)];
  }

  /** the key of a kept fingerprint within maxDistance of `h`, or null */
  find(h: SimHash): K | null {
    for (const b of NearDuplicateIndex.bandKeys(h))
      for (const e of this.bands.get(b) ?? []) if (hamming(e.h, h) <= this.maxDistance) return e.key;
    return null;
  }

  add(h: SimHash, key: K): void {
    for (const b of NearDuplicateIndex.bandKeys(h)) {
      const list = this.bands.get(b);
      if (list) list.push({ h, key });
      else this.bands.set(b, [{ h, key }]);
    }
  }
}
