import { featureHash } from "../world/embedder-hashing.js";

/**
 * Near-duplicate detection for imported news (data.md: "near-identical title and text"): MinHash
 * signatures of a text's word 3-shingle set, banded for lookup (LSH), each candidate verified by
 * its estimated Jaccard similarity. Two texts are near-duplicates when at least `threshold` of
 * their signature slots agree (an unbiased estimate of the shingle sets' Jaccard similarity).
 * A one-word edit of a 100-word text keeps about 94% of its shingles; two articles on the same
 * story written separately share few.
 */
export const MINHASH_SLOTS = 128;
/** LSH: 16 bands of 8 slots: a pair at Jaccard 0.8 becomes a candidate with probability 0.95, at 0.5 with 0.06 */
export const MINHASH_BANDS = 16;
const ROWS = MINHASH_SLOTS / MINHASH_BANDS;
/** Default estimated Jaccard similarity at which two articles count as near-duplicates. */
export const DEFAULT_NEAR_DUPLICATE_JACCARD = 0.8;

const WORD_RE = /[\p{L}\p{N}]+/gu;

/** murmur3's 32-bit finalizer */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Per-slot seeds (fixed: signatures are comparable across imports). */
const SEEDS = Uint32Array.from({ length: MINHASH_SLOTS }, (_, i) => fmix((i + 1) * 0x9e3779b1));

/** The distinct word 3-shingles of a text (lowercased; single words when shorter than three). */
export function shingles(text: string): Set<string> {
  const words = text.toLowerCase().match(WORD_RE) ?? [];
  const out = new Set<string>();
  if (words.length < 3) for (const w of words) out.add(w);
  else for (let i = 0; i + 2 < words.length; i++) out.add(`${words[i]} ${words[i + 1]} ${words[i + 2]}`);
  return out;
}

/** The MinHash signature of a text: per slot, the least seeded hash over its shingles. */
export function minHash(text: string): Uint32Array {
  const sig = new Uint32Array(MINHASH_SLOTS).fill(0xffffffff);
  for (const s of shingles(text)) {
    const h = featureHash(s);
    for (let i = 0; i < MINHASH_SLOTS; i++) {
      const v = fmix((h ^ (SEEDS[i] as number)) >>> 0);
      if (v < (sig[i] as number)) sig[i] = v;
    }
  }
  return sig;
}

/** Share of agreeing slots: the estimate of the two shingle sets' Jaccard similarity. */
export function similarity(a: Uint32Array, b: Uint32Array): number {
  let same = 0;
  for (let i = 0; i < MINHASH_SLOTS; i++) if (a[i] === b[i]) same++;
  return same / MINHASH_SLOTS;
}

function bandKeys(sig: Uint32Array): number[] {
  const out: number[] = [];
  for (let b = 0; b < MINHASH_BANDS; b++) {
    let h = 0x811c9dc5;
    for (let r = 0; r < ROWS; r++) h = fmix((h ^ (sig[b * ROWS + r] as number)) >>> 0);
    out.push(b * 2 ** 32 + h);
  }
  return out;
}

/**
 * An index of kept signatures that finds an earlier near-duplicate: candidates share a band
 * exactly; one is returned only if its similarity is ≥ `threshold` (never a false positive of the
 * estimate; a pair just above the threshold can be missed by the banding, about 5% at 0.8).
 */
export class NearDuplicateIndex<K> {
  private readonly bands = new Map<number, { sig: Uint32Array; key: K }[]>();

  constructor(readonly threshold = DEFAULT_NEAR_DUPLICATE_JACCARD) {
    if (!(threshold > 0 && threshold <= 1)) throw new RangeError("threshold must be in (0, 1]");
  }

  /** the key of a kept signature at least `threshold` similar to `sig`, or null */
  find(sig: Uint32Array): K | null {
    for (const b of bandKeys(sig))
      for (const e of this.bands.get(b) ?? []) if (similarity(e.sig, sig) >= this.threshold) return e.key;
    return null;
  }

  add(sig: Uint32Array, key: K): void {
    for (const b of bandKeys(sig)) {
      const list = this.bands.get(b);
      if (list) list.push({ sig, key });
      else this.bands.set(b, [{ sig, key }]);
    }
  }
}
