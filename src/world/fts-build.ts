import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import type Database from "better-sqlite3";
import { ENGLISH_STOPWORDS, ftsIndexText } from "./fts-text.js";
import type { NewsIndexFeed } from "./news-index-build.js";

/**
 * Building the contentless FTS5 index `news_fts` (rowid = news_order.seq) with both cores: this
 * thread strips stopwords while a worker thread inserts the prepared text into FTS5. Batches of
 * `FTS_BATCH` rows flow through a MessagePort (one worker transaction each; the prepared texts hold
 * no newline, so each column travels as one newline-joined string: one copy instead of thousands of
 * string clones); the calling thread
 * blocks on a shared counter (Atomics.wait) when `MAX_IN_FLIGHT` batches are queued, so every call
 * stays synchronous. The worker is plain CommonJS passed as source (`eval`), so it runs the same
 * under tsx, vitest and compiled JS.
 *
 * Two ways to feed it:
 * - `buildNewsFts(db, path)`: after the load, read `news` in seq order; the worker writes into the
 *   same (WAL) database.
 * - `NewsFtsStream`: while rows are still being loaded, into a side database that `finish()` copies
 *   in. FTS5 needs ascending rowids, and seq (the rank in (visible_at, id) order) is only known once
 *   every row is in, so the stream *speculates*: it holds a reorder window of rows, releases them in
 *   (visible_at, id) order numbering them 1, 2, ..., and gives up as soon as a row arrives that sorts
 *   before one already released. The caller checks the released rid order against `news_order`
 *   and uses the side index only if they are identical (see WorldBuilder.finish).
 */
const WORKER_SRC = `
const { workerData } = require("node:worker_threads");
const Database = require(workerData.sqlite);
const shared = new Int32Array(workerData.shared);
const port = workerData.port;
let db;
try {
  db = new Database(workerData.path);
  if (workerData.fresh) { db.pragma("journal_mode = OFF"); db.pragma("locking_mode = EXCLUSIVE"); }
  db.pragma("synchronous = OFF");
  db.pragma("cache_size = -262144");
  if (workerData.ddl) db.exec(workerData.ddl);
} catch (e) {
  port.postMessage(String(e && e.message || e));
  Atomics.store(shared, 1, 1);
  Atomics.notify(shared, 0);
  port.close();
}
const ins = db && db.prepare("INSERT INTO news_fts (rowid, title, body) VALUES (?, ?, ?)");
const batch = db && db.transaction((b) => {
  const title = b.title.split("\\n");
  const body = b.body.split("\\n");
  for (let i = 0; i < b.seq.length; i++) ins.run(b.seq[i], title[i], body[i]);
});
port.on("message", (m) => {
  try {
    if (m === null || m === "optimize") {
      if (m === "optimize") db.exec("INSERT INTO news_fts (news_fts) VALUES ('optimize')");
      db.close(); Atomics.store(shared, 2, 1); Atomics.notify(shared, 0); port.close(); return;
    }
    batch(m);
    Atomics.add(shared, 0, 1);
    Atomics.notify(shared, 0);
  } catch (e) {
    port.postMessage(String(e && e.message || e));
    Atomics.store(shared, 1, 1);
    Atomics.notify(shared, 0);
    port.close();
  }
});
`;

/** Rows per FTS transaction (each commit flushes one FTS5 segment). */
export const FTS_BATCH = 5000;
const MAX_IN_FLIGHT = 4;

interface FtsBatch {
  seq: number[];
  title: string[];
  body: string[];
}

/** A batch as it travels: each column newline-joined (prepared texts hold no newline). */
interface JoinedBatch {
  seq: number[];
  title: string;
  body: string;
}

const joinBatch = (b: FtsBatch): JoinedBatch => ({ seq: b.seq, title: b.title.join("\n"), body: b.body.join("\n") });

/** A worker thread that inserts FTS batches; shared[0] = batches done, [1] = failed, [2] = closed. */
class FtsWorker {
  private readonly shared = new Int32Array(new SharedArrayBuffer(12));
  private readonly port: MessagePort;
  private readonly worker: Worker;
  private sent = 0;
  private closed = false;

