import type { Embedder } from "./embedder.js";
import { contentTokens, ENGLISH_STOPWORDS } from "./fts-text.js";

export const HASHING_DIM = 256;
export const HASHING_EMBEDDER_ID = `hash-unibi-${HASHING_DIM}-v1`;
/** weight of a bigram feature relative to a unigram */
const BIGRAM_WEIGHT = 0.5;

/**
 * Word tokens for hashing: lowercase runs of letters/digits (unicode61-like boundaries, as the FTS
 * index), English stopwords removed, and a plural "s" stripped from words longer than 3 letters
 * (not "ss", "us", "is"), a light stand-in for the FTS side's porter stemmer. ASCII text is cut by a
 * char-code scan; anything else goes through `contentTokens`.
 */
export function hashTokens(text: string): string[] {
  const lower = text.toLowerCase();
  const out: string[] = [];
  let start = -1;
  const n = lower.length;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? lower.charCodeAt(i) : 32;
    if (c > 127) return contentTokens(text).map(stem);
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      const tok = lower.slice(start, i);
      start = -1;
      if (!ENGLISH_STOPWORDS.has(tok)) out.push(stem(tok));
    }
  }
  return out;
}

/** The plural-stripping of `hashTokens` (exported for `wordFeature`). */
function stem(t: string): string {
  if (t.length > 3 && t.charCodeAt(t.length - 1) === 115) {
    const p = t.charCodeAt(t.length - 2);
    // ss, us, is stay (class, status, analysis)
    if (p !== 115 && p !== 117 && p !== 105) return t.slice(0, -1);
  }
  return t;
}

/** FNV-1a over UTF-16 code units with a murmur3 finalizer: a well-mixed unsigned 32-bit hash. */
export function featureHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix(h >>> 0);
}

/** murmur3's 32-bit finalizer */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The feature hash of the word pair (a, b) from the words' own hashes. */
export function bigramHash(a: number, b: number): number {
  return fmix((Math.imul(a, 0x9e3779b1) ^ ((b << 13) | (b >>> 19)) ^ 0x27d4eb2f) >>> 0);
}

/** raw FNV-1a (before the finalizer) of every stopword: a cheap pre-check before comparing the text */
const STOP_FNV = new Set(
  [...ENGLISH_STOPWORDS].map((w) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 0x01000193);
    return h >>> 0;
  }),
);
/** the low 16 bits of every STOP_FNV value as a bitmap: most words are ruled out without a Set lookup */
const STOP_BITS = new Uint8Array(1 << 13);
for (const h of STOP_FNV) STOP_BITS[(h & 0xffff) >>> 3]! |= 1 << (h & 7);

/**
 * Adds the hashed features of `text` to `v`: each word token (see `hashTokens`) with weight 1 and
 * each adjacent pair with weight 0.5, per occurrence; a feature lands in dimension `hash mod dim`
 * with a sign from the hash's top bit (signed hashing keeps collisions unbiased). ASCII text is
 * hashed in one scan without building token strings (same features as `hashTokens`, tested).
 * Hashes stay int32 in the loop (same bits as the unsigned values; `mod dim` is a mask when dim is
 * a power of two), which keeps V8 from boxing them.
 */
export function addFeatures(v: Float32Array, text: string): void {
  const dim = v.length;
  const mask = (dim & (dim - 1)) === 0 ? dim - 1 : -1;
  let prev = 0;
  let hasPrev = false;
  const n = text.length;
  let start = -1;
  let h = 0x811c9dc5 | 0;
  let hBeforeLast = h;
  let last = 0;
  let beforeLast = 0;
  for (let i = 0; i <= n; i++) {
    let c = i < n ? text.charCodeAt(i) : 32;
    if (c > 127) {
      // non-ASCII text: the general path
      v.fill(0);
      addTokenFeatures(v, hashTokens(text));
      return;
    }
    if (c >= 65 && c <= 90) c += 32;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (start < 0) {
        start = i;
        h = 0x811c9dc5 | 0;
      }
      hBeforeLast = h;
      beforeLast = last;
      last = c;
      h = Math.imul(h ^ c, 0x01000193);
    } else if (start >= 0) {
      const len = i - start;
      start = -1;
      if (
        (STOP_BITS[(h & 0xffff) >>> 3]! & (1 << (h & 7))) !== 0 &&
        STOP_FNV.has(h >>> 0) &&
        ENGLISH_STOPWORDS.has(text.slice(i - len, i).toLowerCase())
      )
        continue;
      // plural s stripped from words longer than 3 letters (not ss, us, is)
      const stem = len > 3 && last === 115 && beforeLast !== 115 && beforeLast !== 117 && beforeLast !== 105;
      const f = fmix32(stem ? hBeforeLast : h);
      const j = mask >= 0 ? f & mask : (f >>> 0) % dim;
      v[j] = (v[j] as number) + (f < 0 ? -1 : 1);
      if (hasPrev) {
        const b = fmix32(Math.imul(prev, 0x9e3779b1) ^ ((f << 13) | (f >>> 19)) ^ 0x27d4eb2f);
        const k = mask >= 0 ? b & mask : (b >>> 0) % dim;
        v[k] = (v[k] as number) + (b < 0 ? -BIGRAM_WEIGHT : BIGRAM_WEIGHT);
      }
      prev = f;
      hasPrev = true;
    }
  }
}

