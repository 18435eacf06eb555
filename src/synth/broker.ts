import type { BrokerEventRow, CandleRow } from "../world/types.js";
import type { IdMinter } from "./ids.js";
import { DAY, HOUR } from "./time.js";

/** The scripted PM book of broker-ops (tasks.md §8). */
export const BROKER_PARAMS = {
  venue: "coinbase",
  symbols: { BTC: "BTC-USD", ETH: "ETH-USD" } as Record<string, string>,
  startPositions: { BTC: 3, ETH: 40 } as Record<string, number>,
  startCash: -190_000,
  orderHoursUtc: [1, 9, 17],
  offMark: 0.01,
  quantities: { BTC: 0.25, ETH: 5 } as Record<string, number>,
  tick: { BTC: 0.01, ETH: 0.01 } as Record<string, number>,
  /** maintenance ratio by episode day (1-based): from that day on */
  maintenance: [
    { fromDay: 1, ratio: 0.3 },
    { fromDay: 4, ratio: 0.36 },
    { fromDay: 9, ratio: 0.42 },
  ],
  marginCheckMs: 300_000,
  marginCooldownMs: 12 * HOUR,
  fundingDeadlineMs: 4 * HOUR,
} as const;

const ASSETS = ["BTC", "ETH"] as const;
type Asset = (typeof ASSETS)[number];

interface OpenOrder {
  id: string;
  asset: Asset;
  side: "buy" | "sell";
  qty: number;
  limit: number;
  placed: number;
  expires: number;
}

const cents = (x: number) => Math.round(x * 100) / 100;

export function maintenanceAt(start: number, t: number): number {
  const day = Math.floor((t - start) / DAY) + 1;
  let r: number = BROKER_PARAMS.maintenance[0].ratio;
  for (const m of BROKER_PARAMS.maintenance) if (day >= m.fromDay) r = m.ratio;
  return r;
}

/**
 * Broker events over [start, end): PM day orders at 01/09/17 UTC (1% off the mark, sides
 * alternating per asset), fills on the first completed candle trading through the limit (fill at
 * the limit, event at the candle's completion), expiries at 00:00, margin checks every 5 minutes
 * on completed-candle marks, margin calls with a 12 h cooldown, and treasury wires of the
 * required amount at each call's 4 h deadline. Event kinds: position, order, fill, margin_call, note.
 */
