import type { FileHandle } from "node:fs/promises";

/** Bytes read per `read(2)` while scanning. */
export const SCAN_CHUNK_BYTES = 1 << 20;

/**
 * One complete line of a JSONL file: bytes `[start, end)` of `buf` (without the newline), which
 * sit at file offset `offset`. `buf` is reused by the next chunk: copy what must outlive the call.
 * Return `false` to stop the scan.
 */
export type LineVisitor = (buf: Buffer, start: number, end: number, offset: number) => boolean | undefined;

/**
 * Visits the complete lines of the byte range `[from, to)` in file order, reading fixed-size
 * chunks (never the whole file; a chunk grows only to hold one longer line). `from` must be a line start and `to` a line end + 1 (the offset
 * just past a newline), so a torn tail beyond `to` is never seen. Returns the offset just past the
 * last visited line.
 */
export async function scanForward(
  fh: FileHandle,
  from: number,
  to: number,
  visit: LineVisitor,
  chunkBytes = SCAN_CHUNK_BYTES,
): Promise<number> {
  let buf = Buffer.allocUnsafe(Math.min(chunkBytes, Math.max(1, to - from)));
  let carry = 0; // bytes of a partial line kept at the start of buf
  let pos = from; // file offset of buf[carry]
  let lineStart = from; // file offset of buf[0]
  while (pos < to) {
    if (carry === buf.length) {
      const bigger = Buffer.allocUnsafe(buf.length * 2);
      buf.copy(bigger, 0, 0, carry);
      buf = bigger;
    }
    const want = Math.min(buf.length - carry, to - pos);
    const { bytesRead } = await fh.read(buf, carry, want, pos);
    if (bytesRead === 0) break; // the file shrank under us: stop at what was read
    const end = carry + bytesRead;
    pos += bytesRead;
    let s = 0;
    for (let nl = buf.indexOf(10, 0); nl !== -1 && nl < end; nl = buf.indexOf(10, s)) {
      if (visit(buf, s, nl, lineStart + s) === false) return lineStart + nl + 1;
      s = nl + 1;
    }
    carry = end - s;
    if (carry > 0) buf.copy(buf, 0, s, end);
    lineStart += s;
  }
  return lineStart;
}

/**
 * Visits the complete lines of `[floor, to)` newest first (`floor` a line start, `to` a line end + 1),
 * reading fixed-size chunks backwards. Returns the start offset of the last visited line.
 */
export async function scanBackward(
  fh: FileHandle,
  to: number,
  floor: number,
  visit: LineVisitor,
  chunkBytes = SCAN_CHUNK_BYTES,
): Promise<number> {
  let buf = Buffer.allocUnsafe(Math.min(chunkBytes, Math.max(1, to - floor)));
  let kept = 0; // bytes at the end of buf: a line whose start is not read yet, with its newline
  let pos = to; // file offset of the first byte held in buf
  while (pos > floor) {
    if (kept === buf.length) {
      const bigger = Buffer.allocUnsafe(buf.length * 2);
      buf.copy(bigger, bigger.length - kept, 0, kept);
      buf = bigger;
    }
    const want = Math.min(buf.length - kept, pos - floor);
    const at = buf.length - kept - want;
    const { bytesRead } = await fh.read(buf, at, want, pos - want);
    if (bytesRead !== want) throw new Error(`short read at byte ${pos - want}: the file shrank while being read`);
    pos -= want;
    // buf[at, buf.length) holds file bytes from `pos`; its last byte ends the newest unvisited line
    let e = buf.length - 1;
    while (e - 1 >= at) {
      const nl = buf.lastIndexOf(10, e - 1);
      if (nl < at) break;
      if (visit(buf, nl + 1, e, pos + (nl + 1 - at)) === false) return pos + (nl + 1 - at);
      e = nl;
    }
    if (pos === floor) {
      visit(buf, at, e, floor);
      return floor;
    }
    kept = e + 1 - at;
    buf.copy(buf, buf.length - kept, at, e + 1);
  }
  return to;
}

/** The offset just past the last newline of the file's first `size` bytes (0 when there is none): the end of its complete lines. */
export async function completeEnd(fh: FileHandle, size: number, chunkBytes = 64 * 1024): Promise<number> {
  const buf = Buffer.allocUnsafe(Math.min(chunkBytes, Math.max(1, size)));
  let pos = size;
  while (pos > 0) {
    const want = Math.min(buf.length, pos);
    const { bytesRead } = await fh.read(buf, 0, want, pos - want);
    if (bytesRead !== want) throw new Error(`short read at byte ${pos - want}: the file shrank while being read`);
    const nl = buf.lastIndexOf(10, want - 1);
    if (nl !== -1) return pos - want + nl + 1;
    pos -= want;
  }
  return 0;
}
