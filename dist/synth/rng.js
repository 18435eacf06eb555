import { xoroshiro128plus } from "pure-rand";
function fmix32(h0) {
  let h = h0 | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 2246822507);
  h ^= h >>> 13;
  h = Math.imul(h, 3266489909);
  h ^= h >>> 16;
  return h | 0;
}
function hashString(s, salt) {
  let h = 2166136261 ^ salt | 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return fmix32(h);
}
const TWO_POW_32 = 4294967296;
class SplitRng {
  constructor(path) {
    this.path = path;
    const s0 = hashString(path, 2654435769);
    const s1 = hashString(path, 2135587861);
    const s2 = hashString(path, 374761393);
    const s3 = hashString(path, 668265263);
    const state = s0 === 0 && s1 === 0 && s2 === 0 && s3 === 0 ? [1, 0, 0, 0] : [s0, s1, s2, s3];
    this.gen = xoroshiro128plus.fromState(state);
    for (let i = 0; i < 8; i++) this.gen.unsafeNext();
  }
  path;
  gen;
  next() {
    return (this.gen.unsafeNext() >>> 0) / TWO_POW_32;
  }
  int(n) {
    return Math.floor(this.next() * n);
  }
  uniform(a, b) {
    return a + (b - a) * this.next();
  }
  chance(p) {
    return this.next() < p;
  }
  normal() {
    const u1 = 1 - this.next();
    const u2 = this.next();
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }
  exp(rate) {
    return -Math.log(1 - this.next()) / rate;
  }
  poisson(mean) {
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
  pick(items) {
    if (items.length === 0) throw new Error("Rng.pick on an empty array");
    return items[this.int(items.length)];
  }
  weighted(weights) {
    let total = 0;
    for (const w of weights) total += w;
    let x = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i];
      if (x < 0) return i;
    }
    return weights.length - 1;
  }
  split(label) {
    return new SplitRng(`${this.path}/${label}`);
  }
}
function createRng(seed) {
  if (!Number.isFinite(seed)) throw new Error(`synth seed must be a finite number, got ${seed}`);
  return new SplitRng(`seed:${seed}`);
}
export {
  createRng
};
//# sourceMappingURL=rng.js.map
