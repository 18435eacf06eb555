import { availableParallelism } from "node:os";
import { MessageChannel, type MessagePort, receiveMessageOnPort, type Worker } from "node:worker_threads";
import type Database from "better-sqlite3";
import type { Embedder } from "./embedder.js";
import { isRegisteredEmbedder } from "./embedder.js";
import { startModuleWorker } from "./module-worker.js";
import { checkEmbedderDim, NEWS_VEC_BLOCK, NEWS_VEC_DDL, writeNewsVecBlock, writeNewsVecMeta } from "./news-vectors.js";
import {
  NEWS_VEC_CHUNK,
  type VecWorkerData,
  type VecWorkerMessage,
  VW_CELLS,
  VW_CONSUMED,
  VW_FAILED,
  VW_POSTED,
} from "./news-vectors-protocol.js";

/**
 * The news vectors of a world built by worker threads (the same bytes as `buildNewsVectors`).
 *
 * `start()` is called once news_order exists (committed; world.db is in WAL mode): each worker
 * opens world.db read-only and takes chunks of `NEWS_VEC_CHUNK` seqs from a shared counter, embeds
 * and quantizes them with `embedRows` and posts them back, while the main thread goes on with the
 * FTS adoption and the news index. `finish(db)` then assembles the chunks block by block in seq
 * order and writes them, so the output does not depend on the number of workers or on which
 * worker embedded which chunk. Each chunk is embedded from its own rows alone, in the same
 * 1,024-text batches as the main-thread build (chunks start at multiples of 1,024).
 *
 * Workers rebuild the embedder from its id (`getEmbedder`), so only registered embedders run here;
 * an error in a worker (opening the database, reading, embedding) is thrown by `finish()` with the
 * worker's message, and the builder then deletes its temp dir (no partial world). The worker is a
 * module file (`news-vectors-worker.ts`, compiled or through tsx as the grid's job child does),
 * loaded by a small CommonJS bootstrap that also reports a failure to load it.
 */

/** From this many articles on, news vectors are built by worker threads (below, spawning costs more than it saves). */
export const PARALLEL_VECTORS_MIN_ROWS = 20_000;

/** Default worker count: the cores left after the main thread, 1 to 4. */
export function defaultVectorWorkers(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

export class NewsVectorsJob {
  private readonly shared: Int32Array;
  private readonly workers: Worker[] = [];
  private readonly ports: MessagePort[] = [];
  private readonly pending = new Map<number, { q: Int8Array; scale: Float32Array }>();
  private closed = false;

  private constructor(
    private readonly embedder: Embedder,
    private readonly rows: number,
    dbPath: string,
    workers: number,
  ) {
    this.shared = new Int32Array(new SharedArrayBuffer(VW_CELLS * 4));
    for (let i = 0; i < workers; i++) {
      const { port1, port2 } = new MessageChannel();
      const data: VecWorkerData = {
        dbPath,
        embedderId: embedder.id,
        dim: embedder.dim,
        rows,
        shared: this.shared.buffer as SharedArrayBuffer,
        port: port2,
      };
      this.ports.push(port1);
      this.workers.push(
        startModuleWorker(
          "news-vectors-worker",
          "runNewsVectorsWorker",
          data,
          `Atomics.store(s, ${VW_FAILED}, 1); Atomics.add(s, ${VW_POSTED}, 1); Atomics.notify(s, ${VW_POSTED});`,
        ),
      );
    }
  }

  /** Whether `embedder` can run in workers (a registered embedder: workers rebuild it from its id). */
  static supports(embedder: Embedder): boolean {
    return isRegisteredEmbedder(embedder.id);
  }

  /** Starts `workers` (≥ 1) threads embedding the `rows` articles of news_order in the world.db at `dbPath`. */
  static start(dbPath: string, embedder: Embedder, rows: number, workers: number): NewsVectorsJob {
    checkEmbedderDim(embedder);
    if (!NewsVectorsJob.supports(embedder)) throw new Error(`embedder ${embedder.id} cannot run in a worker thread`);
    if (!Number.isInteger(workers) || workers < 1) throw new RangeError(`vector workers must be ≥ 1, got ${workers}`);
    if (!Number.isInteger(rows) || rows < 1) throw new RangeError(`rows must be ≥ 1, got ${rows}`);
    return new NewsVectorsJob(embedder, rows, dbPath, Math.min(workers, Math.ceil(rows / NEWS_VEC_CHUNK)));
  }

  /** Waits for every chunk, writes the blocks and world_meta rows into `db`, stops the workers; returns the row count. */
  finish(db: Database.Database): number {
    try {
      const dim = this.embedder.dim;
      db.exec(NEWS_VEC_DDL);
      for (let block = 0; block * NEWS_VEC_BLOCK < this.rows; block++) {
        const lo = block * NEWS_VEC_BLOCK;
        const n = Math.min(NEWS_VEC_BLOCK, this.rows - lo);
        const q = new Int8Array(n * dim);
        const scale = new Float32Array(n);
        for (let off = 0; off < n; off += NEWS_VEC_CHUNK) {
          const chunk = this.take((lo + off) / NEWS_VEC_CHUNK);
          const m = chunk.scale.length;
          for (let j = 0; j < dim; j++) q.set(chunk.q.subarray(j * m, (j + 1) * m), j * n + off);
          scale.set(chunk.scale, off);
        }
        writeNewsVecBlock(db, dim, block, n, q, scale);
      }
      writeNewsVecMeta(db, this.embedder, this.rows);
      return this.rows;
    } finally {
      this.abort();
    }
  }

  /** Stops the workers (idempotent); used on failure and after `finish`. */
  abort(): void {
    if (this.closed) return;
    this.closed = true;
    Atomics.store(this.shared, VW_FAILED, 1);
    Atomics.notify(this.shared, VW_CONSUMED);
    for (const p of this.ports) p.close();
    for (const w of this.workers) void w.terminate();
    this.pending.clear();
  }

  /** The chunk `c` (waiting for it), counted as consumed so the workers may run further ahead. */
  private take(c: number): { q: Int8Array; scale: Float32Array } {
    for (;;) {
      const posted = Atomics.load(this.shared, VW_POSTED);
      for (const port of this.ports) {
        for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) {
          const msg = m.message as VecWorkerMessage;
          if ("error" in msg) throw new Error(`news vectors: a worker failed: ${msg.error}`);
          this.pending.set(msg.chunk, { q: msg.q, scale: msg.scale });
        }
      }
      const got = this.pending.get(c);
      if (got !== undefined) {
        this.pending.delete(c);
        Atomics.add(this.shared, VW_CONSUMED, 1);
        Atomics.notify(this.shared, VW_CONSUMED);
        return got;
      }
      Atomics.wait(this.shared, VW_POSTED, posted, 1000);
    }
  }
}
