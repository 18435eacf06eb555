import { isoInstant } from "../../../common/time.js";
import type { BookEvent } from "../book-events.js";
import type { AccountState, MarginCallState, PmOrder } from "../book-view.js";

const iso = (t: number | null) => (t === null ? null : isoInstant(t));

/** A book event as the events API serves it: id, ISO time, kind, then the payload (instants as ISO). */
export function eventJson(e: BookEvent): Record<string, unknown> {
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
      const never: never = e;
      throw new Error(`unknown book event ${JSON.stringify(never)}`);
    }
  }
}

export function accountJson(a: AccountState): Record<string, unknown> {
  return {
    as_of: isoInstant(a.as_of),
    opened: a.opened,
    positions: a.positions,
    cash: a.cash,
    marks: Object.fromEntries(
      Object.entries(a.marks).map(([k, m]) => [k, m ? { price: m.price, as_of: isoInstant(m.as_of) } : null]),
    ),
    market_value: a.market_value,
    equity: a.equity,
    gross_market_value: a.gross_market_value,
    margin_ratio: a.margin_ratio,
    maintenance: a.maintenance,
    below_maintenance: a.margin_ratio === null ? null : a.margin_ratio < a.maintenance,
  };
}

export function orderJson(o: PmOrder): Record<string, unknown> {
  return {
    ...o,
    placed_at: isoInstant(o.placed_at),
    expires_at: isoInstant(o.expires_at),
    filled_at: iso(o.filled_at),
  };
}

export function marginCallJson(c: MarginCallState): Record<string, unknown> {
  return { ...c, issued_at: isoInstant(c.issued_at), deadline: isoInstant(c.deadline), wired_at: iso(c.wired_at) };
}
