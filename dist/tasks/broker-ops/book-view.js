import { DAY_MS, HOUR_MS } from "../../kernel/day.js";
import { bookEvent } from "./book-events.js";
const MARK_LOOKBACK_MS = 6 * HOUR_MS;
const round = (x, digits) => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};
function maintenanceAt(schedule, start, t) {
  const day = Math.floor((t - start) / DAY_MS) + 1;
  const sorted = [...schedule].sort((a, b) => a.from_day - b.from_day);
  let r = sorted[0].ratio;
  for (const s of sorted) if (day >= s.from_day) r = s.ratio;
  return r;
}
function markOf(view, venue, symbol) {
  const now = view.now();
  const rows = view.exchanges.candles(venue, symbol, now - MARK_LOOKBACK_MS, now);
  let best = null;
  for (const c of rows)
    if (!best || c.visible_at > best.visible_at || c.visible_at === best.visible_at && c.interval_ms < best.interval_ms)
      best = c;
  return best ? { price: best.c, as_of: best.visible_at } : null;
}
class BookView {
  constructor(view, p, simStart) {
    this.view = view;
    this.p = p;
    this.simStart = simStart;
  }
  view;
  p;
  simStart;
  now() {
    return this.view.now();
  }
  assets() {
    return Object.keys(this.p.symbols).sort();
  }
  /** visible book events with t ≥ since (all when omitted), of one kind when given, by (t, id) */
  events(opts = {}) {
    const rows = this.view.broker.events({
      ...opts.since !== void 0 ? { since: opts.since } : {},
      ...opts.kind !== void 0 ? { kind: opts.kind } : {}
    });
    const out = [];
    for (const r of rows) {
      let e = this.parsed.get(r.id);
      if (e === void 0) {
        e = bookEvent(r);
        this.parsed.set(r.id, e);
      }
      if (e) out.push(e);
    }
    return out;
  }
  parsed = /* @__PURE__ */ new Map();
  mark(asset) {
    const symbol = this.p.symbols[asset];
    return symbol === void 0 ? null : markOf(this.view, this.p.venue, symbol);
  }
  maintenance() {
    return maintenanceAt(this.p.maintenance, this.simStart, this.now());
  }
  account() {
    const now = this.now();
    const last = this.events({ kind: "position" }).at(-1);
    const positions = {};
    for (const a of this.assets()) positions[a] = 0;
    let cash = 0;
    if (last?.kind === "position") {
      for (const [a, q] of Object.entries(last.p.positions)) positions[a] = q;
      cash = last.p.cash;
    }
    const marks = {};
    const mv = {};
    let equity = cash;
    let gmv = 0;
    for (const a of Object.keys(positions).sort()) {
      const m = this.mark(a);
      marks[a] = m;
      const q = positions[a];
      mv[a] = m ? round(q * m.price, 2) : null;
      if (m && equity !== null && gmv !== null) {
        equity += q * m.price;
        gmv += Math.abs(q) * m.price;
      } else if (q !== 0) {
        equity = null;
        gmv = null;
      }
    }
    return {
      as_of: now,
      opened: last !== void 0,
      positions,
      cash,
      marks,
      market_value: mv,
      equity: equity === null ? null : round(equity, 2),
      gross_market_value: gmv === null ? null : round(gmv, 2),
      margin_ratio: equity === null || gmv === null || gmv === 0 ? null : round(equity / gmv, 6),
      maintenance: this.maintenance()
    };
  }
  /** PM orders placed since `since` (default: the last 24 h), with their status now */
  orders(since = this.now() - DAY_MS) {
    const evs = this.events({ since });
    const fills = /* @__PURE__ */ new Map();
    const expired = /* @__PURE__ */ new Set();
    for (const e of evs) {
      if (e.kind === "fill") fills.set(e.p.order_id, { t: e.t, price: e.p.price });
      if (e.kind === "note" && e.p.subject === "Order expired" && typeof e.p.order_id === "string")
        expired.add(e.p.order_id);
    }
    const now = this.now();
    return evs.flatMap((e) => {
      if (e.kind !== "order") return [];
      const f = fills.get(e.p.order_id);
      const status = f ? "filled" : expired.has(e.p.order_id) || now >= e.p.expires_at ? "expired" : "open";
      return [
        {
          order_id: e.p.order_id,
          placed_at: e.t,
          symbol: e.p.symbol,
          side: e.p.side,
          qty: e.p.qty,
          limit_price: e.p.limit_price,
          expires_at: e.p.expires_at,
          status,
          filled_at: f?.t ?? null,
          fill_price: f?.price ?? null
        }
      ];
    });
  }
  /** every visible margin call, oldest first, with its treasury wire when visible */
  marginCalls() {
    const wires = /* @__PURE__ */ new Map();
    for (const e of this.events({ kind: "note" }))
      if (e.kind === "note" && e.p.subject === "Treasury wire received" && typeof e.p.call_id === "string")
        wires.set(e.p.call_id, e.t);
    return this.events({ kind: "margin_call" }).map((e) => {
      const c = e.p;
      return {
        call_id: c.call_id,
        issued_at: e.t,
        ratio: c.ratio,
        maintenance: c.maintenance,
        equity: c.equity,
        gross_market_value: c.gross_market_value,
        required_amount: c.required_amount,
        deadline: c.deadline,
        wired_at: wires.get(c.call_id) ?? null
      };
    });
  }
}
export {
  BookView,
  maintenanceAt,
  markOf
};
//# sourceMappingURL=book-view.js.map
