import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeSync,
} from "node:fs";
import { hostname } from "node:os";
import { dirname } from "node:path";
import { z } from "zod";

/** Who holds a run directory (the lock file `<runDir>.lock`, beside the run directory). */
const LockSchema = z.object({ pid: z.number().int(), host: z.string(), since: z.string() });
export type LockHolder = z.infer<typeof LockSchema>;

/** A lock older than this without a heartbeat is stale (its holder died on another machine). */
export const LOCK_STALE_MS = 30_000;
const HEARTBEAT_MS = 5_000;

export class RunBusyError extends Error {
  constructor(
    readonly runDir: string,
    readonly holder: LockHolder,
  ) {
    super(`run ${runDir} is being run by process ${holder.pid} on ${holder.host} (since ${holder.since})`);
    this.name = "RunBusyError";
  }
}

export const lockPath = (runDir: string) => `${runDir}.lock`;

const HAVE_PROC = existsSync("/proc/self/stat");

/**
 * Whether a process of this host is alive. A zombie (exited, not yet reaped: a killed worker's
 * job process whose new parent never reaps it) counts as dead.
 */
export function processAlive(pid: number): boolean {
  if (HAVE_PROC) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      return state !== "Z" && state !== "X";
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The live holder of a run directory's lock, or null when it is free or its holder is gone. */
export function lockHolder(runDir: string, now = Date.now()): LockHolder | null {
  const path = lockPath(runDir);
  let holder: LockHolder;
  let mtime: number;
  try {
    holder = LockSchema.parse(JSON.parse(readFileSync(path, "utf8")));
    mtime = statSync(path).mtimeMs;
  } catch {
    return null; // absent, or torn by a writer killed mid-write: nobody holds it
  }
  if (holder.host === hostname()) return processAlive(holder.pid) ? holder : null;
  return now - mtime < LOCK_STALE_MS ? holder : null;
}

/**
 * Takes the run directory's lock for this process, so two workers never run (or resume) the
 * same run at once, even when a queue hands a job to a second worker while the first one's child
 * is still winding down. A lock whose holder is dead (same host) or silent for `LOCK_STALE_MS`
 * (another host; the holder refreshes it every 5 s) is taken over. Throws `RunBusyError` otherwise.
 * Returns the release function.
 */
export function acquireRunLock(runDir: string): () => void {
  const path = lockPath(runDir);
  const me: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  mkdirSync(dirname(path), { recursive: true });
  for (let tries = 0; ; tries++) {
    try {
      const fd = openSync(path, "wx");
      try {
        writeSync(fd, JSON.stringify(me));
      } finally {
        closeSync(fd);
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || tries > 0) throw busyOr(err as Error, runDir);
      const holder = lockHolder(runDir);
      if (holder) throw new RunBusyError(runDir, holder);
      rmSync(path, { force: true }); // stale: take it over (a racing taker loses on the "wx" open)
    }
  }
  const beat = setInterval(() => {
    try {
      const t = new Date();
      utimesSync(path, t, t);
    } catch {
      // the lock file vanished: nothing to refresh
    }
  }, HEARTBEAT_MS);
  beat.unref();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    clearInterval(beat);
    process.off("exit", release);
    rmSync(path, { force: true });
  };
  // a process that exits mid-run (its parent died) frees the run for whoever resumes it
  process.on("exit", release);
  return release;
}

function busyOr(err: Error, runDir: string): Error {
  const holder = lockHolder(runDir);
  return holder ? new RunBusyError(runDir, holder) : err;
}
