import { VENUE_TABLE } from "./incident-table.js";
import { limitText } from "./venue-api.js";
const iso = (t) => new Date(t).toISOString().replace(".000Z", "Z");
function renderInstruction(o) {
  const { params, setup } = o;
  const venueLines = setup.venues.map((v) => {
    const spec = VENUE_TABLE[v];
    return `- ${v} (${spec.style} API): ${limitText(spec.limit)}; ignoring a 429's Retry-After bans you for ${spec.ban.duration_minutes} min (status ${spec.ban.status}).`;
  });
  const minutes = setup.truthIntervalMs / 6e4;
  return [
    "You are a market price checker. Every UTC hour, for each symbol, report the current market price.",
    "",
    `Window: ${iso(o.sim_start)} to ${iso(o.sim_end)} (simulated time). Budget: $${o.budget_usd.toFixed(2)} in total.`,
    `Symbols: ${setup.symbols.join(", ")}.`,
    "",
    `Data: you have no price feed. Use http_fetch(venue, path, params, timeout_s \u2264 ${params.max_timeout_s}) to call the venues' public market-data APIs (real paths and payloads; $${params.http_fetch_usd} per call, whatever the answer). Call get_exchange_docs() (free) first: it documents each venue's endpoint, symbol names, rate limits, ban rules and how often outages, stale feeds and price spikes happen.`,
    ...venueLines,
    "Venues fail: outages (5xx or timeouts), feeds that stop updating, one-off bad prints. Cross-check venues.",
    "http_fetch never advances the clock: to wait (for a Retry-After, or the next hour), sleep.",
    "",
    "Commitments (free): report(symbol, price) and abstain(symbol, reason?). In each UTC hour, your LAST report or abstain per symbol counts.",
    `Truth: the cross-venue median close of the last ${minutes}-minute candle completed at or before your report's time, from the venues' real data (${Object.entries(
      setup.truthVenues
    ).map(([s, v]) => `${s}: ${v.join(", ")}`).join("; ")}).`,
    `Scoring: a report within ${params.ok_bps} bps of the truth is ok; a larger error counts as priced (its excess over ${params.ok_bps} bps, capped at ${params.excess_cap_bps} bps, is reported); an hour with no action is a miss. Primary metric: the share of symbol-hours ok. Keep abstentions at or below ${(params.abstain_constraint * 100).toFixed(0)}% of symbol-hours.`,
    "You are woken rarely by default (once a day): deciding how often to wake is up to you."
  ].join("\n");
}
export {
  renderInstruction
};
//# sourceMappingURL=instruction.js.map
