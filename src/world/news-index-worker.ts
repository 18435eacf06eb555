import { receiveMessageOnPort } from "node:worker_threads";
import Database from "better-sqlite3";
import { NewsIndexBuilder } from "./news-index-build.js";
import {
  type IndexWorkerData,
  type IndexWorkerRequest,
  IW_DONE,
  IW_FAILED,
  IW_GO,
  IW_WRITTEN,
} from "./news-index-protocol.js";

/**
 * The worker side of `NewsIndexJob` (news-index-parallel.ts): feeds each batch of prepared texts
 * (newline-joined, as the FTS worker gets them) to a `NewsIndexBuilder`; on `prepare` sorts the
 * index into its stored form (`prepareWrite`, while the main thread finishes the world's other
 * tables), then waits for the go-ahead and writes the tables straight into the world database
 * (`store`, its own connection; the main thread waits meanwhile). Any error is posted as
 * `{ error }` with the failed flag set, so the waiting main thread wakes and reports it.
 */
export function runNewsIndexWorker(data: IndexWorkerData): void {
  const shared = new Int32Array(data.shared);
  const { port } = data;
  const builder = new NewsIndexBuilder({ vectors: data.vectors });
  const fail = (e: unknown) => {
    port.postMessage({ error: e instanceof Error ? e.message : String(e) });
    Atomics.store(shared, IW_FAILED, 1);
    Atomics.notify(shared, IW_DONE);
    port.close();
  };
  port.on("message", (m: IndexWorkerRequest) => {
    try {
      if ("prepare" in m) {
        builder.prepareWrite(m.prepare);
        let req: IndexWorkerRequest | undefined;
        while (req === undefined) {
          req = receiveMessageOnPort(port)?.message as IndexWorkerRequest | undefined;
          if (req === undefined) Atomics.wait(shared, IW_GO, 0, 50);
        }
        if (!("store" in req)) throw new Error("news index: expected the database to write into");
        const db = new Database(req.store, { fileMustExist: true });
        try {
          db.pragma("synchronous = OFF");
          db.pragma("cache_size = -262144");
          db.pragma("busy_timeout = 10000");
          // a rollback journal in memory unless the world is in WAL mode (which its file keeps)
          if (db.pragma("journal_mode", { simple: true }) !== "wal") db.pragma("journal_mode = MEMORY");
          const terms = builder.store(db);
          port.postMessage({ terms });
        } finally {
          db.close();
        }
        Atomics.store(shared, IW_WRITTEN, 1);
        Atomics.notify(shared, IW_DONE);
        port.close();
        return;
      }
      if ("store" in m) throw new Error("news index: store before prepare");
      builder.addBatch(m.seq, m.title.split("\n"), m.body.split("\n"));
      Atomics.add(shared, IW_DONE, 1);
      Atomics.notify(shared, IW_DONE);
    } catch (e) {
      builder.reset();
      fail(e);
    }
  });
}