export function generateBrokerEvents(
  candles: readonly CandleRow[],
  start: number,
  end: number,
  ids: IdMinter,
): BrokerEventRow[] {
  const P = BROKER_PARAMS;
  const iv = P.marginCheckMs;
  const bySym = new Map<string, Map<number, CandleRow>>();
  for (const c of candles) {
    if (c.venue !== P.venue) continue;
    let m = bySym.get(c.symbol);
    if (!m) {
      m = new Map();
      bySym.set(c.symbol, m);
    }
    m.set(c.open_time, c);
  }
  const candleAt = (a: Asset, openTime: number) => bySym.get(P.symbols[a] as string)?.get(openTime);
  const events: BrokerEventRow[] = [];
  const emit = (kind: string, t: number, payload: Record<string, unknown>) => {
    events.push({
      id: `be-${ids.hex("broker_event", [kind, t, JSON.stringify(payload)], 12)}`,
      kind,
      t,
      payload,
      visible_at: t,
    });
  };
  const pos: Record<Asset, number> = { BTC: P.startPositions.BTC as number, ETH: P.startPositions.ETH as number };
  let cash: number = P.startCash;
  const marks: Record<Asset, number> = { BTC: Number.NaN, ETH: Number.NaN };
  const nextSide: Record<Asset, "buy" | "sell"> = { BTC: "buy", ETH: "buy" };
  let open: OpenOrder[] = [];
  let lastCall = Number.NEGATIVE_INFINITY;
  const wires: { t: number; amount: number; call: string }[] = [];
  const snapshot = () => ({ positions: { ...pos }, cash: cents(cash) });
  const t0 = Math.ceil(start / iv) * iv;
  // initial marks: last candle completed at or before start
  for (const a of ASSETS) {
    const c = candleAt(a, t0 - iv);
    if (c) marks[a] = c.c;
  }
  emit("position", t0, { ...snapshot(), reason: "opening book" });
  for (let t = t0; t < end; t += iv) {
    // 1. the candle completing at t: update marks, fill orders it trades through
    for (const a of ASSETS) {
      const c = candleAt(a, t - iv);
      if (!c) continue;
      marks[a] = c.c;
      const still: OpenOrder[] = [];
      for (const o of open) {
        if (o.asset !== a || o.placed > c.open_time) {
          still.push(o);
          continue;
        }
        const through = o.side === "buy" ? c.l < o.limit : c.h > o.limit;
        if (!through) {
          still.push(o);
          continue;
        }
        const signed = o.side === "buy" ? o.qty : -o.qty;
        pos[a] = Math.round((pos[a] + signed) * 1e8) / 1e8;
        cash = cents(cash - signed * o.limit);
        emit("fill", t, {
          order_id: o.id,
          symbol: a,
          side: o.side,
          qty: o.qty,
          price: o.limit,
          candle_open_time: c.open_time,
        });
        emit("position", t, { ...snapshot(), reason: `fill ${o.id}` });
      }
      open = still;
    }
    // 2. treasury wires due
    for (const w of wires.filter((x) => x.t === t)) {
      cash = cents(cash + w.amount);
      emit("note", t, { subject: "Treasury wire received", call_id: w.call, amount: w.amount, cash: cents(cash) });
      emit("position", t, { ...snapshot(), reason: `wire ${w.call}` });
    }
    // 3. day orders expire at 00:00 UTC
    if (t % DAY === 0) {
      for (const o of open) emit("note", t, { subject: "Order expired", order_id: o.id, symbol: o.asset });
      open = [];
      if (Number.isFinite(marks.BTC) && Number.isFinite(marks.ETH)) {
        emit("note", t, {
          subject: "PM daily book",
          text: `Book at open: BTC ${pos.BTC}, ETH ${pos.ETH}, cash ${cents(cash).toFixed(2)} USD.`,
          ...snapshot(),
        });
      }
    }
    if (!Number.isFinite(marks.BTC) || !Number.isFinite(marks.ETH)) continue;
    // 4. margin check
    const gmv = Math.abs(pos.BTC) * marks.BTC + Math.abs(pos.ETH) * marks.ETH;
    const equity = cash + pos.BTC * marks.BTC + pos.ETH * marks.ETH;
    const maint = maintenanceAt(start, t);
    const ratio = gmv > 0 ? equity / gmv : Number.POSITIVE_INFINITY;
    if (ratio < maint && t >= lastCall + P.marginCooldownMs) {
      lastCall = t;
      const required = Math.ceil((maint * gmv - equity) * 100) / 100;
      const id = `mc-${ids.hex("margin_call", [t, required], 8)}`;
      const deadline = t + P.fundingDeadlineMs;
      emit("margin_call", t, {
        call_id: id,
        ratio: Math.round(ratio * 1e6) / 1e6,
        maintenance: maint,
        equity: cents(equity),
        gross_market_value: cents(gmv),
        required_amount: required,
        deadline,
      });
      wires.push({ t: deadline, amount: required, call: id });
    }
    // 5. PM day orders
    const hour = (t % DAY) / HOUR;
    if ((P.orderHoursUtc as readonly number[]).includes(hour)) {
      for (const a of ASSETS) {
        const side = nextSide[a];
        nextSide[a] = side === "buy" ? "sell" : "buy";
        const mark = marks[a];
        const tick = P.tick[a] as number;
        const limit = Math.round((side === "buy" ? mark * (1 - P.offMark) : mark * (1 + P.offMark)) / tick) * tick;
        const o: OpenOrder = {
          id: `ord-${ids.hex("order", [a, side, t, cents(limit)], 10)}`,
          asset: a,
          side,
          qty: P.quantities[a] as number,
          limit: cents(limit),
          placed: t,
          expires: Math.floor(t / DAY) * DAY + DAY,
        };
        open.push(o);
        emit("order", t, {
          order_id: o.id,
          symbol: a,
          side,
          qty: o.qty,
          limit_price: o.limit,
          mark,
          tif: "day",
          expires_at: o.expires,
        });
      }
    }
  }
  return events;
}