  constructor(path: string, opts: { fresh: boolean; ddl?: string }) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    const sqlite = createRequire(import.meta.url).resolve("better-sqlite3");
    this.worker = new Worker(WORKER_SRC, {
      eval: true,
      // plain CommonJS needs no flags, and the parent's would break it: under --input-type=module
      // the source would be read as ESM (no `require`) and die before it could report
      execArgv: [],
      workerData: { sqlite, path, shared: this.shared.buffer, port: port2, fresh: opts.fresh, ddl: opts.ddl },
      transferList: [port2],
    });
  }

  /** Queues a batch, first waiting while MAX_IN_FLIGHT batches are pending; throws if the worker failed. */
  send(b: JoinedBatch): void {
    while (this.sent - Atomics.load(this.shared, 0) >= MAX_IN_FLIGHT) this.waitWhile(0, Atomics.load(this.shared, 0));
    this.check();
    this.port.postMessage(b);
    this.sent++;
  }

  /** Waits for every batch, then (optionally after an FTS 'optimize') for the worker to close its db. */
  close(optimize: boolean): void {
    this.request(optimize);
    this.join();
  }

  /** Asks the worker to finish (optionally optimizing) without waiting; `join()` waits. */
  request(optimize: boolean): void {
    this.check();
    this.port.postMessage(optimize ? "optimize" : null);
  }

  join(): void {
    try {
      this.waitWhile(2, 0);
    } finally {
      this.dispose();
    }
  }

  dispose(): void {
    if (this.closed) return;
    this.closed = true;
    this.port.close();
    void this.worker.terminate();
  }

  private check(): void {
    if (Atomics.load(this.shared, 1) === 1) this.fail();
  }

  private fail(): never {
    const msg = receiveMessageOnPort(this.port)?.message;
    this.dispose();
    throw new Error(`FTS build failed: ${String(msg ?? "worker stopped")}`);
  }

  private waitWhile(index: number, value: number): void {
    while (Atomics.load(this.shared, index) === value) {
      this.check();
      Atomics.wait(this.shared, 0, Atomics.load(this.shared, 0), 50);
    }
  }
}

/** Open-addressing table of the stopwords by their FNV-1a hash: slot = index into STOPWORDS + 1 (0 = empty). */
const STOPWORDS = [...ENGLISH_STOPWORDS];
const STOP_MASK = 1023;
const STOP_SLOTS = new Int32Array(STOP_MASK + 1);
const STOP_HASH = new Int32Array(STOP_MASK + 1);
for (let k = 0; k < STOPWORDS.length; k++) {
  const w = STOPWORDS[k] as string;
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 0x01000193);
  let i = h & STOP_MASK;
  while (STOP_SLOTS[i] !== 0) i = (i + 1) & STOP_MASK;
  STOP_SLOTS[i] = k + 1;
  STOP_HASH[i] = h;
}

/** Whether `out[a, b)` (lowercase ASCII, FNV-1a hash `h`) is a stopword. */
function isStopword(out: Uint8Array, a: number, b: number, h: number): boolean {
  for (let i = h & STOP_MASK; ; i = (i + 1) & STOP_MASK) {
    const k = STOP_SLOTS[i] as number;
    if (k === 0) return false;
    if (STOP_HASH[i] !== h) continue;
    const w = STOPWORDS[k - 1] as string;
    if (w.length !== b - a) continue;
    let j = 0;
    while (j < w.length && w.charCodeAt(j) === out[a + j]) j++;
    if (j === w.length) return true;
  }
}

/** The output buffer of `ftsIndexTextFast` (one per thread; the prepared text is never longer than its input). */
let prepBuf = Buffer.allocUnsafe(1 << 16);

/**
 * `ftsIndexText` with an ASCII fast path: for pure-ASCII text the unicode61-like token boundaries
 * are exactly the runs of [A-Za-z0-9], so tokens are cut by one char-code scan that lowercases
 * them into a byte buffer as it goes (a space before each but the first), hashes them and drops a
 * stopword by one probe of a small table; the buffer becomes the result string in one step (no
 * lowercased copy, no substring per token). Any other text goes through `ftsIndexText` itself.
 * Same output for every input (property-tested).
 */
export function ftsIndexTextFast(text: string): string {
  const n = text.length;
  if (n > prepBuf.length) prepBuf = Buffer.allocUnsafe(Math.max(n, 2 * prepBuf.length));
  const out = prepBuf;
  let o = 0; // committed output length
  let w = -1; // where the current word's letters start in `out` (-1: not in a word)
  let p = 0; // write position of the current word
  let h = 0;
  for (let i = 0; i <= n; i++) {
    let c = i < n ? text.charCodeAt(i) : 32;
    if (c > 127) return ftsIndexText(text);
    if (c <= 90 && c >= 65) c += 32;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (w < 0) {
        w = o === 0 ? 0 : o + 1;
        if (o > 0) out[o] = 32;
        p = w;
        h = 0x811c9dc5 | 0;
      }
      out[p++] = c;
      h = Math.imul(h ^ c, 0x01000193);
    } else if (w >= 0) {
      if (!isStopword(out, w, p, h)) o = p;
      w = -1;
    }
  }
  return o === 0 ? "" : out.toString("latin1", 0, o);
}

/**
 * Fills `news_fts` (already created in `db`) from `news` in `news_order.seq` order; see above. With
 * `index`, the same prepared texts also feed the relive news index while the worker inserts them.
 */
