import { VENUE_TABLE } from "./incident-table.js";
function resolveSetup(keys, params) {
  if (keys.length === 0) throw new Error("price-check: the world carries no candles");
  const worldVenues = [...new Set(keys.map((k) => k.venue))].sort();
  let venues = worldVenues.filter((v) => VENUE_TABLE[v] !== void 0);
  if (params.venues) {
    const unknown = params.venues.filter((v) => !venues.includes(v));
    if (unknown.length)
      throw new Error(
        `price-check: venues ${unknown.join(", ")} are not served (world venues in the venue table: ${venues.join(", ")})`
      );
    venues = [...params.venues].sort();
  }
  const baseInterval = {};
  for (const k of keys) {
    if (!venues.includes(k.venue)) continue;
    const m = baseInterval[k.venue] ?? {};
    baseInterval[k.venue] = m;
    const prev = m[k.symbol];
    if (prev === void 0 || k.interval_ms < prev) m[k.symbol] = k.interval_ms;
  }
  const served = keys.filter((k) => venues.includes(k.venue));
  if (served.length === 0) throw new Error("price-check: no world venue is in the venue table");
  const truthIntervalMs = params.truth_interval_ms ?? Math.min(...served.map((k) => k.interval_ms));
  const truthVenues = {};
  for (const v of venues) {
    for (const [symbol, base] of Object.entries(baseInterval[v] ?? {})) {
      if (truthIntervalMs % base !== 0) continue;
      const list = truthVenues[symbol] ?? [];
      list.push(v);
      truthVenues[symbol] = list;
    }
  }
  let symbols = Object.keys(truthVenues).sort();
  if (params.symbols) {
    const unknown = params.symbols.filter((s) => !symbols.includes(s));
    if (unknown.length)
      throw new Error(
        `price-check: symbols ${unknown.join(", ")} have no venue at the truth interval (available: ${symbols.join(", ")})`
      );
    symbols = [...params.symbols].sort();
  }
  for (const s of Object.keys(truthVenues)) {
    if (!symbols.includes(s)) delete truthVenues[s];
    else truthVenues[s].sort();
  }
  return { symbols, venues, truthIntervalMs, truthVenues, baseInterval };
}
function setupAsOf(setup, series, t) {
  const visible = new Set(
    series.filter((k) => k.visible_at <= t).map((k) => `${k.venue}\0${k.symbol}\0${k.interval_ms}`)
  );
  const baseInterval = {};
  for (const v of setup.venues)
    for (const [symbol, base] of Object.entries(setup.baseInterval[v] ?? {})) {
      if (!visible.has(`${v}\0${symbol}\0${base}`)) continue;
      const m = baseInterval[v] ?? {};
      m[symbol] = base;
      baseInterval[v] = m;
    }
  const venues = setup.venues.filter((v) => baseInterval[v] !== void 0);
  const truthVenues = {};
  for (const s of setup.symbols) {
    const list = (setup.truthVenues[s] ?? []).filter((v) => baseInterval[v]?.[s] !== void 0);
    if (list.length) truthVenues[s] = list;
  }
  const symbols = setup.symbols.filter((s) => truthVenues[s] !== void 0);
  return { symbols, venues, truthIntervalMs: setup.truthIntervalMs, truthVenues, baseInterval };
}
export {
  resolveSetup,
  setupAsOf
};
//# sourceMappingURL=world-setup.js.map
