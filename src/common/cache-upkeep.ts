import { lstatSync, readdirSync, utimesSync } from "node:fs";
import { join } from "node:path";

/** Bytes under a path (files and directories, symlinks not followed); 0 when it does not exist. */
export function pathBytes(path: string): number {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.size;
  let n = 0;
  for (const e of readdirSync(path)) n += pathBytes(join(path, e));
  return n;
}

/**
 * Whether a process with this id runs on this host (EPERM: it runs as another user). A build's
 * temp dir names its pid: the dir of a process that is gone was left by a killed build.
 */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Records a cache hit: the file's mtime is the entry's last use (the LRU order of `relive data gc`); wall-clock bookkeeping only. */
export function markLastUse(file: string): void {
  const now = new Date();
  try {
    utimesSync(file, now, now);
  } catch {
    // a read-only cache still serves the entry; only the LRU order is lost
  }
}
