import type { MessagePort } from "node:worker_threads";

/**
 * Shared Int32Array cells: batches the worker has added, failed flag, index written into the
 * world database, the main thread's go-ahead to write it (its connection holds no lock then).
 */
export const IW_DONE = 0;
export const IW_FAILED = 1;
export const IW_WRITTEN = 2;
export const IW_GO = 3;
export const IW_CELLS = 4;

export interface IndexWorkerData {
  shared: SharedArrayBuffer;
  port: MessagePort;
  /** also build the hashing embedder's news vectors (NewsIndexBuilder's `vectors`) */
  vectors: boolean;
}

/**
 * Main → worker: a batch of prepared texts (newline-joined; prepared texts hold no newline); or
 * `prepare`: sort the index into its stored form now (`NewsIndexBuilder.prepareWrite`), then wait
 * for `IW_GO` and the `store` message (the world.db path) and write it there.
 */
export type IndexWorkerRequest =
  | { seq: number[]; title: string; body: string }
  | { prepare: number }
  | { store: string };

/** Worker → main: the term count after the index is written, or an error. */
export type IndexWorkerMessage = { terms: number } | { error: string };
