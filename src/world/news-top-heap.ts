import type { Ranked } from "./news-top-k.js";

/** A bounded heap of the best k (score desc, seq asc); the root is the worst kept. */
export class TopHeap {
  readonly s: Float64Array;
  readonly q: Int32Array;
  n = 0;
  constructor(readonly k: number) {
    this.s = new Float64Array(k);
    this.q = new Int32Array(k);
  }
  /** true when (s1, q1) ranks below (s2, q2) */
  private worse(i: number, j: number): boolean {
    const a = this.s[i] as number;
    const b = this.s[j] as number;
    return a < b || (a === b && (this.q[i] as number) > (this.q[j] as number));
  }
  private swap(i: number, j: number): void {
    const s = this.s[i] as number;
    this.s[i] = this.s[j] as number;
    this.s[j] = s;
    const q = this.q[i] as number;
    this.q[i] = this.q[j] as number;
    this.q[j] = q;
  }
  get full(): boolean {
    return this.n === this.k;
  }
  /** the k-th best score (only when full) */
  get worst(): number {
    return this.s[0] as number;
  }
  offer(score: number, seq: number): void {
    if (this.n < this.k) {
      let i = this.n++;
      this.s[i] = score;
      this.q[i] = seq;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.worse(i, p)) break;
        this.swap(i, p);
        i = p;
      }
      return;
    }
    const w = this.s[0] as number;
    if (score < w || (score === w && seq > (this.q[0] as number))) return;
    this.s[0] = score;
    this.q[0] = seq;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.n && this.worse(l, m)) m = l;
      if (r < this.n && this.worse(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }
  sorted(): Ranked[] {
    const out: Ranked[] = [];
    for (let i = 0; i < this.n; i++) out.push({ seq: this.q[i] as number, score: -(this.s[i] as number) });
    out.sort((a, b) => a.score - b.score || a.seq - b.seq);
    return out;
  }
}