/** `fmix` on int32 in and out (the same bits) */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** The features of a token list (the reference path: `addFeatures` gives the same for ASCII text without building tokens). */
export function addTokenFeatures(v: Float32Array, tokens: readonly string[]): void {
  const dim = v.length;
  let prev = -1;
  for (const t of tokens) {
    const h = featureHash(t);
    const j = h % dim;
    v[j] = (v[j] as number) + (h & 0x80000000 ? -1 : 1);
    if (prev >= 0) {
      const b = bigramHash(prev, h);
      const k = b % dim;
      v[k] = (v[k] as number) + (b & 0x80000000 ? -BIGRAM_WEIGHT : BIGRAM_WEIGHT);
    }
    prev = h;
  }
}

/**
 * The feature hash of one content token (a word of `ftsIndexText`: lowercase, no stopword), signed
 * int32 as `addFeatures` keeps it: `featureHash` of the stemmed word. `addWordFeatures` over the
 * features of a text's content tokens gives what `addFeatures` gives for the text itself.
 */
export function wordFeature(word: string): number {
  return featureHash(stem(word)) | 0;
}

/**
 * Adds the features of a token sequence given by its words' `wordFeature`s: the word ids are
 * `words[from, to)` and word w's feature is `feats[2w + 1]` (the caller keeps a pair of values per
 * word). Each word with weight 1 and each adjacent pair with weight 0.5, exactly as `addFeatures`
 * (the same dimensions, signs and order).
 */
export function addWordFeatures(
  v: Float32Array,
  feats: Int32Array,
  words: Uint32Array,
  from: number,
  to: number,
): void {
  const dim = v.length;
  const mask = (dim & (dim - 1)) === 0 ? dim - 1 : -1;
  let prev = 0;
  for (let p = from; p < to; p++) {
    const f = feats[((words[p] as number) << 1) + 1] as number;
    const j = mask >= 0 ? f & mask : (f >>> 0) % dim;
    v[j] = (v[j] as number) + (f < 0 ? -1 : 1);
    if (p > from) {
      const b = fmix32(Math.imul(prev, 0x9e3779b1) ^ ((f << 13) | (f >>> 19)) ^ 0x27d4eb2f);
      const k = mask >= 0 ? b & mask : (b >>> 0) % dim;
      v[k] = (v[k] as number) + (b < 0 ? -BIGRAM_WEIGHT : BIGRAM_WEIGHT);
    }
    prev = f;
  }
}

/** L2-normalizes `v` in place (a zero vector stays zero). */
export function l2Normalize(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += (v[i] as number) * (v[i] as number);
  if (s > 0) {
    const k = 1 / Math.sqrt(s);
    for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) * k;
  }
  return v;
}

/**
 * The offline default embedder: signed feature hashing of word unigrams and bigrams into 256
 * dimensions, L2-normalized. Deterministic, no model; similar texts share words, so cosine
 * similarity behaves like a smoothed lexical overlap that also rewards matching word pairs.
 */
export function hashingEmbedder(): Embedder {
  return {
    id: HASHING_EMBEDDER_ID,
    dim: HASHING_DIM,
    embed(texts) {
      return texts.map((t) => {
        const v = new Float32Array(HASHING_DIM);
        addFeatures(v, t);
        return l2Normalize(v);
      });
    },
  };
}
