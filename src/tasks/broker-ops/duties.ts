import type { AsOfView } from "../../world/as-of-view.js";
import type { WorldStore } from "../../world/world-store.js";
import { type BookEvent, bookEvent, bookEvents, type FillEvent, type MarginCallEvent } from "./book-events.js";
import type { BookLog } from "./book-log.js";
import type { BrokerOpsParams } from "./params.js";

/** A protective stop is due for every fill; a funding instruction for every margin call. */
export type Duty =
  | { kind: "stop"; key: string; t: number; deadline: number; fill: FillEvent }
  | { kind: "funding"; key: string; t: number; deadline: number; call: MarginCallEvent };

const byDeadline = (a: Duty, b: Duty) =>
  a.deadline - b.deadline || a.t - b.t || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** The duties of the book events with t in [from, to), ordered by deadline. */
export function dutiesOfEvents(events: readonly BookEvent[], p: BrokerOpsParams, from: number, to: number): Duty[] {
  const out: Duty[] = [];
  for (const e of events) {
    if (e.t < from || e.t >= to) continue;
    if (e.kind === "fill")
      out.push({ kind: "stop", key: `stop:${e.id}`, t: e.t, deadline: e.t + p.stop_window_ms, fill: e });
    if (e.kind === "margin_call")
      out.push({
        kind: "funding",
        key: `funding:${e.p.call_id}`,
        t: e.t,
        deadline: e.t + p.funding_window_ms,
        call: e,
      });
  }
  return out.sort(byDeadline);
}

/**
 * The duty roster of an episode: every fill and margin call of the world's PM book with t in
 * [sim_start, sim_end), ordered by deadline (fill + stop window, call + funding window). The agent
 * cannot change the book, so the roster is the same for every run of the episode. Scorer and
 * oracle side only: it reads the untouched world, never an agent path (the deadline guard uses
 * `visibleDuties`).
 */
export function dutyRoster(world: WorldStore, p: BrokerOpsParams, simStart: number, simEnd: number): Duty[] {
  const view = world.at(() => simEnd - 1);
  return dutiesOfEvents(bookEvents(view.broker.events({ since: simStart })), p, simStart, simEnd);
}

/**
 * `dutyRoster(world, p, simStart, end)` for every `end` ≤ `simEnd` from one read of the world: the
 * rows visible at simEnd − 1 with t ≥ simStart are parsed once, and each window keeps those with
 * visible_at ≤ end − 1 and t < end, as the roster's own query would (the scorer's per-day reports).
 * A later `end` falls back to `dutyRoster`. Scorer side only, like `dutyRoster`.
 */
export function rosterThrough(
  world: WorldStore,
  p: BrokerOpsParams,
  simStart: number,
  simEnd: number,
): (end: number) => Duty[] {
  let rows: { visible_at: number; e: BookEvent }[] | null = null;
  return (end) => {
    if (end > simEnd) return dutyRoster(world, p, simStart, end);
    rows ??= world
      .at(() => simEnd - 1)
      .broker.events({ since: simStart })
      .flatMap((r) => {
        const e = bookEvent(r);
        return e ? [{ visible_at: r.visible_at, e }] : [];
      });
    const events = rows.filter((r) => r.visible_at <= end - 1 && r.e.t < end).map((r) => r.e);
    return dutiesOfEvents(events, p, simStart, end);
  };
}

/**
 * The duties the agent can know of now: those of the fills and margin calls with t in
 * [simStart, simEnd) that `view` shows now (never a future fill or call).
 */
export function visibleDuties(view: AsOfView, p: BrokerOpsParams, simStart: number, simEnd: number): Duty[] {
  return dutiesOfEvents(bookEvents(view.broker.events({ since: simStart })), p, simStart, simEnd);
}

const byTId = (a: BookEvent, b: BookEvent) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The visible duties whose deadline is ≥ `from` (`visibleDuties` restricted to them, in the same
 * order), read from the incremental book: only fills with t ≥ from − stop window and margin calls
 * with t ≥ from − funding window can have such a deadline, so a wake reads the recent rows only.
 */
export function dutiesDueFrom(
  log: BookLog,
  p: BrokerOpsParams,
  simStart: number,
  simEnd: number,
  from: number,
): Duty[] {
  const recent = [
    ...log.events({ kind: "fill", since: from - p.stop_window_ms }),
    ...log.events({ kind: "margin_call", since: from - p.funding_window_ms }),
  ].sort(byTId);
  return dutiesOfEvents(recent, p, simStart, simEnd).filter((d) => d.deadline >= from);
}
