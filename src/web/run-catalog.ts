import { createHash } from "node:crypto";
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";

/** A run directory the dashboard may show, under the id used in its URLs. */
export interface RunEntry {
  /** URL id: the directory name (`<run-id>-s<seed>`), suffixed `~<hash>` when two directories share it */
  id: string;
  /** absolute run directory */
  dir: string;
  /** the RUNS argument it was found under */
  root: string;
  /** `dir` relative to `root` ("." when the argument is the run directory itself) */
  rel: string;
}

/** Directory names never descended into while looking for runs. */
const SKIP = new Set(["workspace", "node_modules", ".git"]);
/** runs/<task>/<model-slug>/<run-id>-s<seed>/ sits three levels below a runs directory; allow some nesting above it. */
const MAX_DEPTH = 5;

/** A run directory holds a ledger or a config.json. */
export const isRunDir = (dir: string) => existsSync(join(dir, "ledger.jsonl")) || existsSync(join(dir, "config.json"));

function findRunDirs(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (isRunDir(dir)) {
      out.push(dir);
      return;
    }
    if (depth >= MAX_DEPTH) return;
    let names: string[];
    try {
      names = readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isDirectory() && !d.name.startsWith(".") && !SKIP.has(d.name))
        .map((d) => d.name)
        .sort();
    } catch {
      return;
    }
    for (const n of names) walk(join(dir, n), depth + 1);
  };
  walk(root, 0);
  return out;
}

/** An unknown id triggers a rescan at most this often. */
const MISS_RESCAN_MS = 250;

/** Characters a run id may hold in a URL (anything else is rejected before any lookup). */
export const RUN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,199}$/;

/**
 * The run directories under the RUNS arguments (each a runs directory or a run directory),
 * mapped to URL ids. Only directories found by the scan can be reached through an id, so a URL
 * cannot name any other path. The scan is repeated when it is older than `ttlMs`, and once on a
 * lookup of an unknown id (runs appear while the dashboard is open).
 */
export class RunCatalog {
  readonly roots: string[];
  private byId = new Map<string, RunEntry>();
  private list: RunEntry[] = [];
  private scannedAt = Number.NEGATIVE_INFINITY;

  constructor(
    roots: readonly string[],
    private readonly ttlMs = 2000,
    private readonly clock: () => number = () => performance.now(),
  ) {
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

  private rescan(): void {
    const found: { dir: string; root: string }[] = [];
    const seen = new Set<string>();
    for (const root of this.roots)
      for (const dir of findRunDirs(root))
        if (!seen.has(dir)) {
          seen.add(dir);
          found.push({ dir, root });
        }
    const byName = new Map<string, number>();
    for (const f of found) byName.set(basename(f.dir), (byName.get(basename(f.dir)) ?? 0) + 1);
    const list: RunEntry[] = found.map(({ dir, root }) => {
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
  runs(): RunEntry[] {
    if (this.clock() - this.scannedAt > this.ttlMs) this.rescan();
    return this.list;
  }

  /** The run with this URL id, or undefined (ids are only ever looked up, never joined into paths). */
  get(id: string): RunEntry | undefined {
    if (!RUN_ID_PATTERN.test(id)) return undefined;
    this.runs();
    let e = this.byId.get(id);
    if (e === undefined && this.clock() - this.scannedAt > MISS_RESCAN_MS) {
      this.rescan();
      e = this.byId.get(id);
    }
    return e;
  }
}
