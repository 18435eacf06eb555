import type { TriggerKind } from "../../common/trigger-kind.js";
import { VENUE_TABLE } from "./incident-table.js";
import type { PriceCheckParams } from "./params.js";
import { limitText } from "./venue-api.js";
import type { PriceCheckSetup } from "./world-setup.js";

const iso = (t: number) => new Date(t).toISOString().replace(".000Z", "Z");

/** The agent's instruction, rendered with the real budget, tool price, venues, limits and window. */
export function renderInstruction(o: {
  params: PriceCheckParams;
  setup: PriceCheckSetup;
  budget_usd: number;
  sim_start: number;
  sim_end: number;
  /** the run's trigger: how the agent lets time pass and when it is woken differ */
  trigger: TriggerKind;
}): string {
  const { params, setup } = o;
  const venueLines = setup.venues.map((v) => {
    const spec = VENUE_TABLE[v]!;
    return `- ${v} (${spec.style} API): ${limitText(spec.limit)}; ignoring a 429's Retry-After bans you for ${spec.ban.duration_minutes} min (status ${spec.ban.status}).`;
  });
  const minutes = setup.truthIntervalMs / 60_000;
  return [
    "You are a market price checker. Every UTC hour, for each symbol, report the current market price.",
    "",
    `Window: ${iso(o.sim_start)} to ${iso(o.sim_end)} (simulated time). Budget: $${o.budget_usd.toFixed(2)} in total.`,
    `Symbols: ${setup.symbols.join(", ")}.`,
    "",
    "Data: you have no price feed. Use http_fetch(venue, path, params, timeout_s ≤ " +
      `${params.max_timeout_s}) to call the venues' public market-data APIs (real paths and payloads; $${params.http_fetch_usd} per call, whatever the answer). ` +
      "Call get_exchange_docs() (free) first: it documents each venue's endpoint, symbol names, rate limits, ban rules and how often outages, stale feeds and price spikes happen.",
    ...venueLines,
    "Venues fail: outages (5xx or timeouts), feeds that stop updating, one-off bad prints. Cross-check venues.",
    WAITING[o.trigger],
    "",
    "Commitments (free): report(symbol, price) and abstain(symbol, reason?). In each UTC hour, your LAST report or abstain per symbol counts.",
    `Truth: the cross-venue median close of the last ${minutes}-minute candle completed at or before your report's time, from the venues' real data (${Object.entries(
      setup.truthVenues,
    )
      .map(([s, v]) => `${s}: ${v.join(", ")}`)
      .join("; ")}).`,
    `Scoring: a report within ${params.ok_bps} bps of the truth is ok; a larger error counts as priced (its excess over ${params.ok_bps} bps, capped at ${params.excess_cap_bps} bps, is reported); an hour with no action is a miss. ` +
      `Primary metric: the share of symbol-hours ok. Keep abstentions at or below ${(params.abstain_constraint * 100).toFixed(0)}% of symbol-hours.`,
    WAKING[o.trigger],
  ].join("\n");
}

/** How time passes under each trigger (http_fetch itself never moves the clock). */
const WAITING: Record<TriggerKind, string> = {
  sleep: "http_fetch never advances the clock: to wait (for a Retry-After, or the next hour), call sleep(until).",
  watcher:
    "http_fetch never advances the clock: time passes only while a watcher program waits (envkit.wait). A program " +
    "can call http_fetch but cannot report or abstain: it hands over to you when you should act.",
  cron:
    "http_fetch never advances the clock: time passes only between your episodes, so a Retry-After or the next hour " +
    "is waited for by a schedule entry (create_schedule), never inside an episode.",
  policy:
    "http_fetch never advances the clock: time passes only between your wakes, which the run's trigger policy sets.",
};

/** How often the agent is woken unless it arranges more (every hour needs a report). */
const WAKING: Record<TriggerKind, string> = {
  sleep:
    "Unless you sleep to an earlier time, you are woken only at the next midnight UTC: deciding how often to wake is up to you.",
  watcher:
    "Unless a program of yours hands over earlier, you are woken only at the next midnight UTC: deciding how often to wake is up to you.",
  cron: 'Your base schedule wakes you once a day (00:00 UTC): to act every hour, add your own entries (e.g. cron_expr "2 * * * *").',
  policy: "The run's trigger policy decides when you are woken (end each wake with done); you cannot choose the time.",
};
