function passHatK(n, c, k) {
  if (!(Number.isInteger(n) && Number.isInteger(c) && Number.isInteger(k)))
    throw new Error(`pass^k needs integers, got n=${n} c=${c} k=${k}`);
  if (n < 1 || c < 0 || c > n || k < 1 || k > n)
    throw new Error(`pass^k needs 1 \u2264 k \u2264 n and 0 \u2264 c \u2264 n, got n=${n} c=${c} k=${k}`);
  if (c < k) return 0;
  let p = 1;
  for (let i = 0; i < k; i++) p *= (c - i) / (n - i);
  return p;
}
function passHatKCurve(values) {
  for (const v of values) if (v !== 0 && v !== 1) throw new Error(`pass^k needs binary scores, got ${v}`);
  const n = values.length;
  const c = values.filter((v) => v === 1).length;
  return Array.from({ length: n }, (_, i) => ({ k: i + 1, value: passHatK(n, c, i + 1) }));
}
export {
  passHatK,
  passHatKCurve
};
//# sourceMappingURL=pass-k.js.map
