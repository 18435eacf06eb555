import { DAY, HOUR } from "./time.js";
const BROKER_PARAMS = {
  venue: "coinbase",
  symbols: { BTC: "BTC-USD", ETH: "ETH-USD" },
  startPositions: { BTC: 3, ETH: 40 },
  startCash: -19e4,
  orderHoursUtc: [1, 9, 17],
  offMark: 0.01,
  quantities: { BTC: 0.25, ETH: 5 },
  tick: { BTC: 0.01, ETH: 0.01 },
  /** maintenance ratio by episode day (1-based): from that day on */
  maintenance: [
    { fromDay: 1, ratio: 0.3 },
    { fromDay: 4, ratio: 0.36 },
    { fromDay: 9, ratio: 0.42 }
  ],
  marginCheckMs: 3e5,
  marginCooldownMs: 12 * HOUR,
  fundingDeadlineMs: 4 * HOUR
};
const ASSETS = ["BTC", "ETH"];
const cents = (x) => Math.round(x * 100) / 100;
function maintenanceAt(start, t) {
  const day = Math.floor((t - start) / DAY) + 1;
  let r = BROKER_PARAMS.maintenance[0].ratio;
  for (const m of BROKER_PARAMS.maintenance) if (day >= m.fromDay) r = m.ratio;
  return r;
}
function generateBrokerEvents(candles, start, end, ids) {
  const P = BROKER_PARAMS;
  const iv = P.marginCheckMs;
  const bySym = /* @__PURE__ */ new Map();
  for (const c of candles) {
    if (c.venue !== P.venue) continue;
    let m = bySym.get(c.symbol);
    if (!m) {
      m = /* @__PURE__ */ new Map();
      bySym.set(c.symbol, m);
    }
    m.set(c.open_time, c);
  }
  const candleAt = (a, openTime) => bySym.get(P.symbols[a])?.get(openTime);
  const events = [];
  const emit = (kind, t, payload) => {
    events.push({
      id: `be-${ids.hex("broker_event", [kind, t, JSON.stringify(payload)], 12)}`,
      kind,
      t,
      payload,
      visible_at: t
    });
  };
  const pos = { BTC: P.startPositions.BTC, ETH: P.startPositions.ETH };
  let cash = P.startCash;
  const marks = { BTC: Number.NaN, ETH: Number.NaN };
  const nextSide = { BTC: "buy", ETH: "buy" };
  let open = [];
  let lastCall = Number.NEGATIVE_INFINITY;
  const wires = [];
  const snapshot = () => ({ positions: { ...pos }, cash: cents(cash) });
  const t0 = Math.ceil(start / iv) * iv;
  for (const a of ASSETS) {
    const c = candleAt(a, t0 - iv);
    if (c) marks[a] = c.c;
  }
  emit("position", t0, { ...snapshot(), reason: "opening book" });
  for (let t = t0; t < end; t += iv) {
    for (const a of ASSETS) {
      const c = candleAt(a, t - iv);
      if (!c) continue;
      marks[a] = c.c;
      const still = [];
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
          candle_open_time: c.open_time
        });
        emit("position", t, { ...snapshot(), reason: `fill ${o.id}` });
      }
      open = still;
    }
    for (const w of wires.filter((x) => x.t === t)) {
      cash = cents(cash + w.amount);
      emit("note", t, { subject: "Treasury wire received", call_id: w.call, amount: w.amount, cash: cents(cash) });
      emit("position", t, { ...snapshot(), reason: `wire ${w.call}` });
    }
    if (t % DAY === 0) {
      for (const o of open) emit("note", t, { subject: "Order expired", order_id: o.id, symbol: o.asset });
      open = [];
      if (Number.isFinite(marks.BTC) && Number.isFinite(marks.ETH)) {
        emit("note", t, {
          subject: "PM daily book",
          text: `Book at open: BTC ${pos.BTC}, ETH ${pos.ETH}, cash ${cents(cash).toFixed(2)} USD.`,
          ...snapshot()
        });
      }
    }
    if (!Number.isFinite(marks.BTC) || !Number.isFinite(marks.ETH)) continue;
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
        deadline
      });
      wires.push({ t: deadline, amount: required, call: id });
    }
    const hour = t % DAY / HOUR;
    if (P.orderHoursUtc.includes(hour)) {
      for (const a of ASSETS) {
        const side = nextSide[a];
        nextSide[a] = side === "buy" ? "sell" : "buy";
        const mark = marks[a];
        const tick = P.tick[a];
        const limit = Math.round((side === "buy" ? mark * (1 - P.offMark) : mark * (1 + P.offMark)) / tick) * tick;
        const o = {
          id: `ord-${ids.hex("order", [a, side, t, cents(limit)], 10)}`,
          asset: a,
          side,
          qty: P.quantities[a],
          limit: cents(limit),
          placed: t,
          expires: Math.floor(t / DAY) * DAY + DAY
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
          expires_at: o.expires
        });
      }
    }
  }
  return events;
}
export {
  BROKER_PARAMS,
  generateBrokerEvents,
  maintenanceAt
};
//# sourceMappingURL=broker.js.map
