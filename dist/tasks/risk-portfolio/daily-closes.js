import { DAY_MS } from "../../kernel/day.js";
function resolveUniverse(db, params, simStart) {
  const rows = db.prepare(
    "SELECT venue, symbol, interval_ms FROM candle_series WHERE visible_at <= ? ORDER BY venue, symbol, interval_ms"
  ).all(simStart);
  if (rows.length === 0) throw new Error("risk-portfolio: the world carries no candle series visible by sim_start");
  const venues = [...new Set(rows.map((r) => r.venue))].sort();
  const venue = params.venue ?? (venues.includes("kraken") ? "kraken" : venues[0]);
  if (!venues.includes(venue))
    throw new Error(`risk-portfolio: venue "${venue}" has no candles by sim_start; venues: ${venues.join(", ")}`);
  const available = [...new Set(rows.filter((r) => r.venue === venue).map((r) => r.symbol))].sort();
  let symbols = available;
  if (params.symbols) {
    const unknown = params.symbols.filter((s) => !available.includes(s));
    if (unknown.length)
      throw new Error(
        `risk-portfolio: symbols ${unknown.join(", ")} are not on ${venue} (available: ${available.join(", ")})`
      );
    symbols = [...new Set(params.symbols)].sort();
  }
  return universeOf(db, venue, symbols, simStart);
}
function universeOf(db, venue, symbols, visibleBy) {
  const stmt = db.prepare(
    "SELECT min(interval_ms) AS iv FROM candle_series WHERE venue = ? AND symbol = ? AND visible_at <= ?"
  );
  const interval = {};
  for (const s of symbols) {
    const iv = stmt.get(venue, s, visibleBy).iv;
    if (iv === null) throw new Error(`risk-portfolio: ${venue} carries no candles for ${s}`);
    if (DAY_MS % iv !== 0)
      throw new Error(`risk-portfolio: the candle interval of ${s} (${iv} ms) does not divide a day`);
    interval[s] = iv;
  }
  return { venue, symbols: [...symbols], interval };
}
function worldCloseDays(db, u, maxCloseTime) {
  const stmt = db.prepare(
    "SELECT open_time + interval_ms AS close_time, c FROM candle WHERE venue = ? AND symbol = ? AND interval_ms = ? AND (open_time + interval_ms) % 86400000 = 0 AND open_time + interval_ms <= ? ORDER BY open_time"
  );
  const bySymbol = u.symbols.map((s) => {
    const m = /* @__PURE__ */ new Map();
    for (const r of stmt.all(u.venue, s, u.interval[s], maxCloseTime))
      m.set(r.close_time, r.c);
    return m;
  });
  const first = bySymbol[0];
  const out = [];
  for (const closeTime of [...first.keys()].sort((a, b) => a - b)) {
    const prices = {};
    let complete = true;
    u.symbols.forEach((s, i) => {
      const c = bySymbol[i].get(closeTime);
      if (c === void 0) complete = false;
      else prices[s] = c;
    });
    if (complete) out.push({ day: closeTime - DAY_MS, close_time: closeTime, prices });
  }
  return out;
}
class ViewCloses {
  constructor(view, universe) {
    this.view = view;
    this.universe = universe;
  }
  view;
  universe;
  cache = /* @__PURE__ */ new Map();
  /** the close day of `day`, null for a non-trading day; undefined while its close is not yet known */
  get(day) {
    const closeTime = day + DAY_MS;
    if (closeTime > this.view.now()) return void 0;
    if (this.cache.has(day)) return this.cache.get(day) ?? null;
    const prices = {};
    let complete = true;
    for (const s of this.universe.symbols) {
      const iv = this.universe.interval[s];
      const rows = this.view.exchanges.candles(this.universe.venue, s, closeTime - iv, closeTime - iv);
      const row = rows.find((r) => r.interval_ms === iv);
      if (!row) {
        complete = false;
        break;
      }
      prices[s] = row.c;
    }
    const v = complete ? { day, close_time: closeTime, prices } : null;
    this.cache.set(day, v);
    return v;
  }
  /** trading days d in [fromDay, toDay] whose close is known now, ascending */
  range(fromDay, toDay) {
    const out = [];
    for (let d = fromDay; d <= toDay; d += DAY_MS) {
      const c = this.get(d);
      if (c === void 0) break;
      if (c) out.push(c);
    }
    return out;
  }
  /** the latest trading day whose close is known now, searching back at most `maxDays` days (null if none) */
  latest(maxDays) {
    const last = Math.floor(this.view.now() / DAY_MS) * DAY_MS - DAY_MS;
    for (let d = last, i = 0; i < maxDays; d -= DAY_MS, i++) {
      const c = this.get(d);
      if (c) return c;
    }
    return null;
  }
}
export {
  ViewCloses,
  resolveUniverse,
  universeOf,
  worldCloseDays
};
//# sourceMappingURL=daily-closes.js.map
