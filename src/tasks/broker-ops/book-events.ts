import { z } from "zod";
import type { BrokerEventRow } from "../../world/types.js";

/** The kinds of `broker_event` rows that form the PM book (the world also carries blotter `holding` rows). */
export const BOOK_KINDS = ["position", "order", "fill", "margin_call", "note"] as const;
export type BookKind = (typeof BOOK_KINDS)[number];

const side = z.enum(["buy", "sell"]);
const money = z.number().finite();

export const PositionPayload = z.object({
  positions: z.record(z.string(), z.number().finite()),
  cash: money,
  reason: z.string(),
});
export const OrderPayload = z.object({
  order_id: z.string(),
  symbol: z.string(),
  side,
  qty: z.number().positive(),
  limit_price: z.number().positive(),
  mark: z.number().positive(),
  tif: z.string(),
  expires_at: z.number().int(),
});
export const FillPayload = z.object({
  order_id: z.string(),
  symbol: z.string(),
  side,
  qty: z.number().positive(),
  price: z.number().positive(),
  candle_open_time: z.number().int(),
});
export const MarginCallPayload = z.object({
  call_id: z.string(),
  ratio: z.number().finite(),
  maintenance: z.number().positive(),
  equity: money,
  gross_market_value: money,
  required_amount: z.number().positive(),
  deadline: z.number().int(),
});
export const NotePayload = z.object({ subject: z.string() }).catchall(z.unknown());

export type BookEvent =
  | { id: string; t: number; kind: "position"; p: z.infer<typeof PositionPayload> }
  | { id: string; t: number; kind: "order"; p: z.infer<typeof OrderPayload> }
  | { id: string; t: number; kind: "fill"; p: z.infer<typeof FillPayload> }
  | { id: string; t: number; kind: "margin_call"; p: z.infer<typeof MarginCallPayload> }
  | { id: string; t: number; kind: "note"; p: z.infer<typeof NotePayload> };

export type FillEvent = Extract<BookEvent, { kind: "fill" }>;
export type MarginCallEvent = Extract<BookEvent, { kind: "margin_call" }>;

const isBookKind = (k: string): k is BookKind => (BOOK_KINDS as readonly string[]).includes(k);

/**
 * One world row as a typed book event; null for rows of other kinds (the blotter's `holding`).
 * A book row whose payload does not have its kind's shape is a broken world: it throws, naming the row.
 */
export function bookEvent(r: BrokerEventRow): BookEvent | null {
  if (!isBookKind(r.kind)) return null;
  const fail = (e: z.ZodError): never => {
    throw new Error(
      `broker_event ${r.id} (${r.kind}) has a malformed payload: ${e.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
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
      const never: never = r.kind;
      throw new Error(`unknown book kind ${String(never)}`);
    }
  }
}

/** The book events among `rows`, in row order. */
export function bookEvents(rows: readonly BrokerEventRow[]): BookEvent[] {
  const out: BookEvent[] = [];
  for (const r of rows) {
    const e = bookEvent(r);
    if (e) out.push(e);
  }
  return out;
}
