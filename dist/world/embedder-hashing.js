import { contentTokens, ENGLISH_STOPWORDS } from "./fts-text.js";
const HASHING_DIM = 256;
const HASHING_EMBEDDER_ID = `hash-unibi-${HASHING_DIM}-v1`;
const BIGRAM_WEIGHT = 0.5;
function hashTokens(text) {
  const lower = text.toLowerCase();
  const out = [];
  let start = -1;
  const n = lower.length;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? lower.charCodeAt(i) : 32;
    if (c > 127) return contentTokens(text).map(stem);
    if (c >= 97 && c <= 122 || c >= 48 && c <= 57) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      const tok = lower.slice(start, i);
      start = -1;
      if (!ENGLISH_STOPWORDS.has(tok)) out.push(stem(tok));
    }
  }
  return out;
}
function stem(t) {
  if (t.length > 3 && t.charCodeAt(t.length - 1) === 115) {
    const p = t.charCodeAt(t.length - 2);
    if (p !== 115 && p !== 117 && p !== 105) return t.slice(0, -1);
  }
  return t;
}
function featureHash(s) {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return fmix(h >>> 0);
}
function fmix(h) {
  h ^= h >>> 16;
  h = Math.imul(h, 2246822507);
  h ^= h >>> 13;
  h = Math.imul(h, 3266489909);
  h ^= h >>> 16;
  return h >>> 0;
}
function bigramHash(a, b) {
  return fmix((Math.imul(a, 2654435761) ^ (b << 13 | b >>> 19) ^ 668265263) >>> 0);
}
const STOP_FNV = new Set(
  [...ENGLISH_STOPWORDS].map((w) => {
    let h = 2166136261;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619);
    return h >>> 0;
  })
);
const STOP_BITS = new Uint8Array(1 << 13);
for (const h of STOP_FNV) STOP_BITS[(h & 65535) >>> 3] |= 1 << (h & 7);
function addFeatures(v, text) {
  const dim = v.length;
  const mask = (dim & dim - 1) === 0 ? dim - 1 : -1;
  let prev = 0;
  let hasPrev = false;
  const n = text.length;
  let start = -1;
  let h = 2166136261 | 0;
  let hBeforeLast = h;
  let last = 0;
  let beforeLast = 0;
  for (let i = 0; i <= n; i++) {
    let c = i < n ? text.charCodeAt(i) : 32;
    if (c > 127) {
      v.fill(0);
      addTokenFeatures(v, hashTokens(text));
      return;
    }
    if (c >= 65 && c <= 90) c += 32;
    if (c >= 97 && c <= 122 || c >= 48 && c <= 57) {
      if (start < 0) {
        start = i;
        h = 2166136261 | 0;
      }
      hBeforeLast = h;
      beforeLast = last;
      last = c;
      h = Math.imul(h ^ c, 16777619);
    } else if (start >= 0) {
      const len = i - start;
      start = -1;
      if ((STOP_BITS[(h & 65535) >>> 3] & 1 << (h & 7)) !== 0 && STOP_FNV.has(h >>> 0) && ENGLISH_STOPWORDS.has(text.slice(i - len, i).toLowerCase()))
        continue;
      const stem2 = len > 3 && last === 115 && beforeLast !== 115 && beforeLast !== 117 && beforeLast !== 105;
      const f = fmix32(stem2 ? hBeforeLast : h);
      const j = mask >= 0 ? f & mask : (f >>> 0) % dim;
      v[j] = v[j] + (f < 0 ? -1 : 1);
      if (hasPrev) {
        const b = fmix32(Math.imul(prev, 2654435761) ^ (f << 13 | f >>> 19) ^ 668265263);
        const k = mask >= 0 ? b & mask : (b >>> 0) % dim;
        v[k] = v[k] + (b < 0 ? -BIGRAM_WEIGHT : BIGRAM_WEIGHT);
      }
      prev = f;
      hasPrev = true;
    }
  }
}
function fmix32(h) {
  h ^= h >>> 16;
  h = Math.imul(h, 2246822507);
  h ^= h >>> 13;
  h = Math.imul(h, 3266489909);
  return h ^ h >>> 16;
}
function addTokenFeatures(v, tokens) {
  const dim = v.length;
  let prev = -1;
  for (const t of tokens) {
    const h = featureHash(t);
    const j = h % dim;
    v[j] = v[j] + (h & 2147483648 ? -1 : 1);
    if (prev >= 0) {
      const b = bigramHash(prev, h);
      const k = b % dim;
      v[k] = v[k] + (b & 2147483648 ? -BIGRAM_WEIGHT : BIGRAM_WEIGHT);
    }
    prev = h;
  }
}
function l2Normalize(v) {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  if (s > 0) {
    const k = 1 / Math.sqrt(s);
    for (let i = 0; i < v.length; i++) v[i] = v[i] * k;
  }
  return v;
}
function hashingEmbedder() {
  return {
    id: HASHING_EMBEDDER_ID,
    dim: HASHING_DIM,
    embed(texts) {
      return texts.map((t) => {
        const v = new Float32Array(HASHING_DIM);
        addFeatures(v, t);
        return l2Normalize(v);
      });
    }
  };
}
export {
  HASHING_DIM,
  HASHING_EMBEDDER_ID,
  addFeatures,
  addTokenFeatures,
  bigramHash,
  featureHash,
  hashTokens,
  hashingEmbedder,
  l2Normalize
};
//# sourceMappingURL=embedder-hashing.js.map
