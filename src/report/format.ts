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

/**
 * `v` to `digits` significant digits in plain positional notation, never scientific (1.2e-7 is
 * "0.00000012", 3.4e21 is "3400000000000000000000"): ICU's standard notation, no grouping.
 */
export const sig = (v: number, digits: number) =>
  v.toLocaleString("en-US", { maximumSignificantDigits: digits, useGrouping: false });

export const num = (v: number | null | undefined, digits = 2) =>
  v === null || v === undefined
    ? DASH
    : v.toLocaleString("en-US", {
        minimumFractionDigits: Number.isInteger(v) ? 0 : digits,
        maximumFractionDigits: Number.isInteger(v) ? 0 : digits,
        useGrouping: false,
      });

/** Sums of squares: up to 6 significant digits. */
export const ss = (v: number) => (v === 0 ? "0" : sig(v, 6));

/** p-values: four decimals; below 0.0001 as "< 0.0001" (never scientific notation). */
export const pValue = (p: number | null | undefined) =>
  p === null || p === undefined ? DASH : p === 0 ? "0" : p < 1e-4 ? "< 0.0001" : p.toFixed(4);

export const fStat = (f: number | "inf" | null) => (f === null ? DASH : f === "inf" ? "∞" : sig(f, 4));

export const interval = (ci: { lo: number; hi: number } | null) => (ci ? `[${x100(ci.lo)}, ${x100(ci.hi)}]` : DASH);
