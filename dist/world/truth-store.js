import { existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { TRUTH_DB } from "./world-builder.js";
class TruthStore {
  dir;
  db;
  constructor(dir, db) {
    this.dir = dir;
    this.db = db;
  }
  static open(dir) {
    const path = join(dir, TRUTH_DB);
    if (!existsSync(path)) {
      throw new Error(`world directory ${dir} has no ${TRUTH_DB}: rebuild the world into a fresh directory`);
    }
    return new TruthStore(dir, new Database(path, { readonly: true, fileMustExist: true }));
  }
  breakpoints(market) {
    const sql = "SELECT id, market, t_start, t_end, size FROM breakpoint";
    return market === void 0 ? this.db.prepare(`${sql} ORDER BY market, t_start, id`).all() : this.db.prepare(`${sql} WHERE market = ? ORDER BY t_start, id`).all(market);
  }
  attributions(breakpointId) {
    const sql = "SELECT breakpoint, news_id, group_id, confidence FROM attribution";
    return breakpointId === void 0 ? this.db.prepare(`${sql} ORDER BY breakpoint, news_id, rowid`).all() : this.db.prepare(`${sql} WHERE breakpoint = ? ORDER BY news_id, rowid`).all(breakpointId);
  }
  incidents(venue) {
    const sql = 'SELECT venue, start, "end", kind, params FROM incident';
    const rows = venue === void 0 ? this.db.prepare(`${sql} ORDER BY venue, start, rowid`).all() : this.db.prepare(`${sql} WHERE venue = ? ORDER BY start, rowid`).all(venue);
    return rows.map((r) => ({ ...r, params: JSON.parse(r.params) }));
  }
  answers() {
    return this.db.prepare("SELECT question, answer, resolved_at FROM question_answer ORDER BY question").all();
  }
  labels(kind) {
    const rows = this.db.prepare("SELECT kind, key, t, value FROM label WHERE kind = ? ORDER BY key, rowid").all(kind);
    return rows.map((r) => ({ ...r, value: JSON.parse(r.value) }));
  }
  /** every label kind present, sorted */
  labelKinds() {
    return this.db.prepare("SELECT DISTINCT kind FROM label ORDER BY kind").all().map(
      (r) => r.kind
    );
  }
  close() {
    if (this.db.open) this.db.close();
  }
}
export {
  TruthStore
};
//# sourceMappingURL=truth-store.js.map
