const SCAN_CHUNK_BYTES = 1 << 20;
async function scanForward(fh, from, to, visit, chunkBytes = SCAN_CHUNK_BYTES) {
  let buf = Buffer.allocUnsafe(Math.min(chunkBytes, Math.max(1, to - from)));
  let carry = 0;
  let pos = from;
  let lineStart = from;
  while (pos < to) {
    if (carry === buf.length) {
      const bigger = Buffer.allocUnsafe(buf.length * 2);
      buf.copy(bigger, 0, 0, carry);
      buf = bigger;
    }
    const want = Math.min(buf.length - carry, to - pos);
    const { bytesRead } = await fh.read(buf, carry, want, pos);
    if (bytesRead === 0) break;
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
async function scanBackward(fh, to, floor, visit, chunkBytes = SCAN_CHUNK_BYTES) {
  let buf = Buffer.allocUnsafe(Math.min(chunkBytes, Math.max(1, to - floor)));
  let kept = 0;
  let pos = to;
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
async function completeEnd(fh, size, chunkBytes = 64 * 1024) {
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
export {
  SCAN_CHUNK_BYTES,
  completeEnd,
  scanBackward,
  scanForward
};
//# sourceMappingURL=line-scan.js.map
