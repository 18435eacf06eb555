import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";
import { BackgroundFsync } from "./background-fsync.js";
import type { LedgerEvent, NewLedgerEvent } from "./events.js";
import type { Redactor } from "./redactor.js";
import { CURRENT_LEDGER_VERSION, type LedgerVersion, ledgerVersionOf, serializeEvent } from "./serialize.js";

/** Thrown when a re-run (resume) regenerates a ledger line that differs from the recorded one. */
export class LedgerDivergenceError extends Error {
  constructor(
    readonly seq: number,
    readonly recorded: string,
    readonly regenerated: string,
  ) {
    super(
      `ledger diverged at line ${seq + 1}: the re-run produced a different event than the one recorded.\n` +
        `  recorded:    ${recorded}\n  regenerated: ${regenerated}\n` +
        "The run's inputs changed (world, task version, config or agent code), so it cannot be resumed; start a new run.",
    );
    this.name = "LedgerDivergenceError";
  }
}

export type LedgerListener = (e: LedgerEvent) => void;

/**
 * Durable append-only JSONL writer. Each event is serialized and written with write(2) before
 * `append` returns (acknowledged: a killed process loses none of it); `sync()`, at settlement
 * points and day boundaries, starts an fsync beside the run (`BackgroundFsync`: the run does not
 * wait for the disk; what a machine crash can lose is the lines since the last completed fsync),
 * and `close()` fsyncs synchronously, so a closed ledger is wholly on disk.
 *
 * Verify mode (resume): the first `recorded.length` events are not written but compared line by
 * line with the recorded ledger; a difference throws `LedgerDivergenceError`. After the recorded
 * prefix, events are appended to the same file.
 */
export class LedgerWriter {
  private fd: number | null;
  private background: BackgroundFsync | null = null;
  private seq = 0;
  private readonly listeners: LedgerListener[] = [];
  private redactor: Redactor | null = null;
  /** the line format: the recorded ledger's when re-running one, else the current version */
  readonly version: LedgerVersion;

  private constructor(
    readonly path: string,
    private readonly recorded: readonly string[],
  ) {
    this.version = recorded.length ? ledgerVersionOf(recorded[0]) : CURRENT_LEDGER_VERSION;
    this.fd = openSync(path, "a");
  }

  /** A fresh ledger (the file must not exist). */
  static create(path: string): LedgerWriter {
    closeSync(openSync(path, "wx"));
    return new LedgerWriter(path, []);
  }

  /** Re-run against `recorded` lines (already stripped of a torn tail), then continue appending. */
  static verifying(path: string, recorded: readonly string[]): LedgerWriter {
    return new LedgerWriter(path, recorded);
  }

  /** lines are written (and compared on resume) with the run's secrets redacted; listeners get the real event */
  redactWith(r: Redactor): void {
    this.redactor = r;
  }

  subscribe(fn: LedgerListener): void {
    this.listeners.push(fn);
  }

  get length(): number {
    return this.seq;
  }

  /** True while the writer is still re-generating the recorded prefix. */
  get replaying(): boolean {
    return this.seq < this.recorded.length;
  }

  append<E extends NewLedgerEvent>(event: E): E & { seq: number } {
    if (this.fd === null) throw new Error(`ledger ${this.path} is closed`);
    const full = { seq: this.seq, ...event } as E & { seq: number };
    const json = serializeEvent(full as unknown as LedgerEvent, this.version);
    const line = this.redactor ? this.redactor.redact(json) : json;
    if (this.seq < this.recorded.length) {
      const rec = this.recorded[this.seq]!;
      if (rec !== line) throw new LedgerDivergenceError(this.seq, rec, line);
    } else {
      writeSync(this.fd, `${line}\n`);
    }
    this.seq++;
    for (const fn of this.listeners) fn(full as unknown as LedgerEvent);
    return full;
  }

  sync(): void {
    if (this.fd === null || this.replaying) return;
    this.background ??= new BackgroundFsync(this.path);
    this.background.request();
  }

  /** fsyncs started and completed by `sync()` so far */
  get syncs(): { requested: number; completed: number } {
    return this.background?.counts ?? { requested: 0, completed: 0 };
  }

  close(): void {
    if (this.fd === null) return;
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = null;
    this.background?.close();
  }
}
