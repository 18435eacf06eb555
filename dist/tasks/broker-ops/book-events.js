import { z } from "zod";
const BOOK_KINDS = ["position", "order", "fill", "margin_call", "note"];
const side = z.enum(["buy", "sell"]);
const money = z.number().finite();
const PositionPayload = z.object({
  positions: z.record(z.string(), z.number().finite()),
  cash: money,
  reason: z.string()
});
const OrderPayload = z.object({
  order_id: z.string(),
  symbol: z.string(),
  side,
  qty: z.number().positive(),
  limit_price: z.number().positive(),
  mark: z.number().positive(),
  tif: z.string(),
  expires_at: z.number().int()
});
const FillPayload = z.object({
  order_id: z.string(),
  symbol: z.string(),
  side,
  qty: z.number().positive(),
  price: z.number().positive(),
  candle_open_time: z.number().int()
});
const MarginCallPayload = z.object({
  call_id: z.string(),
  ratio: z.number().finite(),
  maintenance: z.number().positive(),
  equity: money,
  gross_market_value: money,
  required_amount: z.number().positive(),
  deadline: z.number().int()
});
const NotePayload = z.object({ subject: z.string() }).catchall(z.unknown());
const isBookKind = (k) => BOOK_KINDS.includes(k);
function bookEvent(r) {
  if (!isBookKind(r.kind)) return null;
  const fail = (e) => {
    throw new Error(
      `broker_event ${r.id} (${r.kind}) has a malformed payload: ${e.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`
    );
  };
  const base = { id: r.id, t: r.t };
  switch (r.kind) {
    case "position": {
      const p = PositionPayload.safeParse(r.payload);
      return p.success ? { ...base, kind: r.kind, p: p.data } : fail(p.error);
    }
    case "order": {
      const p = OrderPayload.safeParse(r.payload);
      return p.success ? { ...base, kind: r.kind, p: p.data } : fail(p.error);
    }
    case "fill": {
      const p = FillPayload.safeParse(r.payload);
      return p.success ? { ...base, kind: r.kind, p: p.data } : fail(p.error);
    }
    case "margin_call": {
      const p = MarginCallPayload.safeParse(r.payload);
      return p.success ? { ...base, kind: r.kind, p: p.data } : fail(p.error);
    }
    case "note": {
      const p = NotePayload.safeParse(r.payload);
      return p.success ? { ...base, kind: r.kind, p: p.data } : fail(p.error);
    }
    default: {
      const never = r.kind;
      throw new Error(`unknown book kind ${String(never)}`);
    }
  }
}
function bookEvents(rows) {
  const out = [];
  for (const r of rows) {
    const e = bookEvent(r);
    if (e) out.push(e);
  }
  return out;
}
export {
  BOOK_KINDS,
  FillPayload,
  MarginCallPayload,
  NotePayload,
  OrderPayload,
  PositionPayload,
  bookEvent,
  bookEvents
};
//# sourceMappingURL=book-events.js.map
