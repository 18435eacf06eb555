import Database from "better-sqlite3";
import { getEmbedder } from "./embedder.js";
import { checkContiguous, embedRows, NEWS_VEC_READ_SQL } from "./news-vectors.js";
import {
  NEWS_VEC_CHUNK,
  type VecWorkerData,
  VW_CONSUMED,
  VW_FAILED,
  VW_MAX_AHEAD,
  VW_NEXT,
  VW_POSTED,
} from "./news-vectors-protocol.js";

/**
 * One news-vector worker (started by `news-vectors-parallel.ts`): opens the world under
 * construction read-only, takes chunk numbers from the shared counter, embeds and quantizes each
 * chunk (`embedRows`, the same code as the main-thread build) and posts it back; never more than
 * `VW_MAX_AHEAD` chunks ahead of what the main thread has consumed. Any error is posted as
 * `{ error }` with the failed flag set, so the waiting main thread wakes and reports it.
 */
export function runNewsVectorsWorker(data: VecWorkerData): void {
  const shared = new Int32Array(data.shared);
  const { port } = data;
  let db: Database.Database | null = null;
  try {
    const embedder = getEmbedder(data.embedderId);
    if (embedder.dim !== data.dim)
      throw new Error(`embedder ${data.embedderId}: dim ${embedder.dim}, expected ${data.dim}`);
    db = new Database(data.dbPath, { readonly: true, fileMustExist: true });
    const read = db.prepare(NEWS_VEC_READ_SQL);
    const chunks = Math.ceil(data.rows / NEWS_VEC_CHUNK);
    for (;;) {
      if (Atomics.load(shared, VW_FAILED) !== 0) break;
      const c = Atomics.add(shared, VW_NEXT, 1);
      if (c >= chunks) break;
      // bounded memory: wait while this chunk is too far ahead of the main thread's consumption
      for (;;) {
        const consumed = Atomics.load(shared, VW_CONSUMED);
        if (c - consumed < VW_MAX_AHEAD || Atomics.load(shared, VW_FAILED) !== 0) break;
        Atomics.wait(shared, VW_CONSUMED, consumed, 1000);
      }
      const lo = c * NEWS_VEC_CHUNK;
      const n = Math.min(data.rows, lo + NEWS_VEC_CHUNK) - lo;
      const rows = read.all(lo, n) as { seq: number; title: string; text: string }[];
      if (rows.length !== n) throw new Error(`chunk ${c}: read ${rows.length} rows of seqs ${lo + 1}..${lo + n}`);
      checkContiguous(rows, lo);
      const { q, scale } = embedRows(embedder, rows);
      port.postMessage({ chunk: c, q, scale }, [q.buffer as ArrayBuffer, scale.buffer as ArrayBuffer]);
      Atomics.add(shared, VW_POSTED, 1);
      Atomics.notify(shared, VW_POSTED);
    }
  } catch (e) {
    port.postMessage({ error: e instanceof Error ? e.message : String(e) });
    Atomics.store(shared, VW_FAILED, 1);
    Atomics.add(shared, VW_POSTED, 1);
    Atomics.notify(shared, VW_POSTED);
  } finally {
    db?.close();
    port.close();
  }
}
