import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeSync
} from "node:fs";
import { hostname } from "node:os";
import { dirname } from "node:path";
import { z } from "zod";
const LockSchema = z.object({ pid: z.number().int(), host: z.string(), since: z.string() });
const LOCK_STALE_MS = 3e4;
const HEARTBEAT_MS = 5e3;
class RunBusyError extends Error {
  constructor(runDir, holder) {
    super(`run ${runDir} is being run by process ${holder.pid} on ${holder.host} (since ${holder.since})`);
    this.runDir = runDir;
    this.holder = holder;
    this.name = "RunBusyError";
  }
  runDir;
  holder;
}
const lockPath = (runDir) => `${runDir}.lock`;
const HAVE_PROC = existsSync("/proc/self/stat");
function processAlive(pid) {
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
    return err.code === "EPERM";
  }
}
function lockHolder(runDir, now = Date.now()) {
  const path = lockPath(runDir);
  let holder;
  let mtime;
  try {
    holder = LockSchema.parse(JSON.parse(readFileSync(path, "utf8")));
    mtime = statSync(path).mtimeMs;
  } catch {
    return null;
  }
  if (holder.host === hostname()) return processAlive(holder.pid) ? holder : null;
  return now - mtime < LOCK_STALE_MS ? holder : null;
}
function acquireRunLock(runDir) {
  const path = lockPath(runDir);
  const me = { pid: process.pid, host: hostname(), since: (/* @__PURE__ */ new Date()).toISOString() };
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
      if (err.code !== "EEXIST" || tries > 0) throw busyOr(err, runDir);
      const holder = lockHolder(runDir);
      if (holder) throw new RunBusyError(runDir, holder);
      rmSync(path, { force: true });
    }
  }
  const beat = setInterval(() => {
    try {
      const t = /* @__PURE__ */ new Date();
      utimesSync(path, t, t);
    } catch {
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
  process.on("exit", release);
  return release;
}
function busyOr(err, runDir) {
  const holder = lockHolder(runDir);
  return holder ? new RunBusyError(runDir, holder) : err;
}
export {
  LOCK_STALE_MS,
  RunBusyError,
  acquireRunLock,
  lockHolder,
  lockPath,
  processAlive
};
//# sourceMappingURL=run-lock.js.map
