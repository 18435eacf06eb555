const TWO_POW_32 = 4294967296;
function fmix32(h0) {
  let h = h0 | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 2246822507);
  h ^= h >>> 13;
  h = Math.imul(h, 3266489909);
  h ^= h >>> 16;
  return h >>> 0;
}
function hash32(key) {
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return fmix32(h);
}
class SplitMix32 {
  state;
  constructor(seed) {
    this.state = seed >>> 0;
  }
  static fromKey(key) {
    return new SplitMix32(hash32(key));
  }
  nextU32() {
    this.state = this.state + 2654435769 | 0;
    let z = this.state;
    z = Math.imul(z ^ z >>> 16, 2246822507);
    z = Math.imul(z ^ z >>> 13, 3266489909);
    return (z ^ z >>> 16) >>> 0;
  }
  /** uniform in [0, 1) */
  next() {
    return this.nextU32() / TWO_POW_32;
  }
  /** exponential with the given mean */
  exp(mean) {
    return -Math.log(1 - this.next()) * mean;
  }
  /** uniform integer in [0, n) */
  int(n) {
    return Math.floor(this.next() * n);
  }
}
function keyedUniform(...parts) {
  return new SplitMix32(hash32(parts.join(":"))).next();
}
export {
  SplitMix32,
  hash32,
  keyedUniform
};
//# sourceMappingURL=prng.js.map
