/**
 * Cheap, order-independent content digest of a table: every row contributes a 64-bit hash (two
 * independent 32-bit FNV-1a-style lanes) of its natural key and visible_at, and the digest is the
 * row count plus the sum of each lane modulo 2^32. Building it costs well under a microsecond per
 * row, so it is computed while rows are inserted. It is not cryptographic: it fingerprints which
 * rows a world holds and when they become visible (the manifest hash then covers it with sha256).
 */
export class RowDigest {
  private count = 0;
  private a = 0;
  private b = 0;

  add(key: string): void {
    this.addParts(key, "", "");
  }

  /**
   * `add(a + b + c)` without building the string (a key joined from parts, e.g. an id, the
   * separator and a time, would be a rope flattened on first read).
   */
  addParts(a: string, b: string, c: string): void {
    let h1 = 0x811c9dc5;
    let h2 = 0x9747b28c;
    for (let p = 0; p < 3; p++) {
      const key = p === 0 ? a : p === 1 ? b : c;
      for (let i = 0; i < key.length; i++) {
        const ch = key.charCodeAt(i);
        h1 = Math.imul(h1 ^ ch, 0x01000193);
        h2 = Math.imul(h2 ^ ch, 0x5bd1e995);
        h2 ^= h2 >>> 15;
      }
    }
    this.a = (this.a + (h1 >>> 0)) >>> 0;
    this.b = (this.b + (h2 >>> 0)) >>> 0;
    this.count++;
  }

  /** Folds in the digest of a committed batch. */
  merge(other: RowDigest): void {
    this.a = (this.a + other.a) >>> 0;
    this.b = (this.b + other.b) >>> 0;
    this.count += other.count;
  }

  get rows(): number {
    return this.count;
  }

  toString(): string {
    return `${this.count}:${this.a.toString(16).padStart(8, "0")}${this.b.toString(16).padStart(8, "0")}`;
  }
}
