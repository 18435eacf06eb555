import { createRequire } from "node:module";
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import type Database from "better-sqlite3";
import { ftsIndexText } from "./fts-text.js";

/**
 * Fills `news_fts` from `news` in `news_order.seq` order using both cores: this thread reads
 * articles and strips stopwords (`ftsIndexText`) while a worker thread, on its own connection to
 * the same WAL database, inserts the prepared text into FTS5. Batches flow through a MessagePort;
 * the calling thread blocks on a shared counter (Atomics.wait), so the call stays synchronous.
 * The worker is plain CommonJS passed as source (`eval`), so it runs the same under tsx, vitest
 * and compiled JS.
 */
const WORKER_SRC = `
const { workerData } = require("node:worker_threads");
const Database = require(workerData.sqlite);
const shared = new Int32Array(workerData.shared);
const port = workerData.port;
const db = new Database(workerData.path);
db.pragma("synchronous = OFF");
db.pragma("cache_size = -262144");
const ins = db.prepare("INSERT INTO news_fts (rowid, title, body) VALUES (?, ?, ?)");
const batch = db.transaction((b) => { for (let i = 0; i < b.seq.length; i++) ins.run(b.seq[i], b.title[i], b.body[i]); });
port.on("message", (m) => {
  try {
    if (m === null) { db.close(); Atomics.store(shared, 2, 1); Atomics.notify(shared, 0); port.close(); return; }
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

const BATCH = 5000;
const MAX_IN_FLIGHT = 4;

export function buildNewsFts(db: Database.Database, path: string): void {
  const shared = new Int32Array(new SharedArrayBuffer(12));
  const { port1, port2 } = new MessageChannel();
  const sqlite = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(WORKER_SRC, {
    eval: true,
    workerData: { sqlite, path, shared: shared.buffer, port: port2 },
    transferList: [port2],
  });
  const fail = (): never => {
    const msg = receiveMessageOnPort(port1)?.message;
    port1.close();
    void worker.terminate();
    throw new Error(`FTS build failed: ${String(msg ?? "worker stopped")}`);
  };
  const waitWhile = (index: number, value: number) => {
    while (Atomics.load(shared, index) === value) {
      if (Atomics.load(shared, 1) === 1) fail();
      Atomics.wait(shared, 0, Atomics.load(shared, 0), 50);
    }
  };
  const read = db.prepare(
    "SELECT o.seq AS seq, n.title AS title, n.text AS text FROM news_order o JOIN news n ON n.rid = o.rid" +
      " WHERE o.seq > ? ORDER BY o.seq LIMIT ?",
  );
  let sent = 0;
  let last = 0;
  try {
    for (;;) {
      const rows = read.all(last, BATCH) as { seq: number; title: string; text: string }[];
      if (rows.length === 0) break;
      const seq: number[] = [];
      const title: string[] = [];
      const body: string[] = [];
      for (const r of rows) {
        seq.push(r.seq);
        title.push(ftsIndexText(r.title));
        body.push(ftsIndexText(r.text));
      }
      last = rows[rows.length - 1]?.seq ?? last;
      while (sent - Atomics.load(shared, 0) >= MAX_IN_FLIGHT) waitWhile(0, Atomics.load(shared, 0));
      if (Atomics.load(shared, 1) === 1) fail();
      port1.postMessage({ seq, title, body });
      sent++;
    }
    while (Atomics.load(shared, 0) < sent) waitWhile(0, Atomics.load(shared, 0));
    port1.postMessage(null);
    waitWhile(2, 0);
  } finally {
    port1.close();
    void worker.terminate();
  }
}
