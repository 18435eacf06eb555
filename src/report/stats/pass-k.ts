/**
 * pass^k (τ-bench): the probability that k i.i.d. seeds all pass, estimated without bias from
 * n seeds of which c passed as C(c, k) / C(n, k) (a product, so large n never overflows).
 */
export function passHatK(n: number, c: number, k: number): number {
  if (!(Number.isInteger(n) && Number.isInteger(c) && Number.isInteger(k)))
    throw new Error(`pass^k needs integers, got n=${n} c=${c} k=${k}`);
  if (n < 1 || c < 0 || c > n || k < 1 || k > n)
    throw new Error(`pass^k needs 1 ≤ k ≤ n and 0 ≤ c ≤ n, got n=${n} c=${c} k=${k}`);
  if (c < k) return 0;
  let p = 1;
  for (let i = 0; i < k; i++) p *= (c - i) / (n - i);
  return p;
}

/** pass^k for k = 1..n of a binary sample (every value 0 or 1). */
export function passHatKCurve(values: readonly number[]): { k: number; value: number }[] {
  for (const v of values) if (v !== 0 && v !== 1) throw new Error(`pass^k needs binary scores, got ${v}`);
  const n = values.length;
  const c = values.filter((v) => v === 1).length;
  return Array.from({ length: n }, (_, i) => ({ k: i + 1, value: passHatK(n, c, i + 1) }));
}
