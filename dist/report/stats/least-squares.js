const DEPENDENCE_TOL = 1e-10;
const dot = (a, b) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};
const orthogonalize = (v, qs) => {
  for (let pass = 0; pass < 2; pass++)
    for (const q of qs) {
      const c = dot(q, v);
      for (let i = 0; i < v.length; i++) v[i] -= c * q[i];
    }
};
function leastSquaresRss(columns, y) {
  const n = y.length;
  const qs = [];
  for (const col of columns) {
    if (col.length !== n) throw new Error(`design column has ${col.length} rows, y has ${n}`);
    const v = Float64Array.from(col);
    const norm0 = Math.sqrt(dot(v, v));
    if (norm0 === 0) continue;
    orthogonalize(v, qs);
    const norm = Math.sqrt(dot(v, v));
    if (norm <= DEPENDENCE_TOL * norm0) continue;
    for (let i = 0; i < n; i++) v[i] /= norm;
    qs.push(v);
  }
  const r = Float64Array.from(y);
  orthogonalize(r, qs);
  return { rss: dot(r, r), rank: qs.length };
}
export {
  leastSquaresRss
};
//# sourceMappingURL=least-squares.js.map
