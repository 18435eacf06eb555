import { type BookDay, type Fill, legError, SIDES, type Side, sideSign } from "./book-engine.js";

/**
 * Reconciliation of filed books against the rebuilt book (tasks.md §10), shared by the grader and
 * the public `validate_books` tool. It reads filed books as untrusted values (any shape) and never
 * trusts one filed number to check another: every field is compared with the rebuilt book, and the
 * book's own identities (equity, NAV, weights, shares versus fills) are checked too.
 */

export const ERROR_CODES = [
  "malformed_book",
  "unknown_day",
  "duplicate_day",
  "missing_day",
  "filed_outside_window",
  "non_finite",
  "unknown_symbol",
  "non_integer_shares",
  "shares_mismatch",
  "cash_mismatch",
  "cost_mismatch",
  "equity_mismatch",
  "equity_identity",
  "nav_mismatch",
  "nav_identity",
  "weight_mismatch",
  "weight_identity",
  "duplicate_fill_id",
  "unknown_fill",
  "fill_wrong_day",
  "fill_mismatch",
  "missing_fill",
  "illegal_transition",
  "shares_fill_mismatch",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface AccountingError {
  /** the book's day (null when the filing has no usable day) */
  day: string | null;
  code: ErrorCode;
  field?: string;
  message: string;
}

export interface Filing {
  day: string;
  book: unknown;
  /** filing instant (the grader checks it against the filing window) */
  t?: number;
}

export interface Tolerances {
  /** cash, equity and costs, currency units */
  cash: number;
  /** NAV and weights */
  ratio: number;
}

export interface ReconcileInput {
  /** rebuilt books of the account's trading days that can be checked, ascending */
  rebuilt: readonly BookDay[];
  /** every public execution of the account (fill_id → fill) */
  fillsById: ReadonlyMap<string, Fill>;
  symbols: readonly string[];
  initialCash: number;
  tol: Tolerances;
  filings: readonly Filing[];
  /** days that must have a filing (the grader's required days; validate_books: none) */
  required: readonly string[];
  /** when set, each filing's `t` must fall in [open, deadline) of its day */
  window?: (day: string) => { open: number; deadline: number };
}

const fmt = (x: unknown) => (typeof x === "number" ? String(x) : JSON.stringify(x));
const isObj = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);
const finite = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);

/** Checks filed books; returns every error found, in (filing order, check order). An empty list = reconciled. */
export function reconcileBooks(inp: ReconcileInput): AccountingError[] {
  const errors: AccountingError[] = [];
  const byDay = new Map(inp.rebuilt.map((b) => [b.date, b]));
  const order = inp.rebuilt.map((b) => b.date);
  const seenDays = new Set<string>();
  const seenFills = new Map<string, string>();
  /** the first filing of each day whose shares are all finite integers (the next day's transition start) */
  const filedShares = new Map<string, Record<string, number>>();
  const firstFilings: { f: Filing; rb: BookDay }[] = [];

  for (const f of inp.filings) {
    const day = typeof f.day === "string" ? f.day : null;
    const push = (code: ErrorCode, message: string, field?: string) =>
      errors.push({ day, code, ...(field !== undefined ? { field } : {}), message });
    const rb = day === null ? undefined : byDay.get(day);
    if (!rb) {
      push(
        "unknown_day",
        `no known close for ${fmt(f.day)}: not a trading day of the account, or its close is not known yet`,
      );
      continue;
    }
    if (seenDays.has(rb.date)) {
      push("duplicate_day", `${rb.date} is filed more than once; only its first filing is checked`);
      continue;
    }
    seenDays.add(rb.date);
    if (inp.window && f.t !== undefined) {
      const w = inp.window(rb.date);
      if (f.t < w.open || f.t >= w.deadline)
        push(
          "filed_outside_window",
          `${rb.date} was filed at ${new Date(f.t).toISOString()}, outside its window [${new Date(w.open).toISOString()}, ${new Date(w.deadline).toISOString()})`,
        );
    }
    firstFilings.push({ f, rb });
  }
  for (const d of inp.required)
    if (!seenDays.has(d)) errors.push({ day: d, code: "missing_day", message: `no book filed for ${d}` });

  // content checks, in day order so transitions can use the previous day's filed shares
  firstFilings.sort((a, b) => a.rb.day - b.rb.day);
  for (const { f, rb } of firstFilings) {
    const i = order.indexOf(rb.date);
    const prevDate = i > 0 ? (order[i - 1] as string) : null;
    const prevRebuilt = i > 0 ? (inp.rebuilt[i - 1] as BookDay).shares : null;
    const prevShares =
      (prevDate === null ? undefined : filedShares.get(prevDate)) ??
      prevRebuilt ??
      Object.fromEntries(inp.symbols.map((s) => [s, 0]));
    const own = checkBook(f.book, rb, prevShares, inp, seenFills);
    errors.push(...own.errors);
    if (own.shares) filedShares.set(rb.date, own.shares);
  }
  return errors;
}

