import type { BrokerEventRow } from "../world/types.js";
import { SYNTH_COMPANIES } from "./filings.js";
import type { IdMinter } from "./ids.js";

const HOUR = 3_600_000;

/**
 * The scripted holdings blotter of the filing tracker (tasks.md §7), as `broker_event` rows of kind
 * `holding` ({cik, ticker, action: "hold" | "add" | "drop"}), visible when they happen:
 * - at history start every company but the last is held (`hold`);
 * - the last company is added a quarter into the window at 14:00 UTC (`add`), so a duty can
 *   appear mid-episode;
 * - the first company is dropped three quarters into the window at 14:00 UTC (`drop`).
 * Ids are `bl-<8 hex>` (ids.ts), separate from the PM book's `be-` ids.
 */
export function generateBlotter(from: number, start: number, end: number, ids: IdMinter): BrokerEventRow[] {
  const at = (share: number) => {
    const t = start + share * (end - start);
    return t - (t % (24 * HOUR)) + 14 * HOUR;
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
  emit(at(0.25), last, "add");
  emit(at(0.75), SYNTH_COMPANIES[0]!, "drop");
  return rows;
}
