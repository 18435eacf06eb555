import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";
import { CURRENT_LEDGER_VERSION, ledgerVersionOf, serializeEvent } from "./serialize.js";
class LedgerDivergenceError extends Error {
  constructor(seq, recorded, regenerated) {
    super(
      `ledger diverged at line ${seq + 1}: the re-run produced a different event than the one recorded.
  recorded:    ${recorded}
  regenerated: ${regenerated}
The run's inputs changed (world, task version, config or agent code), so it cannot be resumed; start a new run.`
    );
    this.seq = seq;
    this.recorded = recorded;
    this.regenerated = regenerated;
    this.name = "LedgerDivergenceError";
  }
  seq;
  recorded;
  regenerated;
}
class LedgerWriter {
  constructor(path, recorded) {
    this.path = path;
    this.recorded = recorded;
    this.version = recorded.length ? ledgerVersionOf(recorded[0]) : CURRENT_LEDGER_VERSION;
    this.fd = openSync(path, "a");
  }
  path;
  recorded;
  fd;
  seq = 0;
  listeners = [];
  redactor = null;
  /** the line format: the recorded ledger's when re-running one, else the current version */
  version;
  /** A fresh ledger (the file must not exist). */
  static create(path) {
    closeSync(openSync(path, "wx"));
    return new LedgerWriter(path, []);
  }
  /** Re-run against `recorded` lines (already stripped of a torn tail), then continue appending. */
  static verifying(path, recorded) {
    return new LedgerWriter(path, recorded);
  }
  /** lines are written (and compared on resume) with the run's secrets redacted; listeners get the real event */
  redactWith(r) {
    this.redactor = r;
  }
  subscribe(fn) {
    this.listeners.push(fn);
  }
  get length() {
    return this.seq;
  }
  /** True while the writer is still re-generating the recorded prefix. */
  get replaying() {
    return this.seq < this.recorded.length;
  }
  append(event) {
    if (this.fd === null) throw new Error(`ledger ${this.path} is closed`);
    const full = { seq: this.seq, ...event };
    const json = serializeEvent(full, this.version);
    const line = this.redactor ? this.redactor.redact(json) : json;
    if (this.seq < this.recorded.length) {
      const rec = this.recorded[this.seq];
      if (rec !== line) throw new LedgerDivergenceError(this.seq, rec, line);
    } else {
      writeSync(this.fd, `${line}
`);
    }
    this.seq++;
    for (const fn of this.listeners) fn(full);
    return full;
  }
  sync() {
    if (this.fd !== null && !this.replaying) fsyncSync(this.fd);
  }
  close() {
    if (this.fd === null) return;
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = null;
  }
}
export {
  LedgerDivergenceError,
  LedgerWriter
};
//# sourceMappingURL=ledger-writer.js.map
