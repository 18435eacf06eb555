/** HTML text escaping (text and attribute values). */
export const esc = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

const DASH = "—";

/** A score on the ×100 scale, one decimal. */
export const x100 = (v: number | null | undefined) => (v === null || v === undefined ? DASH : (v * 100).toFixed(1));

export const usd = (v: number | null | undefined) =>
  v === null || v === undefined ? DASH : v === 0 ? "$0" : Math.abs(v) < 0.01 ? `$${v.toFixed(4)}` : `$${v.toFixed(2)}`;

export const pct = (v: number | null | undefined) =>
  v === null || v === undefined ? DASH : `${(v * 100).toFixed(1)}%`;

export const num = (v: number | null | undefined, digits = 2) =>
  v === null || v === undefined ? DASH : Number.isInteger(v) ? String(v) : v.toFixed(digits);

/** Sums of squares: up to 6 significant digits. */
export const ss = (v: number) => (v === 0 ? "0" : Number(v.toPrecision(6)).toString());

export const pValue = (p: number | null | undefined) =>
  p === null || p === undefined ? DASH : p === 0 ? "0" : p < 1e-4 ? p.toExponential(1) : p.toFixed(4);

export const fStat = (f: number | "inf" | null) =>
  f === null ? DASH : f === "inf" ? "∞" : Number(f.toPrecision(4)).toString();

export const interval = (ci: { lo: number; hi: number } | null) => (ci ? `[${x100(ci.lo)}, ${x100(ci.hi)}]` : DASH);
