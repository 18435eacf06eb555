import { existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { AttributionRow, BreakpointRow, IncidentRow, LabelRow, QuestionAnswerRow } from "./types.js";
import { TRUTH_DB } from "./world-builder.js";

/**
 * Read-only access to a world's ground truth (`<dir>/truth.db`). Only scorers, feedback release
 * and oracle policies open it; no agent-facing code (views, tools, sandbox) may.
 */
export class TruthStore {
  readonly dir: string;
  readonly db: Database.Database;

  private constructor(dir: string, db: Database.Database) {
    this.dir = dir;
    this.db = db;
  }

  static open(dir: string): TruthStore {
    const path = join(dir, TRUTH_DB);
    if (!existsSync(path)) {
      throw new Error(`world directory ${dir} has no ${TRUTH_DB}: rebuild the world into a fresh directory`);
    }
    return new TruthStore(dir, new Database(path, { readonly: true, fileMustExist: true }));
  }

  breakpoints(market?: string): BreakpointRow[] {
    const sql = "SELECT id, market, t_start, t_end, size FROM breakpoint";
    return (
      market === undefined
        ? this.db.prepare(`${sql} ORDER BY market, t_start, id`).all()
        : this.db.prepare(`${sql} WHERE market = ? ORDER BY t_start, id`).all(market)
    ) as BreakpointRow[];
  }

  attributions(breakpointId?: string): AttributionRow[] {
    const sql = "SELECT breakpoint, news_id, group_id, confidence FROM attribution";
    return (
      breakpointId === undefined
        ? this.db.prepare(`${sql} ORDER BY breakpoint, news_id, rowid`).all()
        : this.db.prepare(`${sql} WHERE breakpoint = ? ORDER BY news_id, rowid`).all(breakpointId)
    ) as AttributionRow[];
  }

  incidents(venue?: string): IncidentRow[] {
    const sql = 'SELECT venue, start, "end", kind, params FROM incident';
    const rows = (
      venue === undefined
        ? this.db.prepare(`${sql} ORDER BY venue, start, rowid`).all()
        : this.db.prepare(`${sql} WHERE venue = ? ORDER BY start, rowid`).all(venue)
    ) as (Omit<IncidentRow, "params"> & { params: string })[];
    return rows.map((r) => ({ ...r, params: JSON.parse(r.params) as Record<string, unknown> }));
  }

  answers(): QuestionAnswerRow[] {
    return this.db
      .prepare("SELECT question, answer, resolved_at FROM question_answer ORDER BY question")
      .all() as QuestionAnswerRow[];
  }

  labels(kind: string): LabelRow[] {
    const rows = this.db
      .prepare("SELECT kind, key, t, value FROM label WHERE kind = ? ORDER BY key, rowid")
      .all(kind) as (Omit<LabelRow, "value"> & { value: string })[];
    return rows.map((r) => ({ ...r, value: JSON.parse(r.value) as Record<string, unknown> }));
  }

  /** every label kind present, sorted */
  labelKinds(): string[] {
    return (this.db.prepare("SELECT DISTINCT kind FROM label ORDER BY kind").all() as { kind: string }[]).map(
      (r) => r.kind,
    );
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
