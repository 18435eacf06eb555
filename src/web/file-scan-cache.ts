import { type FileHandle, open } from "node:fs/promises";
import { scanForward } from "./line-scan.js";

/** Folds the complete lines of a JSONL file, in order, into some summary (an index, a timeline). */
export interface LineConsumer {
  line(buf: Buffer, start: number, end: number, offset: number, lineNo: number): void;
}

/** How far a consumer has read its file. */
export interface ScanExtent {
  /** complete lines consumed */
  lines: number;
  /** offset just past the last complete line consumed (a torn tail beyond it is never read) */
  bytes: number;
}

interface Entry<C> {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  extent: ScanExtent;
  consumer: C;
}

/**
 * Per-file consumers kept in memory and brought up to date by a streaming scan: the first use
 * scans the whole file once, later uses scan only what was appended (ledgers are append-only).
 * A file that was replaced (other inode), shrank below what was read, or whose last read line no
 * longer ends where it did is scanned again from the start. Uses of one file are serialized, so
 * a consumer is never read while it is being extended. Least recently used files are dropped
 * beyond `maxFiles`.
 */
export class FileScanCache<C extends LineConsumer> {
  private readonly entries = new Map<string, Entry<C>>();
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(
    private readonly create: (path: string) => C,
    private readonly maxFiles = 16,
  ) {}

  /** Brings `path`'s consumer up to date, then runs `use` on it (under the file's lock). */
  async with<R>(path: string, use: (c: C, extent: ScanExtent, fh: FileHandle) => R | Promise<R>): Promise<R> {
    const prev = this.locks.get(path) ?? Promise.resolve();
    const run = prev.then(
      () => this.update(path, use),
      () => this.update(path, use),
    );
    const tail = run.catch(() => undefined);
    this.locks.set(path, tail);
    try {
      return await run;
    } finally {
      if (this.locks.get(path) === tail) this.locks.delete(path);
    }
  }

  private async update<R>(path: string, use: (c: C, extent: ScanExtent, fh: FileHandle) => R | Promise<R>): Promise<R> {
    const fh = await open(path, "r");
    try {
      const st = await fh.stat();
      let e = this.entries.get(path);
      if (e !== undefined && !(await this.extendable(fh, e, st))) e = undefined;
      if (e === undefined) {
        e = {
          dev: st.dev,
          ino: st.ino,
          size: 0,
          mtimeMs: 0,
          extent: { lines: 0, bytes: 0 },
          consumer: this.create(path),
        };
      }
      if (e.size !== st.size || e.mtimeMs !== st.mtimeMs) {
        const entry = e;
        let n = entry.extent.lines;
        const bytes = await scanForward(fh, entry.extent.bytes, st.size, (buf, s, end, off) => {
          entry.consumer.line(buf, s, end, off, n++);
          return true;
        });
        entry.extent = { lines: n, bytes };
        entry.size = st.size;
        entry.mtimeMs = st.mtimeMs;
      }
      this.entries.delete(path);
      this.entries.set(path, e);
      while (this.entries.size > this.maxFiles) this.entries.delete(this.entries.keys().next().value as string);
      return await use(e.consumer, e.extent, fh);
    } finally {
      await fh.close();
    }
  }

  private async extendable(
    fh: FileHandle,
    e: Entry<C>,
    st: { dev: number; ino: number; size: number },
  ): Promise<boolean> {
    if (st.dev !== e.dev || st.ino !== e.ino || st.size < e.extent.bytes) return false;
    if (e.extent.bytes === 0) return true;
    const one = Buffer.alloc(1);
    const { bytesRead } = await fh.read(one, 0, 1, e.extent.bytes - 1);
    return bytesRead === 1 && one[0] === 10;
  }

  /** True when `path` has a consumer (possibly behind the file: `with` brings it up to date). */
  has(path: string): boolean {
    return this.entries.has(path) || this.locks.has(path);
  }

  /** Forgets every cached file. */
  clear(): void {
    this.entries.clear();
  }
}
