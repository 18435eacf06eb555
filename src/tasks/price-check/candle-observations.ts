import { isoInstant } from "../../common/time.js";
import type { AsOfView } from "../../world/as-of-view.js";
import type { Observation } from "../task.js";
import type { PriceCheckSetup } from "./world-setup.js";

/**
 * Candles of the served series (each venue's base interval) that completed in (since, now], read
 * through the as-of view, by (t, id). A candle is visible once complete (visible_at = open_time +
 * interval), so only open times after `since − interval` are read. The summary names the candle,
 * not its price: during an incident a venue serves something else, and an observation must not
 * tell the agent what the replay hides.
 */
export function candleObservations(view: AsOfView, setup: PriceCheckSetup, since: number, now: number): Observation[] {
  const out: Observation[] = [];
  for (const venue of setup.venues)
    for (const [symbol, interval] of Object.entries(setup.baseInterval[venue] ?? {}))
      for (const c of view.exchanges.candles(venue, symbol, since - interval, now))
        if (c.interval_ms === interval && c.visible_at > since && c.visible_at <= now)
          out.push({
            t: c.visible_at,
            kind: "candle",
            id: `${venue}:${symbol}:${interval}:${isoInstant(c.open_time)}`,
            summary: `${venue} ${symbol} ${interval / 60_000}m candle opened ${isoInstant(c.open_time)} completed`,
          });
  return out.sort((a, b) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
