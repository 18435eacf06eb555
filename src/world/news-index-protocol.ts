import type { MessagePort } from "node:worker_threads";

/** Shared Int32Array cells: batches the worker has added, failed flag, side database written. */
export const IW_DONE = 0;
export const IW_FAILED = 1;
export const IW_WRITTEN = 2;
export const IW_CELLS = 3;

/** world_meta of the side database (the worker's `NewsIndexBuilder.write` puts its meta rows there). */
export const SIDE_META_DDL = "CREATE TABLE world_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)";

export interface IndexWorkerData {
  shared: SharedArrayBuffer;
  port: MessagePort;
  /** also build the hashing embedder's news vectors (NewsIndexBuilder's `vectors`) */
  vectors: boolean;
}

/** Main → worker: a batch of prepared texts (newline-joined; prepared texts hold no newline), or write the index. */
export type IndexWorkerRequest = { seq: number[]; title: string; body: string } | { write: string; docs: number };

/** Worker → main: the term count after `write`, or an error. */
export type IndexWorkerMessage = { terms: number } | { error: string };
