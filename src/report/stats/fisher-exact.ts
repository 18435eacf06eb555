import { logFactorial } from "./jstat.js";

/**
 * Two-sided Fisher's exact test of independence for the 2×2 table
 *
 *            outcome+  outcome−
 *   feature+    a         b
 *   feature−    c         d
 *
 * p = the total hypergeometric probability (margins fixed) of every table at most as likely as the
 * observed one (the usual two-sided definition, as R's fisher.test; a relative tolerance of 1e-7
 * keeps ties of equal probability together). Returns 1 when a margin is empty.
 */
export function fisherExact(a: number, b: number, c: number, d: number): number {
  for (const [name, v] of Object.entries({ a, b, c, d }))
    if (!Number.isInteger(v) || v < 0) throw new Error(`Fisher's exact test: cell ${name} must be a count, got ${v}`);
  const r1 = a + b;
  const r2 = c + d;
  const c1 = a + c;
  const n = r1 + r2;
  if (r1 === 0 || r2 === 0 || c1 === 0 || c1 === n) return 1;
  const fixed = logFactorial(r1) + logFactorial(r2) + logFactorial(c1) + logFactorial(n - c1) - logFactorial(n);
  const logP = (x: number) =>
    fixed - logFactorial(x) - logFactorial(r1 - x) - logFactorial(c1 - x) - logFactorial(r2 - c1 + x);
  const lo = Math.max(0, c1 - r2);
  const hi = Math.min(r1, c1);
  const observed = logP(a);
  let p = 0;
  for (let x = lo; x <= hi; x++) {
    const lp = logP(x);
    if (lp <= observed + 1e-7) p += Math.exp(lp);
  }
  return Math.min(1, p);
}
