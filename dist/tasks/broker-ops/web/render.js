import { isoInstant } from "../../../kernel/day.js";
const iso = (t) => t === null ? null : isoInstant(t);
function eventJson(e) {
  const base = { id: e.id, t: isoInstant(e.t), kind: e.kind };
  switch (e.kind) {
    case "position":
    case "note":
      return { ...base, ...e.p };
    case "order":
      return { ...base, ...e.p, expires_at: isoInstant(e.p.expires_at) };
    case "fill":
      return { ...base, ...e.p, candle_open_time: isoInstant(e.p.candle_open_time) };
    case "margin_call":
      return { ...base, ...e.p, deadline: isoInstant(e.p.deadline) };
    default: {
      const never = e;
      throw new Error(`unknown book event ${JSON.stringify(never)}`);
    }
  }
}
function accountJson(a) {
  return {
    as_of: isoInstant(a.as_of),
    opened: a.opened,
    positions: a.positions,
    cash: a.cash,
    marks: Object.fromEntries(
      Object.entries(a.marks).map(([k, m]) => [k, m ? { price: m.price, as_of: isoInstant(m.as_of) } : null])
    ),
    market_value: a.market_value,
    equity: a.equity,
    gross_market_value: a.gross_market_value,
    margin_ratio: a.margin_ratio,
    maintenance: a.maintenance,
    below_maintenance: a.margin_ratio === null ? null : a.margin_ratio < a.maintenance
  };
}
function orderJson(o) {
  return {
    ...o,
    placed_at: isoInstant(o.placed_at),
    expires_at: isoInstant(o.expires_at),
    filled_at: iso(o.filled_at)
  };
}
function marginCallJson(c) {
  return { ...c, issued_at: isoInstant(c.issued_at), deadline: isoInstant(c.deadline), wired_at: iso(c.wired_at) };
}
export {
  accountJson,
  eventJson,
  marginCallJson,
  orderJson
};
//# sourceMappingURL=render.js.map
