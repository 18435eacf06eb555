import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import { TruthStore } from "./truth-store.js";
import { TRUTH_DB, WORLD_DB, WORLD_JSON } from "./world-builder.js";
import { WorldStore } from "./world-store.js";

/** A world's two stores, held by one run until `release()` (idempotent). */
export interface WorldLease {
  readonly world: WorldStore;
  readonly truth: TruthStore;
  release(): void;
}

/**
 * What identifies the opened files of a world directory: device, inode, size, mtime and ctime (ns)
 * of world.db and truth.db, and device, inode and size of world.json (its times are the cache's
 * LRU clock: every run that uses a cached world renews them, `markLastUse`). A world rebuilt in
 * place rewrites its databases (new times, or new inodes), and a directory swapped for a rebuilt
 * one has new inodes. Throws (ENOENT) when a file is missing.
 */
export function worldFileSignature(dir: string): string {
  const id = (f: string, times: boolean) => {
    const s = statSync(join(dir, f), { bigint: true });
    return times ? `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}` : `${s.dev}:${s.ino}:${s.size}`;
  };
  return `${id(WORLD_JSON, false)}|${id(WORLD_DB, true)}|${id(TRUTH_DB, true)}`;
}

interface Entry {
  readonly dir: string;
  readonly signature: string;
  readonly world: WorldStore;
  readonly truth: TruthStore;
  leases: number;
  /** replaced by a newer build of the world (or its files are gone): closed once its last lease is released */
  stale: boolean;
}

/**
 * Opened worlds kept across runs in one process (a grid job process runs many runs over the same
 * few worlds: opening world.db and truth.db, and the caches that hang off them — the candle chunk
 * cache, the Reddit post lead, the news index — would otherwise be paid again by every run).
 * Worlds are immutable once built; a world is served again only while the stats of its files are
 * unchanged (`worldFileSignature`), so a rebuilt world is never served stale: its old stores are
 * closed once the runs holding them release them. At most `maxIdle` worlds no run holds stay open
 * (the least recently released are closed first).
 */
export class WorldStoreCache {
  private readonly entries = new Map<string, Entry>();
  /** entries no longer in `entries` (stale) that runs still hold */
  private readonly retired = new Set<Entry>();
  private closed = false;

  constructor(readonly maxIdle = 4) {
    if (!Number.isInteger(maxIdle) || maxIdle < 0) throw new Error(`maxIdle must be an integer ≥ 0, got ${maxIdle}`);
  }

  /** Leases the stores of the world in `dir` (opened now, or kept from an earlier run when its files are unchanged). */
  lease(given: string): WorldLease {
    if (this.closed) throw new Error("the world store cache is closed");
    const dir = resolve(given);
    let signature: string | null;
    try {
      signature = worldFileSignature(dir);
    } catch {
      signature = null; // a file is missing: the open below says which, as an uncached open would
    }
    let entry = this.entries.get(dir);
    if (entry && entry.signature !== signature) {
      this.retire(entry);
      entry = undefined;
    }
    if (!entry) {
      const { world, truth } = openStores(dir);
      // the files changed between the stat and the open: serve this run, keep nothing
      const after = signature === null ? null : safeSignature(dir);
      entry = { dir, signature: after ?? "", world, truth, leases: 0, stale: after === null || after !== signature };
      if (entry.stale) this.retired.add(entry);
      else this.entries.set(dir, entry);
    } else {
      // most recently used last
      this.entries.delete(dir);
      this.entries.set(dir, entry);
    }
    entry.leases++;
    const held = entry;
    let released = false;
    return {
      world: held.world,
      truth: held.truth,
      release: () => {
        if (released) return;
        released = true;
        held.leases--;
        if (held.stale) {
          if (held.leases === 0) {
            this.retired.delete(held);
            closeEntry(held);
          }
        } else this.trimIdle();
      },
    };
  }

  /** open worlds (held or idle, stale ones still held included) */
  get openCount(): number {
    return this.entries.size + this.retired.size;
  }

  /** Closes every world no run holds, and the rest as their runs release them; later leases throw. */
  close(): void {
    this.closed = true;
    for (const e of [...this.entries.values()]) this.retire(e);
  }

  private retire(e: Entry): void {
    this.entries.delete(e.dir);
    e.stale = true;
    if (e.leases === 0) closeEntry(e);
    else this.retired.add(e);
  }

  private trimIdle(): void {
    let idle = [...this.entries.values()].filter((e) => e.leases === 0);
    while (idle.length > this.maxIdle) {
      this.retire(idle[0]!);
      idle = idle.slice(1);
    }
  }
}

const safeSignature = (dir: string): string | null => {
  try {
    return worldFileSignature(dir);
  } catch {
    return null;
  }
};

function closeEntry(e: Entry): void {
  try {
    e.world.close();
  } finally {
    e.truth.close();
  }
}

let processCache: WorldStoreCache | null = null;

/**
 * Keeps opened worlds across the runs of this process (grid job processes call it once at start);
 * without it every lease opens the stores and its release closes them.
 */
export function keepWorldsOpen(maxIdle?: number): WorldStoreCache {
  processCache ??= new WorldStoreCache(maxIdle);
  return processCache;
}

/** A world's two stores, opened together (the world store closed again when the truth store fails to open). */
function openStores(dir: string): { world: WorldStore; truth: TruthStore } {
  const world = WorldStore.open(dir);
  try {
    return { world, truth: TruthStore.open(dir) };
  } catch (err) {
    world.close();
    throw err;
  }
}

/** The stores of a run's world: from the process's cache when `keepWorldsOpen` was called, else opened for this lease alone. */
export function leaseWorld(dir: string): WorldLease {
  if (processCache !== null) return processCache.lease(dir);
  const { world, truth } = openStores(dir);
  let released = false;
  return {
    world,
    truth,
    release: () => {
      if (released) return;
      released = true;
      try {
        world.close();
      } finally {
        truth.close();
      }
    },
  };
}
