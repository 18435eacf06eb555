class RowDigest {
  count = 0;
  a = 0;
  b = 0;
  add(key) {
    let h1 = 2166136261;
    let h2 = 2538058380;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 16777619);
      h2 = Math.imul(h2 ^ c, 1540483477);
      h2 ^= h2 >>> 15;
    }
    this.a = this.a + (h1 >>> 0) >>> 0;
    this.b = this.b + (h2 >>> 0) >>> 0;
    this.count++;
  }
  /** Folds in the digest of a committed batch. */
  merge(other) {
    this.a = this.a + other.a >>> 0;
    this.b = this.b + other.b >>> 0;
    this.count += other.count;
  }
  get rows() {
    return this.count;
  }
  toString() {
    return `${this.count}:${this.a.toString(16).padStart(8, "0")}${this.b.toString(16).padStart(8, "0")}`;
  }
}
export {
  RowDigest
};
//# sourceMappingURL=row-digest.js.map