export function buildNewsFts(db: Database.Database, path: string, index?: NewsIndexFeed): void {
  const worker = new FtsWorker(path, { fresh: false });
  const read = db.prepare(
    "SELECT o.seq AS seq, n.title AS title, n.text AS text FROM news_order o JOIN news n ON n.rid = o.rid" +
      " WHERE o.seq > ? ORDER BY o.seq LIMIT ?",
  );
  let last = 0;
  try {
    for (;;) {
      const rows = read.all(last, FTS_BATCH) as { seq: number; title: string; text: string }[];
      if (rows.length === 0) break;
      const seq: number[] = [];
      const title: string[] = [];
      const body: string[] = [];
      for (const r of rows) {
        seq.push(r.seq);
        title.push(ftsIndexTextFast(r.title));
        body.push(ftsIndexTextFast(r.text));
      }
      last = rows[rows.length - 1]?.seq ?? last;
      const joined = joinBatch({ seq, title, body });
      worker.send(joined);
      index?.addBatch(seq, title, body, joined);
    }
    worker.close(false);
  } finally {
    worker.dispose();
  }
}

interface Pending {
  rid: number;
  vis: number;
  id: string;
  title: string;
  body: string;
}

/** SQLite BINARY order of two TEXT values (UTF-8 bytes); JS `<` agrees unless a surrogate is involved. */
function compareText(a: string, b: string): number {
  if (a === b) return 0;
  if (/[\ud800-\uffff]/.test(a) || /[\ud800-\uffff]/.test(b)) return Buffer.compare(Buffer.from(a), Buffer.from(b));
  return a < b ? -1 : 1;
}

function compareKey(a: Pending, b: Pending): number {
  return a.vis - b.vis || compareText(a.id, b.id);
}

/** Rows held back before the oldest half is released: the disorder the stream tolerates. */
export const FTS_REORDER_WINDOW = 1024;

/** Builds the news FTS index in a side database while rows load, speculating on (visible_at, id) order. */
export class NewsFtsStream {
  readonly path: string;
  private worker: FtsWorker | null;
  private pending: Pending[] = [];
  private out: FtsBatch = { seq: [], title: [], body: [] };
  private order: number[] = [];
  private last: Pending | null = null;
  private readonly index: NewsIndexFeed | undefined;

  /**
   * Starts the worker on a new database at `path` created with `ddl` (the news_fts DDL). With
   * `index`, the released rows (in speculative seq order) also feed the relive news index; it is
   * reset when the stream gives up.
   */
  constructor(path: string, ddl: string, index?: NewsIndexFeed) {
    this.path = path;
    this.index = index;
    this.worker = new FtsWorker(path, { fresh: true, ddl });
  }

  /** False once the speculation failed or the stream was aborted (the caller builds the index after the load). */
  get active(): boolean {
    return this.worker !== null;
  }

  /** Adds one inserted news row (`rid` = its rowid in `news`); stops the stream if the row arrives too late. */
  add(rid: number, visibleAt: number, id: string, title: string, text: string): void {
    if (this.worker === null) return;
    const row: Pending = { rid, vis: visibleAt, id, title: ftsIndexTextFast(title), body: ftsIndexTextFast(text) };
    if (this.last !== null && compareKey(row, this.last) <= 0) {
      this.abort();
      return;
    }
    this.pending.push(row);
    if (this.pending.length >= 2 * FTS_REORDER_WINDOW) this.release(FTS_REORDER_WINDOW);
  }

  /**
   * Releases every held row and asks the worker to optimize and close (without waiting); returns
   * the rids in released order (seq = index + 1), or null if the stream is no longer active.
   */
  end(): number[] | null {
    if (this.worker === null) return null;
    this.release(this.pending.length);
    if (this.out.seq.length > 0) this.flush();
    this.worker.request(true);
    return this.order;
  }

  /** Waits until the worker has optimized and closed the side database (after `end()`). */
  join(): void {
    this.worker?.join();
  }

  /** Stops the worker and deletes the side database. */
  abort(): void {
    this.worker?.dispose();
    this.worker = null;
    this.pending = [];
    this.order = [];
    this.index?.reset();
    this.discard();
  }

  /** Deletes the side database. */
  discard(): void {
    rmSync(this.path, { force: true });
  }

  private release(count: number): void {
    this.pending.sort(compareKey);
    const n = Math.min(count, this.pending.length);
    for (let i = 0; i < n; i++) {
      const r = this.pending[i] as Pending;
      this.order.push(r.rid);
      this.out.seq.push(this.order.length);
      this.out.title.push(r.title);
      this.out.body.push(r.body);
      if (this.out.seq.length >= FTS_BATCH) this.flush();
      this.last = r;
    }
    this.pending = this.pending.slice(n);
  }

  private flush(): void {
    const b = this.out;
    this.out = { seq: [], title: [], body: [] };
    const joined = joinBatch(b);
    this.worker?.send(joined);
    this.index?.addBatch(b.seq, b.title, b.body, joined);
  }
}
