import { HOUR_MS, isoInstant } from "../../common/time.js";
import type { StateSection } from "../task.js";
import { isoHour } from "./tools.js";

export type HourAction = { t: number; kind: "report"; price: number } | { t: number; kind: "abstain" };

/**
 * The run's accepted `report` / `abstain` calls of the current UTC hour, per symbol (the last one
 * counts, as in the scorer): tool state for the state block, rebuilt by re-running on resume.
 */
export class HourBook {
  private hour = Number.NaN;
  private readonly last = new Map<string, HourAction>();

  record(symbol: string, a: HourAction): void {
    const h = Math.floor(a.t / HOUR_MS);
    if (h !== this.hour) {
      this.hour = h;
      this.last.clear();
    }
    this.last.set(symbol, a);
  }

  /** which symbol-hours of the hour `now` falls in are reported, abstained or still open */
  state(now: number, symbols: readonly string[]): StateSection[] {
    const h = Math.floor(now / HOUR_MS);
    const mine = h === this.hour ? this.last : new Map<string, HourAction>();
    return [
      {
        title: `symbol-hours of ${isoHour(now)} UTC (scored at ${isoInstant((h + 1) * HOUR_MS)}: the last report or abstain counts)`,
        open: symbols.filter((s) => !mine.has(s)).length,
        lines: symbols.map((s) => {
          const a = mine.get(s);
          if (!a) return `${s}: nothing yet`;
          return a.kind === "report"
            ? `${s}: reported ${a.price} at ${isoInstant(a.t)}`
            : `${s}: abstained at ${isoInstant(a.t)}`;
        }),
      },
    ];
  }
}
