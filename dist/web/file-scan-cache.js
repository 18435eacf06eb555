import { open } from "node:fs/promises";
import { scanForward } from "./line-scan.js";
class FileScanCache {
  constructor(create, maxFiles = 16) {
    this.create = create;
    this.maxFiles = maxFiles;
  }
  create;
  maxFiles;
  entries = /* @__PURE__ */ new Map();
  locks = /* @__PURE__ */ new Map();
  /** Brings `path`'s consumer up to date, then runs `use` on it (under the file's lock). */
  async with(path, use) {
    const prev = this.locks.get(path) ?? Promise.resolve();
    const run = prev.then(
      () => this.update(path, use),
      () => this.update(path, use)
    );
    const tail = run.catch(() => void 0);
    this.locks.set(path, tail);
    try {
      return await run;
    } finally {
      if (this.locks.get(path) === tail) this.locks.delete(path);
    }
  }
  async update(path, use) {
    const fh = await open(path, "r");
    try {
      const st = await fh.stat();
      let e = this.entries.get(path);
      if (e !== void 0 && !await this.extendable(fh, e, st)) e = void 0;
      if (e === void 0) {
        e = {
          dev: st.dev,
          ino: st.ino,
          size: 0,
          mtimeMs: 0,
          extent: { lines: 0, bytes: 0 },
          consumer: this.create(path)
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
      while (this.entries.size > this.maxFiles) this.entries.delete(this.entries.keys().next().value);
      return await use(e.consumer, e.extent, fh);
    } finally {
      await fh.close();
    }
  }
  async extendable(fh, e, st) {
    if (st.dev !== e.dev || st.ino !== e.ino || st.size < e.extent.bytes) return false;
    if (e.extent.bytes === 0) return true;
    const one = Buffer.alloc(1);
    const { bytesRead } = await fh.read(one, 0, 1, e.extent.bytes - 1);
    return bytesRead === 1 && one[0] === 10;
  }
  /** True when `path` has a consumer (possibly behind the file: `with` brings it up to date). */
  has(path) {
    return this.entries.has(path) || this.locks.has(path);
  }
  /** Forgets every cached file. */
  clear() {
    this.entries.clear();
  }
}
export {
  FileScanCache
};
//# sourceMappingURL=file-scan-cache.js.map
