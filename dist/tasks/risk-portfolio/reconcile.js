import { legError, SIDES, sideSign } from "./book-engine.js";
const ERROR_CODES = [
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
  "shares_fill_mismatch"
];
const fmt = (x) => typeof x === "number" ? String(x) : JSON.stringify(x);
const isObj = (x) => typeof x === "object" && x !== null && !Array.isArray(x);
const finite = (x) => typeof x === "number" && Number.isFinite(x);
function reconcileBooks(inp) {
  const errors = [];
  const byDay = new Map(inp.rebuilt.map((b) => [b.date, b]));
  const order = inp.rebuilt.map((b) => b.date);
  const seenDays = /* @__PURE__ */ new Set();
  const seenFills = /* @__PURE__ */ new Map();
  const filedShares = /* @__PURE__ */ new Map();
  const firstFilings = [];
  for (const f of inp.filings) {
    const day = typeof f.day === "string" ? f.day : null;
    const push = (code, message, field) => errors.push({ day, code, ...field !== void 0 ? { field } : {}, message });
    const rb = day === null ? void 0 : byDay.get(day);
    if (!rb) {
      push(
        "unknown_day",
        `no known close for ${fmt(f.day)}: not a trading day of the account, or its close is not known yet`
      );
      continue;
    }
    if (seenDays.has(rb.date)) {
      push("duplicate_day", `${rb.date} is filed more than once; only its first filing is checked`);
      continue;
    }
    seenDays.add(rb.date);
    if (inp.window && f.t !== void 0) {
      const w = inp.window(rb.date);
      if (f.t < w.open || f.t >= w.deadline)
        push(
          "filed_outside_window",
          `${rb.date} was filed at ${new Date(f.t).toISOString()}, outside its window [${new Date(w.open).toISOString()}, ${new Date(w.deadline).toISOString()})`
        );
    }
    firstFilings.push({ f, rb });
  }
  for (const d of inp.required)
    if (!seenDays.has(d)) errors.push({ day: d, code: "missing_day", message: `no book filed for ${d}` });
  firstFilings.sort((a, b) => a.rb.day - b.rb.day);
  for (const { f, rb } of firstFilings) {
    const i = order.indexOf(rb.date);
    const prevDate = i > 0 ? order[i - 1] : null;
    const prevRebuilt = i > 0 ? inp.rebuilt[i - 1].shares : null;
    const prevShares = (prevDate === null ? void 0 : filedShares.get(prevDate)) ?? prevRebuilt ?? Object.fromEntries(inp.symbols.map((s) => [s, 0]));
    const own = checkBook(f.book, rb, prevShares, inp, seenFills);
    errors.push(...own.errors);
    if (own.shares) filedShares.set(rb.date, own.shares);
  }
  return errors;
}
function checkBook(book, rb, prevShares, inp, seenFills) {
  const errors = [];
  const day = rb.date;
  const push = (code, message, field) => errors.push({ day, code, ...field !== void 0 ? { field } : {}, message });
  if (!isObj(book)) {
    push("malformed_book", `the book of ${day} is not an object`);
    return { errors, shares: null };
  }
  const missing = ["cash", "shares", "costs", "equity", "nav", "weights"].filter((k) => !(k in book));
  const containers = [
    ["shares", isObj(book.shares)],
    ["weights", isObj(book.weights)],
    ["costs", isObj(book.costs)],
    ["fills", book.fills === void 0 || Array.isArray(book.fills)]
  ];
  const badShape = containers.filter(([k, ok]) => k in book && !ok).map(([k]) => k);
  if (missing.length || badShape.length) {
    push(
      "malformed_book",
      `the book of ${day} ${missing.length ? `lacks ${missing.join(", ")}` : ""}${missing.length && badShape.length ? "; " : ""}${badShape.length ? `has malformed ${badShape.join(", ")}` : ""}`
    );
    return { errors, shares: null };
  }
  const tol = inp.tol;
  const num = (v, field) => {
    if (finite(v)) return v;
    push("non_finite", `${field} of ${day} is ${fmt(v)}, not a finite number`, field);
    return null;
  };
  const cmp = (filed, expected, tolerance, code, field) => {
    if (filed === null) return;
    if (!(Math.abs(filed - expected) <= tolerance))
      push(
        code,
        `${field} of ${day}: filed ${fmt(filed)}, rebuilt ${fmt(expected)} (residual ${fmt(filed - expected)})`,
        field
      );
  };
  const sharesIn = book.shares;
  const shares = Object.fromEntries(inp.symbols.map((s) => [s, 0]));
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
        `shares.${s}`
      );
  const cash = num(book.cash, "cash");
  cmp(cash, rb.cash, tol.cash, "cash_mismatch", "cash");
  const costs = book.costs;
  for (const k of ["commission", "slippage", "borrow"]) {
    if (!(k in costs)) {
      push("malformed_book", `costs of ${day} lack ${k}`, `costs.${k}`);
      continue;
    }
    cmp(num(costs[k], `costs.${k}`), rb.costs[k], tol.cash, "cost_mismatch", `costs.${k}`);
  }
  for (const k of Object.keys(costs))
    if (!["commission", "slippage", "borrow"].includes(k))
      push("malformed_book", `costs of ${day} carry an unknown item ${fmt(k)}`, `costs.${k}`);
  const equity = num(book.equity, "equity");
  cmp(equity, rb.equity, tol.cash, "equity_mismatch", "equity");
  if (equity !== null && cash !== null && sharesUsable) {
    let implied = cash;
    for (const s of inp.symbols) implied += shares[s] * rb.prices[s];
    if (!(Math.abs(equity - implied) <= tol.cash))
      push(
        "equity_identity",
        `equity of ${day} is ${fmt(equity)} but filed cash + \u03A3 filed shares \xD7 close = ${fmt(implied)}`,
        "equity"
      );
  }
  const nav = num(book.nav, "nav");
  cmp(nav, rb.nav, tol.ratio, "nav_mismatch", "nav");
  if (nav !== null && equity !== null && !(Math.abs(nav - equity / inp.initialCash) <= tol.ratio))
    push(
      "nav_identity",
      `nav of ${day} is ${fmt(nav)} but filed equity / initial cash = ${fmt(equity / inp.initialCash)}`,
      "nav"
    );
  const weightsIn = book.weights;
  const weights = Object.fromEntries(inp.symbols.map((s) => [s, 0]));
  for (const [s, v] of Object.entries(weightsIn)) {
    if (!inp.symbols.includes(s)) {
      push("unknown_symbol", `weights of ${day} name ${fmt(s)}, not a symbol of the universe`, `weights.${s}`);
      continue;
    }
    weights[s] = num(v, `weights.${s}`);
  }
  for (const s of inp.symbols) {
    const w = weights[s];
    cmp(w, rb.weights[s], tol.ratio, "weight_mismatch", `weights.${s}`);
    if (w !== null && equity !== null && sharesUsable) {
      const implied = equity === 0 ? 0 : shares[s] * rb.prices[s] / equity;
      if (!(Math.abs(w - implied) <= tol.ratio))
        push(
          "weight_identity",
          `weights.${s} of ${day} is ${fmt(w)} but filed shares \xD7 close / filed equity = ${fmt(implied)}`,
          `weights.${s}`
        );
    }
  }
  const fillsIn = book.fills ?? [];
  const listed = /* @__PURE__ */ new Set();
  const legs = [];
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
    if (earlier !== void 0) {
      push("duplicate_fill_id", `${field} of ${day}: fill ${id} is already booked on ${earlier}`, field);
      return;
    }
    seenFills.set(id, day);
    const qty = num(raw.qty, `${field}.qty`);
    const price = num(raw.price, `${field}.price`);
    const side = typeof raw.side === "string" && SIDES.includes(raw.side) ? raw.side : null;
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
    const diffs = [];
    if (symbol !== ex.symbol) diffs.push(`symbol ${fmt(raw.symbol)} \u2260 ${ex.symbol}`);
    if (side !== null && side !== ex.side) diffs.push(`side ${side} \u2260 ${ex.side}`);
    if (qty !== null && qty !== ex.qty) diffs.push(`qty ${fmt(qty)} \u2260 ${ex.qty}`);
    if (price !== null && !(Math.abs(price - ex.price) <= tol.ratio * Math.abs(ex.price)))
      diffs.push(`price ${fmt(price)} \u2260 ${ex.price}`);
    if (diffs.length) push("fill_mismatch", `${field} of ${day} (${id}): ${diffs.join(", ")}`, field);
  });
  for (const ex of rb.fills)
    if (!listed.has(ex.fill_id))
      push(
        "missing_fill",
        `the book of ${day} omits ${ex.fill_id} (${ex.side} ${ex.qty} ${ex.symbol} at ${ex.price})`,
        "fills"
      );
  if (sharesUsable) {
    const pos = { ...prevShares };
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
          `shares.${s}`
        );
  }
  return { errors, shares: sharesUsable ? shares : null };
}
export {
  ERROR_CODES,
  reconcileBooks
};
//# sourceMappingURL=reconcile.js.map
