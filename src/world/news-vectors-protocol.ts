import type { MessagePort } from "node:worker_threads";

/** Rows per worker task: a divisor of NEWS_VEC_BLOCK and a multiple of the 1,024-text embed batch. */
export const NEWS_VEC_CHUNK = 8192;
/** Shared Int32Array cells: next chunk to take, chunks the main thread consumed, results posted, failed flag. */
export const VW_NEXT = 0;
export const VW_CONSUMED = 1;
export const VW_POSTED = 2;
export const VW_FAILED = 3;
export const VW_CELLS = 4;
/** A worker takes a chunk only while it is fewer than this many chunks ahead of the consumed ones (memory bound). */
export const VW_MAX_AHEAD = 24;

export interface VecWorkerData {
  /** the world.db under construction (WAL: read while the main thread writes) */
  dbPath: string;
  embedderId: string;
  dim: number;
  rows: number;
  shared: SharedArrayBuffer;
  port: MessagePort;
}

/** What a worker posts: one chunk's quantized vectors (column-major) and scales, or an error. */
export type VecWorkerMessage = { chunk: number; q: Int8Array; scale: Float32Array } | { error: string };
