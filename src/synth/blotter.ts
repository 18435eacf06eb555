import { HOUR_MS } from "../common/time.js";
import type { BrokerEventRow } from "../world/types.js";
import { SYNTH_COMPANIES } from "./filings.js";
import type { FutureStream } from "./future.js";
import type { IdMinter } from "./ids.js";

/**
 * The scripted holdings blotter of the filing tracker (tasks.md §7), as `broker_event` rows of kind
 * `holding` ({cik, ticker, action: "hold" | "add" | "drop"}), visible when they happen:
 * - at history start every company but the last is held (`hold`);
 * - the last company is added a quarter into the window at 14:00 UTC (`add`), so a duty can
 *   appear mid-episode;
 * - the first company is dropped three quarters into the window at 14:00 UTC (`drop`).
 * Ids are `bl-<8 hex>` (ids.ts), separate from the PM book's `be-` ids. With a different future
 * (`future`), a change after the cut moves to a day after it drawn from the future stream.
 */
export function generateBlotter(
  from: number,
  start: number,
  end: number,
  ids: IdMinter,
  future: FutureStream = null,
): BrokerEventRow[] {
  const at = (share: number, label: string) => {
    const t = start + share * (end - start);
    const day = t - (t % (24 * HOUR_MS)) + 14 * HOUR_MS;
    if (future === null || day <= future.from) return day;
    // different futures: a change of holdings after the cut moves to another day after it (14:00 UTC)
    const first = Math.max(future.from - (future.from % (24 * HOUR_MS)) + 14 * HOUR_MS, start + 14 * HOUR_MS);
    const firstAfter = first > future.from ? first : first + 24 * HOUR_MS;
    const days = Math.floor((end - 1 - firstAfter) / (24 * HOUR_MS)) + 1;
    return days > 0 ? firstAfter + future.rng.split(label).int(days) * 24 * HOUR_MS : day;
  };
  const rows: BrokerEventRow[] = [];
  const emit = (t: number, c: (typeof SYNTH_COMPANIES)[number], action: "hold" | "add" | "drop") =>
    rows.push({
      id: `bl-${ids.hex("blotter", [t, c.cik, action], 8)}`,
      kind: "holding",
      t,
      payload: { cik: c.cik, ticker: c.ticker, action },
      visible_at: t,
    });
  const last = SYNTH_COMPANIES[SYNTH_COMPANIES.length - 1]!;
  for (const c of SYNTH_COMPANIES) if (c !== last) emit(from, c, "hold");
  emit(at(0.25, "add"), last, "add");
  emit(at(0.75, "drop"), SYNTH_COMPANIES[0]!, "drop");
  return rows;
}
