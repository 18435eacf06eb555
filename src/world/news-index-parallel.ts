import { MessageChannel, type MessagePort, receiveMessageOnPort, type Worker } from "node:worker_threads";
import type Database from "better-sqlite3";
import { startModuleWorker } from "./module-worker.js";
import { NewsIndexBuilder, type NewsIndexFeed } from "./news-index-build.js";
import {
  type IndexWorkerData,
  type IndexWorkerMessage,
  type IndexWorkerRequest,
  IW_CELLS,
  IW_DONE,
  IW_FAILED,
  IW_GO,
  IW_WRITTEN,
} from "./news-index-protocol.js";

/**
 * The relive news index built on a worker thread (the same tables, byte for byte, as a
 * `NewsIndexBuilder` on the calling thread; it is that builder, run elsewhere).
 *
 * The FTS build feeds it exactly as it feeds a `NewsIndexBuilder` (`addBatch`, in seq order);
 * the first batches are held here until `minRows` articles have arrived, so a small world never
 * starts a thread (and `write` then builds the index here). From then on each batch is posted to
 * the worker (newline-joined texts, one string per column), at most `MAX_IN_FLIGHT` ahead of it
 * (the caller blocks on a shared counter). `prepareWrite()` asks the worker to sort the index into
 * its stored form while this thread does other work; `write(db)` then lets the worker write the
 * tables straight into `db`'s file through its own connection (this thread waits, its connection
 * idle: no copy through a side database) with the same statements in the same order as
 * `NewsIndexBuilder.write(db)`. The worker runs in input order only, so its output does not depend
 * on thread timing. A worker error is thrown with its message by the next call; `reset()` stops
 * the worker.
 */

/** From this many articles on, the news index is built by a worker thread. */
export const PARALLEL_INDEX_MIN_ROWS = 20_000;
/** Batches posted and not yet added by the worker before `addBatch` waits (bounds memory). */
const MAX_IN_FLIGHT = 8;

interface Batch {
  seq: readonly number[];
  title: readonly string[];
  body: readonly string[];
  joined: { title: string; body: string } | undefined;
}

interface Running {
  worker: Worker;
  port: MessagePort;
  shared: Int32Array;
  sent: number;
  prepareRequested: boolean;
}

export class NewsIndexJob implements NewsIndexFeed {
  private held: Batch[] = [];
  private docs = 0;
  private run: Running | null = null;
  /** wall-clock ms this thread spent in addBatch (posting, or waiting for the worker) */
  feedMs = 0;

  /** With `vectors`, the index builder also makes the hashing embedder's news vectors (`NewsIndexBuilder`). */
  constructor(
    private readonly minRows = PARALLEL_INDEX_MIN_ROWS,
    private readonly vectors = false,
  ) {}

  /** Articles added so far (the last seq). */
  get size(): number {
    return this.docs;
  }

  /** Whether a worker thread builds the index (from `minRows` articles on). */
  get parallel(): boolean {
    return this.run !== null;
  }

  addBatch(
    seq: readonly number[],
    title: readonly string[],
    body: readonly string[],
    joined?: { title: string; body: string },
  ): void {
    const t0 = performance.now();
    if (seq.length === 0) return;
    const batch = { seq, title, body, joined };
    this.docs += seq.length;
    if (this.run === null) {
      this.held.push(batch);
      if (this.docs >= Math.max(1, this.minRows)) {
        const held = this.held;
        this.held = [];
        this.run = this.start();
        for (const b of held) this.post(b);
      }
    } else this.post(batch);
    this.feedMs += performance.now() - t0;
  }

  /** Asks the worker to sort the index into its stored form now (no-op without a worker or if already asked). */
  prepareWrite(): void {
    const run = this.run;
    if (run === null || run.prepareRequested) return;
    this.check(run);
    const m: IndexWorkerRequest = { prepare: this.docs };
    run.port.postMessage(m);
    run.prepareRequested = true;
  }

  /**
   * Writes the index tables into `db` (checks that it saw exactly the `docs` articles of
   * news_order; with a worker, `db` is a file and holds no open transaction); returns the term
   * count. Ends the job (as `reset()` does).
   */
  write(db: Database.Database, docs: number): number {
    try {
      const run = this.run;
      if (run === null) {
        const builder = new NewsIndexBuilder({ vectors: this.vectors });
        for (const b of this.held) builder.addBatch(b.seq, b.title, b.body);
        this.held = [];
        return builder.write(db, docs);
      }
      if (docs !== this.docs) throw new Error(`news index: built from ${this.docs} articles, the world has ${docs}`);
      if (db.memory || db.inTransaction)
        throw new Error("news index: the worker writes into a database file with no open transaction");
      this.prepareWrite();
      const m: IndexWorkerRequest = { store: db.name };
      run.port.postMessage(m);
      Atomics.store(run.shared, IW_GO, 1);
      Atomics.notify(run.shared, IW_GO);
      while (Atomics.load(run.shared, IW_WRITTEN) === 0) {
        this.check(run);
        Atomics.wait(run.shared, IW_DONE, Atomics.load(run.shared, IW_DONE), 50);
      }
      const msg = receiveMessageOnPort(run.port)?.message as IndexWorkerMessage | undefined;
      if (msg === undefined || !("terms" in msg)) throw new Error("news index: the worker wrote no result");
      return msg.terms;
    } finally {
      this.reset();
    }
  }

  /** Forgets everything added and stops the worker. */
  reset(): void {
    const run = this.run;
    this.run = null;
    if (run !== null) {
      run.port.close();
      void run.worker.terminate();
    }
    this.held = [];
    this.docs = 0;
    this.feedMs = 0;
  }

  private start(): Running {
    const shared = new Int32Array(new SharedArrayBuffer(IW_CELLS * 4));
    const { port1, port2 } = new MessageChannel();
    const data: IndexWorkerData = { shared: shared.buffer as SharedArrayBuffer, port: port2, vectors: this.vectors };
    const worker = startModuleWorker(
      "news-index-worker",
      "runNewsIndexWorker",
      data,
      `Atomics.store(s, ${IW_FAILED}, 1); Atomics.notify(s, ${IW_DONE});`,
    );
    return { worker, port: port1, shared, sent: 0, prepareRequested: false };
  }

  private post(b: Batch): void {
    const run = this.run as Running;
    for (;;) {
      this.check(run);
      const done = Atomics.load(run.shared, IW_DONE);
      if (run.sent - done < MAX_IN_FLIGHT) break;
      Atomics.wait(run.shared, IW_DONE, done, 50);
    }
    const m: IndexWorkerRequest = {
      seq: [...b.seq],
      title: b.joined?.title ?? b.title.join("\n"),
      body: b.joined?.body ?? b.body.join("\n"),
    };
    run.port.postMessage(m);
    run.sent++;
  }

  private check(run: Running): void {
    if (Atomics.load(run.shared, IW_FAILED) === 0) return;
    const msg = receiveMessageOnPort(run.port)?.message as IndexWorkerMessage | undefined;
    const text = msg !== undefined && "error" in msg ? msg.error : "worker stopped";
    this.reset();
    throw new Error(`news index build failed: ${text}`);
  }
}
