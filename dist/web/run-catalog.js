import { createHash } from "node:crypto";
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
const SKIP = /* @__PURE__ */ new Set(["workspace", "node_modules", ".git"]);
const MAX_DEPTH = 5;
const isRunDir = (dir) => existsSync(join(dir, "ledger.jsonl")) || existsSync(join(dir, "config.json"));
function findRunDirs(root) {
  const out = [];
  const walk = (dir, depth) => {
    if (isRunDir(dir)) {
      out.push(dir);
      return;
    }
    if (depth >= MAX_DEPTH) return;
    let names;
    try {
      names = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory() && !d.name.startsWith(".") && !SKIP.has(d.name)).map((d) => d.name).sort();
    } catch {
      return;
    }
    for (const n of names) walk(join(dir, n), depth + 1);
  };
  walk(root, 0);
  return out;
}
const MISS_RESCAN_MS = 250;
const RUN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,199}$/;
class RunCatalog {
  constructor(roots, ttlMs = 2e3, clock = () => performance.now()) {
    this.ttlMs = ttlMs;
    this.clock = clock;
    if (roots.length === 0) throw new Error("no runs directory given");
    this.roots = roots.map((r) => resolve(r));
    for (const r of this.roots) {
      let ok = false;
      try {
        ok = statSync(r).isDirectory();
      } catch {
        ok = false;
      }
      if (!ok) throw new Error(`not a directory: ${r} (give a runs directory or a run directory)`);
    }
  }
  ttlMs;
  clock;
  roots;
  byId = /* @__PURE__ */ new Map();
  list = [];
  scannedAt = Number.NEGATIVE_INFINITY;
  rescan() {
    const found = [];
    const seen = /* @__PURE__ */ new Set();
    for (const root of this.roots)
      for (const dir of findRunDirs(root))
        if (!seen.has(dir)) {
          seen.add(dir);
          found.push({ dir, root });
        }
    const byName = /* @__PURE__ */ new Map();
    for (const f of found) byName.set(basename(f.dir), (byName.get(basename(f.dir)) ?? 0) + 1);
    const list = found.map(({ dir, root }) => {
      const name = basename(dir);
      const hash = createHash("sha1").update(dir).digest("hex");
      let id = name;
      if (!RUN_ID_PATTERN.test(name) || name.length > 180) id = `run-${hash.slice(0, 10)}`;
      else if ((byName.get(name) ?? 0) > 1) id = `${name}~${hash.slice(0, 8)}`;
      return { id, dir, root, rel: relative(root, dir) || "." };
    });
    this.list = list;
    this.byId = new Map(list.map((e) => [e.id, e]));
    this.scannedAt = this.clock();
  }
  /** Every run found, in scan order (roots in argument order, directories by name). */
  runs() {
    if (this.clock() - this.scannedAt > this.ttlMs) this.rescan();
    return this.list;
  }
  /** The run with this URL id, or undefined (ids are only ever looked up, never joined into paths). */
  get(id) {
    if (!RUN_ID_PATTERN.test(id)) return void 0;
    this.runs();
    let e = this.byId.get(id);
    if (e === void 0 && this.clock() - this.scannedAt > MISS_RESCAN_MS) {
      this.rescan();
      e = this.byId.get(id);
    }
    return e;
  }
}
export {
  RUN_ID_PATTERN,
  RunCatalog,
  isRunDir
};
//# sourceMappingURL=run-catalog.js.map
