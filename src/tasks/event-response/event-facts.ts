import type Database from "better-sqlite3";
import type { EventRow } from "../../world/types.js";

/** Scorer- and oracle-side reads of the untouched `event` table (never handed to the agent). */
export class EventFacts {
  constructor(private readonly db: Database.Database) {}

  /** events of `kinds` with t in [from, to), by (t, id) */
  ofKinds(kinds: readonly string[], from: number, to: number): EventRow[] {
    if (kinds.length === 0) return [];
    const rows = this.db
      .prepare(
        `SELECT id, kind, t, payload, visible_at FROM event WHERE kind IN (${kinds.map(() => "?").join(", ")})` +
          " AND t >= ? AND t < ? ORDER BY t, id",
      )
      .all(...kinds, from, to) as (Omit<EventRow, "payload"> & { payload: string })[];
    return rows.map((r) => ({ ...r, payload: JSON.parse(r.payload) as Record<string, unknown> }));
  }

  byId(id: string): EventRow | null {
    const r = this.db.prepare("SELECT id, kind, t, payload, visible_at FROM event WHERE id = ?").get(id) as
      | (Omit<EventRow, "payload"> & { payload: string })
      | undefined;
    return r ? { ...r, payload: JSON.parse(r.payload) as Record<string, unknown> } : null;
  }
}
