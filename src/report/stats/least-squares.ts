/** Relative norm below which a column counts as linearly dependent on the earlier ones. */
const DEPENDENCE_TOL = 1e-10;

const dot = (a: Float64Array, b: Float64Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

/** Removes from v its projection on each orthonormal q (twice: "twice is enough" re-orthogonalization). */
const orthogonalize = (v: Float64Array, qs: readonly Float64Array[]) => {
  for (let pass = 0; pass < 2; pass++)
    for (const q of qs) {
      const c = dot(q, v);
      for (let i = 0; i < v.length; i++) v[i]! -= c * q[i]!;
    }
};

/**
 * Residual sum of squares and rank of the ordinary least-squares fit of y on the given columns
 * (the design matrix by columns). Rank-revealing: modified Gram–Schmidt with re-orthogonalization
 * drops a column whose remaining norm is below 1e-10 of its own norm, so aliased columns (empty
 * cells of an unbalanced design) reduce the rank instead of breaking the fit.
 */
export function leastSquaresRss(
  columns: readonly (readonly number[])[],
  y: readonly number[],
): { rss: number; rank: number } {
  const n = y.length;
  const qs: Float64Array[] = [];
  for (const col of columns) {
    if (col.length !== n) throw new Error(`design column has ${col.length} rows, y has ${n}`);
    const v = Float64Array.from(col);
    const norm0 = Math.sqrt(dot(v, v));
    if (norm0 === 0) continue;
    orthogonalize(v, qs);
    const norm = Math.sqrt(dot(v, v));
    if (norm <= DEPENDENCE_TOL * norm0) continue;
    for (let i = 0; i < n; i++) v[i]! /= norm;
    qs.push(v);
  }
  const r = Float64Array.from(y);
  orthogonalize(r, qs);
  return { rss: dot(r, r), rank: qs.length };
}