function checkBook(
  book: unknown,
  rb: BookDay,
  prevShares: Record<string, number>,
  inp: ReconcileInput,
  seenFills: Map<string, string>,
): { errors: AccountingError[]; shares: Record<string, number> | null } {
  const errors: AccountingError[] = [];
  const day = rb.date;
  const push = (code: ErrorCode, message: string, field?: string) =>
    errors.push({ day, code, ...(field !== undefined ? { field } : {}), message });
  if (!isObj(book)) {
    push("malformed_book", `the book of ${day} is not an object`);
    return { errors, shares: null };
  }
  const missing = ["cash", "shares", "costs", "equity", "nav", "weights"].filter((k) => !(k in book));
  const containers: [string, boolean][] = [
    ["shares", isObj(book.shares)],
    ["weights", isObj(book.weights)],
    ["costs", isObj(book.costs)],
    ["fills", book.fills === undefined || Array.isArray(book.fills)],
  ];
  const badShape = containers.filter(([k, ok]) => k in book && !ok).map(([k]) => k);
  if (missing.length || badShape.length) {
    push(
      "malformed_book",
      `the book of ${day} ${missing.length ? `lacks ${missing.join(", ")}` : ""}${missing.length && badShape.length ? "; " : ""}${badShape.length ? `has malformed ${badShape.join(", ")}` : ""}`,
    );
    return { errors, shares: null };
  }
  const tol = inp.tol;
  /** a filed number, or null after reporting it as non-finite */
  const num = (v: unknown, field: string): number | null => {
    if (finite(v)) return v;
    push("non_finite", `${field} of ${day} is ${fmt(v)}, not a finite number`, field);
    return null;
  };
  const cmp = (filed: number | null, expected: number, tolerance: number, code: ErrorCode, field: string) => {
    if (filed === null) return;
    if (!(Math.abs(filed - expected) <= tolerance))
      push(
        code,
        `${field} of ${day}: filed ${fmt(filed)}, rebuilt ${fmt(expected)} (residual ${fmt(filed - expected)})`,
        field,
      );
  };

  // shares: known symbols, finite integers, exactly the rebuilt positions (an omitted symbol is 0)
  const sharesIn = book.shares as Record<string, unknown>;
  const shares: Record<string, number> = Object.fromEntries(inp.symbols.map((s) => [s, 0]));
  let sharesUsable = true;
  for (const [s, v] of Object.entries(sharesIn)) {
    if (!inp.symbols.includes(s)) {
      push("unknown_symbol", `shares of ${day} name ${fmt(s)}, not a symbol of the universe`, `shares.${s}`);
      sharesUsable = false;
      continue;
    }
    const q = num(v, `shares.${s}`);
    if (q === null) {
      sharesUsable = false;
      shares[s] = Number.NaN;
      continue;
    }
    if (!Number.isInteger(q)) {
      push("non_integer_shares", `shares.${s} of ${day} is ${fmt(q)}: shares are integers`, `shares.${s}`);
      sharesUsable = false;
    }
    shares[s] = q;
  }
  for (const s of inp.symbols)
    if (shares[s] !== rb.shares[s] && finite(shares[s]))
      push(
        "shares_mismatch",
        `shares.${s} of ${day}: filed ${fmt(shares[s])}, rebuilt ${fmt(rb.shares[s])}`,
        `shares.${s}`,
      );

  // cash and costs
  const cash = num(book.cash, "cash");
  cmp(cash, rb.cash, tol.cash, "cash_mismatch", "cash");
  const costs = book.costs as Record<string, unknown>;
  for (const k of ["commission", "slippage", "borrow"] as const) {
    if (!(k in costs)) {
      push("malformed_book", `costs of ${day} lack ${k}`, `costs.${k}`);
      continue;
    }
    cmp(num(costs[k], `costs.${k}`), rb.costs[k], tol.cash, "cost_mismatch", `costs.${k}`);
  }
  for (const k of Object.keys(costs))
    if (!["commission", "slippage", "borrow"].includes(k))
      push("malformed_book", `costs of ${day} carry an unknown item ${fmt(k)}`, `costs.${k}`);

  // equity and NAV: against the rebuilt book, and the book's own identities
  const equity = num(book.equity, "equity");
  cmp(equity, rb.equity, tol.cash, "equity_mismatch", "equity");
  if (equity !== null && cash !== null && sharesUsable) {
    let implied = cash;
    for (const s of inp.symbols) implied += (shares[s] as number) * (rb.prices[s] as number);
    if (!(Math.abs(equity - implied) <= tol.cash))
      push(
        "equity_identity",
        `equity of ${day} is ${fmt(equity)} but filed cash + Σ filed shares × close = ${fmt(implied)}`,
        "equity",
      );
  }
  const nav = num(book.nav, "nav");
  cmp(nav, rb.nav, tol.ratio, "nav_mismatch", "nav");
  if (nav !== null && equity !== null && !(Math.abs(nav - equity / inp.initialCash) <= tol.ratio))
    push(
      "nav_identity",
      `nav of ${day} is ${fmt(nav)} but filed equity / initial cash = ${fmt(equity / inp.initialCash)}`,
      "nav",
    );

  // weights: signed, shares × close / equity (omitted = 0)
  const weightsIn = book.weights as Record<string, unknown>;
  const weights: Record<string, number | null> = Object.fromEntries(inp.symbols.map((s) => [s, 0]));
  for (const [s, v] of Object.entries(weightsIn)) {
    if (!inp.symbols.includes(s)) {
      push("unknown_symbol", `weights of ${day} name ${fmt(s)}, not a symbol of the universe`, `weights.${s}`);
      continue;
    }
    weights[s] = num(v, `weights.${s}`);
  }
  for (const s of inp.symbols) {
    const w = weights[s] as number | null;
    cmp(w, rb.weights[s] as number, tol.ratio, "weight_mismatch", `weights.${s}`);
    if (w !== null && equity !== null && sharesUsable) {
      const implied = equity === 0 ? 0 : ((shares[s] as number) * (rb.prices[s] as number)) / equity;
      if (!(Math.abs(w - implied) <= tol.ratio))
        push(
          "weight_identity",
          `weights.${s} of ${day} is ${fmt(w)} but filed shares × close / filed equity = ${fmt(implied)}`,
          `weights.${s}`,
        );
    }
  }

  // fills: each a public execution of this day, once; every execution of the day listed
  const fillsIn = (book.fills ?? []) as unknown[];
  const listed = new Set<string>();
  const legs: { symbol: string; side: Side; qty: number; id: string }[] = [];
  fillsIn.forEach((raw, k) => {
    const field = `fills[${k}]`;
    if (!isObj(raw) || typeof raw.fill_id !== "string") {
      push("malformed_book", `${field} of ${day} is not a fill with a string fill_id`, field);
      return;
    }
    const id = raw.fill_id;
    if (listed.has(id)) {
      push("duplicate_fill_id", `${field} of ${day} repeats fill ${id}`, field);
      return;
    }
    listed.add(id);
    const earlier = seenFills.get(id);
    if (earlier !== undefined) {
      push("duplicate_fill_id", `${field} of ${day}: fill ${id} is already booked on ${earlier}`, field);
      return;
    }
    seenFills.set(id, day);
    const qty = num(raw.qty, `${field}.qty`);
    const price = num(raw.price, `${field}.price`);
    const side =
      typeof raw.side === "string" && (SIDES as readonly string[]).includes(raw.side) ? (raw.side as Side) : null;
    if (side === null) push("malformed_book", `${field}.side of ${day} is ${fmt(raw.side)}`, `${field}.side`);
    const symbol = typeof raw.symbol === "string" ? raw.symbol : null;
    if (symbol !== null && side !== null && qty !== null && inp.symbols.includes(symbol))
      legs.push({ symbol, side, qty, id });
    const ex = inp.fillsById.get(id);
    if (!ex) {
      push("unknown_fill", `${field} of ${day}: ${id} is not an execution of this account`, field);
      return;
    }
    if (ex.day !== day) {
      push("fill_wrong_day", `${field} of ${day}: ${id} executed at the close of ${ex.day}`, field);
      return;
    }
    const diffs: string[] = [];
    if (symbol !== ex.symbol) diffs.push(`symbol ${fmt(raw.symbol)} ≠ ${ex.symbol}`);
    if (side !== null && side !== ex.side) diffs.push(`side ${side} ≠ ${ex.side}`);
    if (qty !== null && qty !== ex.qty) diffs.push(`qty ${fmt(qty)} ≠ ${ex.qty}`);
    if (price !== null && !(Math.abs(price - ex.price) <= tol.ratio * Math.abs(ex.price)))
      diffs.push(`price ${fmt(price)} ≠ ${ex.price}`);
    if (diffs.length) push("fill_mismatch", `${field} of ${day} (${id}): ${diffs.join(", ")}`, field);
  });
  for (const ex of rb.fills)
    if (!listed.has(ex.fill_id))
      push(
        "missing_fill",
        `the book of ${day} omits ${ex.fill_id} (${ex.side} ${ex.qty} ${ex.symbol} at ${ex.price})`,
        "fills",
      );

  // inventory transition: the previous shares plus the filed legs, one legal leg at a time, give the filed shares
  if (sharesUsable) {
    const pos: Record<string, number> = { ...prevShares };
    for (const leg of legs) {
      const p = pos[leg.symbol] ?? 0;
      const why = legError(leg.symbol, p, leg.side, leg.qty);
      if (why) push("illegal_transition", `${day}, fill ${leg.id}: ${why}`, "fills");
      pos[leg.symbol] = p + sideSign(leg.side) * leg.qty;
    }
    for (const s of inp.symbols)
      if ((pos[s] ?? 0) !== shares[s])
        push(
          "shares_fill_mismatch",
          `shares.${s} of ${day} is ${fmt(shares[s])} but the previous shares ${fmt(prevShares[s] ?? 0)} plus the filed fills give ${fmt(pos[s] ?? 0)}`,
          `shares.${s}`,
        );
  }
  return { errors, shares: sharesUsable ? shares : null };
}
