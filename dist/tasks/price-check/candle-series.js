function aggregateBars(bars, baseMs, targetMs) {
  if (targetMs === baseMs) return [...bars];
  if (targetMs % baseMs !== 0) throw new RangeError(`interval ${targetMs} is not a multiple of ${baseMs}`);
  const n = targetMs / baseMs;
  const out = [];
  let cur = null;
  let count = 0;
  for (const b of bars) {
    const bucket = Math.floor(b.open_time / targetMs) * targetMs;
    if (cur && cur.open_time !== bucket) {
      if (count === n) out.push(cur);
      cur = null;
    }
    if (!cur) {
      cur = { open_time: bucket, o: b.o, h: b.h, l: b.l, c: b.c, v: b.v };
      count = 1;
    } else {
      cur.h = Math.max(cur.h, b.h);
      cur.l = Math.min(cur.l, b.l);
      cur.c = b.c;
      cur.v += b.v;
      count++;
    }
  }
  if (cur && count === n) out.push(cur);
  return out;
}
class WorldCandles {
  constructor(db) {
    this.db = db;
    this.latestStmt = db.prepare(
      "SELECT open_time, o, h, l, c, v FROM candle WHERE venue = ? AND symbol = ? AND interval_ms = ? AND open_time <= ? ORDER BY open_time DESC LIMIT ?"
    );
  }
  db;
  latestStmt;
  /**
   * The distinct series of the world with the instant each first becomes visible (its earliest
   * candle's visible_at), sorted: an as-of setup keeps the series with visible_at ≤ t.
   */
  series() {
    return this.db.prepare(
      "SELECT venue, symbol, interval_ms, MIN(visible_at) AS visible_at FROM candle GROUP BY venue, symbol, interval_ms ORDER BY venue, symbol, interval_ms"
    ).all();
  }
  /** the distinct series of the world, sorted */
  keys() {
    return this.db.prepare("SELECT DISTINCT venue, symbol, interval_ms FROM candle ORDER BY venue, symbol, interval_ms").all();
  }
  /** the latest visible_at of a series' candles with open_time in [from, to) (null: none) */
  visibleThrough(venue, symbol, intervalMs, from, to) {
    const r = this.db.prepare(
      "SELECT MAX(visible_at) AS v FROM candle WHERE venue = ? AND symbol = ? AND interval_ms = ? AND open_time >= ? AND open_time < ?"
    ).get(venue, symbol, intervalMs, from, to);
    return r.v;
  }
  /** up to `limit` bars with open_time ≤ maxOpen, ascending */
  latest(venue, symbol, intervalMs, maxOpen, limit) {
    return this.latestStmt.all(venue, symbol, intervalMs, maxOpen, limit).reverse();
  }
}
export {
  WorldCandles,
  aggregateBars
};
//# sourceMappingURL=candle-series.js.map
