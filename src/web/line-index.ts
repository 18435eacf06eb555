import type { FileHandle } from "node:fs/promises";
import { FileScanCache, type LineConsumer } from "./file-scan-cache.js";
import { peekLine } from "./line-peek.js";
import { scanForward } from "./line-scan.js";

/** Lines between two entries of the sparse index. */
export const INDEX_STRIDE = 1000;

/**
 * A sparse line-offset index of a JSONL file: the byte offset of every `stride`-th line, and for
 * ledgers the simulated time `t` of that line (carried forward over a line without one), so a
 * page or a time is found by one bisect plus a bounded forward read.
 */
export interface LineIndex {
  readonly stride: number;
  /** complete lines */
  readonly lines: number;
  /** offset just past the last complete line */
  readonly bytes: number;
  /** offsets[k] = start of line k × stride (only k < ceil(lines / stride) are meaningful) */
  readonly offsets: readonly number[];
  /** times[k] = t of line k × stride (ledgers; empty for other files) */
  readonly times: readonly number[];
}

class IndexBuilder implements LineConsumer {
  readonly offsets: number[] = [];
  readonly times: number[] = [];
  private lastTime = Number.NEGATIVE_INFINITY;

  constructor(
    readonly stride: number,
    private readonly timed: boolean,
  ) {}

  line(buf: Buffer, start: number, end: number, offset: number, lineNo: number): void {
    if (lineNo % this.stride !== 0) return;
    this.offsets.push(offset);
    if (this.timed) {
      const t = peekLine(buf, start, end)?.t ?? this.lastTime;
      this.times.push(t);
      this.lastTime = t;
    }
  }
}

/** In-memory sparse indexes, built by one streaming scan per file and extended as the file grows. */
export class LineIndexCache {
  private readonly cache: FileScanCache<IndexBuilder>;

  constructor(
    opts: {
      stride?: number;
      /** record each indexed line's `t` (ledgers) */
      timed?: boolean;
      maxFiles?: number;
    } = {},
  ) {
    const stride = opts.stride ?? INDEX_STRIDE;
    if (!Number.isInteger(stride) || stride < 1)
      throw new RangeError(`index stride must be a positive integer: ${stride}`);
    this.cache = new FileScanCache(() => new IndexBuilder(stride, opts.timed ?? false), opts.maxFiles ?? 32);
  }

  /** The up-to-date index of `path`, and `use` run with it and an open handle (under the file's lock). */
  with<R>(path: string, use: (index: LineIndex, fh: FileHandle) => R | Promise<R>): Promise<R> {
    return this.cache.with(path, (b, extent, fh) =>
      use({ stride: b.stride, lines: extent.lines, bytes: extent.bytes, offsets: b.offsets, times: b.times }, fh),
    );
  }

  /** True when `path` is indexed or being indexed (later uses only read what was appended). */
  has(path: string): boolean {
    return this.cache.has(path);
  }

  /** Starts indexing `path` in the background (errors are left to the next `with`). */
  warm(path: string): void {
    this.cache.with(path, () => undefined).catch(() => undefined);
  }

  clear(): void {
    this.cache.clear();
  }
}

/** Byte offset where line `line` (0 ≤ line ≤ lines) starts: an index entry plus a forward skip of < stride lines. */
export async function offsetOfLine(index: LineIndex, fh: FileHandle, line: number): Promise<number> {
  if (!Number.isInteger(line) || line < 0 || line > index.lines)
    throw new RangeError(`line ${line} is outside 0..${index.lines}`);
  if (line === index.lines) return index.bytes;
  const k = Math.floor(line / index.stride);
  const from = index.offsets[k]!;
  let skip = line - k * index.stride;
  if (skip === 0) return from;
  let at = from;
  await scanForward(fh, from, index.bytes, (_b, _s, _e, off) => {
    if (skip === 0) {
      at = off;
      return false;
    }
    skip--;
    return true;
  });
  return at;
}

/**
 * The first line whose `t` is ≥ `at` (`lines` when none): a bisect over the indexed times, then a
 * forward read of at most one stride. Exact when `t` never decreases along the file (the ledger
 * is written in simulated order).
 */
export async function lineAtTime(index: LineIndex, fh: FileHandle, at: number): Promise<number> {
  const n = Math.min(index.times.length, Math.ceil(index.lines / index.stride));
  if (n === 0) return 0;
  // largest k with times[k] < at (−1 when the very first line is already ≥ at)
  let lo = -1;
  let hi = n;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (index.times[mid]! < at) lo = mid;
    else hi = mid;
  }
  if (lo === -1) return 0;
  let line = lo * index.stride;
  let found = index.lines;
  await scanForward(fh, index.offsets[lo]!, index.bytes, (buf, s, e) => {
    const t = peekLine(buf, s, e)?.t;
    if (t !== undefined && t >= at) {
      found = line;
      return false;
    }
    line++;
    return true;
  });
  return found;
}
