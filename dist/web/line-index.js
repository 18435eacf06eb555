import { FileScanCache } from "./file-scan-cache.js";
import { peekLine } from "./line-peek.js";
import { scanForward } from "./line-scan.js";
const INDEX_STRIDE = 1e3;
class IndexBuilder {
  constructor(stride, timed) {
    this.stride = stride;
    this.timed = timed;
  }
  stride;
  timed;
  offsets = [];
  times = [];
  lastTime = Number.NEGATIVE_INFINITY;
  line(buf, start, end, offset, lineNo) {
    if (lineNo % this.stride !== 0) return;
    this.offsets.push(offset);
    if (this.timed) {
      const t = peekLine(buf, start, end)?.t ?? this.lastTime;
      this.times.push(t);
      this.lastTime = t;
    }
  }
}
class LineIndexCache {
  cache;
  constructor(opts = {}) {
    const stride = opts.stride ?? INDEX_STRIDE;
    if (!Number.isInteger(stride) || stride < 1)
      throw new RangeError(`index stride must be a positive integer: ${stride}`);
    this.cache = new FileScanCache(() => new IndexBuilder(stride, opts.timed ?? false), opts.maxFiles ?? 32);
  }
  /** The up-to-date index of `path`, and `use` run with it and an open handle (under the file's lock). */
  with(path, use) {
    return this.cache.with(
      path,
      (b, extent, fh) => use({ stride: b.stride, lines: extent.lines, bytes: extent.bytes, offsets: b.offsets, times: b.times }, fh)
    );
  }
  /** True when `path` is indexed or being indexed (later uses only read what was appended). */
  has(path) {
    return this.cache.has(path);
  }
  /** Starts indexing `path` in the background (errors are left to the next `with`). */
  warm(path) {
    this.cache.with(path, () => void 0).catch(() => void 0);
  }
  clear() {
    this.cache.clear();
  }
}
async function offsetOfLine(index, fh, line) {
  if (!Number.isInteger(line) || line < 0 || line > index.lines)
    throw new RangeError(`line ${line} is outside 0..${index.lines}`);
  if (line === index.lines) return index.bytes;
  const k = Math.floor(line / index.stride);
  const from = index.offsets[k];
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
async function lineAtTime(index, fh, at) {
  const n = Math.min(index.times.length, Math.ceil(index.lines / index.stride));
  if (n === 0) return 0;
  let lo = -1;
  let hi = n;
  while (hi - lo > 1) {
    const mid = lo + hi >> 1;
    if (index.times[mid] < at) lo = mid;
    else hi = mid;
  }
  if (lo === -1) return 0;
  let line = lo * index.stride;
  let found = index.lines;
  await scanForward(fh, index.offsets[lo], index.bytes, (buf, s, e) => {
    const t = peekLine(buf, s, e)?.t;
    if (t !== void 0 && t >= at) {
      found = line;
      return false;
    }
    line++;
    return true;
  });
  return found;
}
export {
  INDEX_STRIDE,
  LineIndexCache,
  lineAtTime,
  offsetOfLine
};
//# sourceMappingURL=line-index.js.map
