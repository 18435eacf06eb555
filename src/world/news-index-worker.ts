import Database from "better-sqlite3";
import { NewsIndexBuilder } from "./news-index-build.js";
import {
  type IndexWorkerData,
  type IndexWorkerRequest,
  IW_DONE,
  IW_FAILED,
  IW_WRITTEN,
  SIDE_META_DDL,
} from "./news-index-protocol.js";

/**
 * The worker side of `NewsIndexJob` (news-index-parallel.ts): feeds each batch of prepared texts
 * (newline-joined, as the FTS worker gets them) to a `NewsIndexBuilder`, and on `write` stores the
 * index in a fresh side database (its tables plus its world_meta rows) that the main thread copies
 * into world.db. Any error is posted as `{ error }` with the failed flag set, so the waiting main
 * thread wakes and reports it.
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
      if ("write" in m) {
        const db = new Database(m.write);
        try {
          db.pragma("journal_mode = OFF");
          db.pragma("synchronous = OFF");
          db.exec(SIDE_META_DDL);
          const terms = builder.write(db, m.docs);
          port.postMessage({ terms });
        } finally {
          db.close();
        }
        Atomics.store(shared, IW_WRITTEN, 1);
        Atomics.notify(shared, IW_DONE);
        port.close();
        return;
      }
      builder.addBatch(m.seq, m.title.split("\n"), m.body.split("\n"));
      Atomics.add(shared, IW_DONE, 1);
      Atomics.notify(shared, IW_DONE);
    } catch (e) {
      builder.reset();
      fail(e);
    }
  });
}
