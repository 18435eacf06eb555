import { fork } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ChildMessageSchema } from "./child-protocol.js";
const COMPILED = import.meta.url.endsWith(".js");
const ENTRY = fileURLToPath(new URL(COMPILED ? "./job-child-main.js" : "./job-child-main.ts", import.meta.url));
const EXEC_ARGV = COMPILED ? [] : ["--import", pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href];
class JobProcessExitError extends Error {
  constructor(message) {
    super(message);
    this.name = "JobProcessExitError";
  }
}
class JobError extends Error {
  constructor(name, message) {
    super(message);
    this.name = name;
  }
}
const TAIL_LINES = 20;
class JobChild {
  proc;
  ready;
  seq = 0;
  current = null;
  exited = null;
  stderrTail = [];
  constructor() {
    this.proc = fork(ENTRY, [], {
      execArgv: EXEC_ARGV,
      stdio: ["ignore", "ignore", "pipe", "ipc"]
    });
    this.proc.stderr?.setEncoding("utf8");
    this.proc.stderr?.on("data", (chunk) => {
      for (const line of chunk.split("\n")) if (line.trim()) this.stderrTail.push(line);
      this.stderrTail.splice(0, Math.max(0, this.stderrTail.length - TAIL_LINES));
    });
    let readyResolve = () => {
    };
    let readyReject = () => {
    };
    this.ready = new Promise((resolve, reject) => {
      readyResolve = resolve;
      readyReject = reject;
    });
    this.ready.catch(() => {
    });
    this.proc.on("message", (raw) => {
      const parsed = ChildMessageSchema.safeParse(raw);
      if (!parsed.success) return;
      this.onMessage(parsed.data, readyResolve);
    });
    this.proc.on("error", (err) => readyReject(err));
    this.proc.on("exit", (code, signal) => {
      this.exited = { code, signal };
      const why = new JobProcessExitError(
        `job process ${this.proc.pid} exited (${signal ? `signal ${signal}` : `code ${code}`})${this.stderrTail.length ? `; its last stderr lines:
${this.stderrTail.join("\n")}` : ""}`
      );
      readyReject(why);
      const cur = this.current;
      this.current = null;
      cur?.reject(why);
    });
  }
  get alive() {
    return this.exited === null;
  }
  get busy() {
    return this.current !== null;
  }
  onMessage(m, onReady) {
    switch (m.type) {
      case "ready":
        onReady();
        return;
      case "log":
        if (this.current?.seq === m.seq) this.current.onLog?.(m.message);
        return;
      case "result":
      case "error": {
        const cur = this.current;
        if (!cur || cur.seq !== m.seq) return;
        this.current = null;
        if (m.type === "result") cur.resolve(m.summary);
        else cur.reject(new JobError(m.name, m.message));
        return;
      }
      default: {
        const never = m;
        throw new Error(`unhandled job process message ${JSON.stringify(never)}`);
      }
    }
  }
  /** Runs one job in this process; rejects with `JobError` (the job failed) or `JobProcessExitError`. */
  async run(cell, options, onLog) {
    await this.ready;
    if (this.current) throw new Error("internal: a job process runs one job at a time");
    if (!this.alive) throw new JobProcessExitError(`job process ${this.proc.pid} is gone`);
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      this.current = { seq, resolve, reject, ...onLog ? { onLog } : {} };
      this.proc.send({ type: "run", seq, cell, options }, (err) => {
        if (err && this.current?.seq === seq) {
          this.current = null;
          reject(new JobProcessExitError(`cannot reach job process ${this.proc.pid}: ${err.message}`));
        }
      });
    });
  }
  /** Stops the process (SIGTERM; SIGKILL after `graceMs`). */
  async stop(graceMs = 2e3) {
    if (!this.alive) return;
    const gone = new Promise((resolve) => this.proc.once("exit", () => resolve()));
    this.proc.kill("SIGTERM");
    const timer = setTimeout(() => this.proc.kill("SIGKILL"), graceMs);
    await gone;
    clearTimeout(timer);
  }
}
class JobChildPool {
  constructor(size) {
    this.size = size;
    if (!Number.isInteger(size) || size < 1) throw new Error(`a job process pool needs size \u2265 1, got ${size}`);
  }
  size;
  children = [];
  waiters = [];
  /** children handed to a caller and not yet back */
  reserved = /* @__PURE__ */ new Set();
  closed = false;
  /** Forks every process now (so the first jobs do not pay the module load). */
  async warm() {
    while (this.children.filter((c) => c.alive).length < this.size) this.children.push(new JobChild());
    await Promise.all(this.children.map((c) => c.ready.catch(() => {
    })));
  }
  /** a free child (forked when the pool is not full), reserved for the caller; null when all are taken */
  take() {
    for (let i = this.children.length - 1; i >= 0; i--) if (!this.children[i].alive) this.children.splice(i, 1);
    let child = this.children.find((c) => !this.reserved.has(c)) ?? null;
    if (!child && this.children.length < this.size) {
      child = new JobChild();
      this.children.push(child);
    }
    if (child) this.reserved.add(child);
    return child;
  }
  async run(cell, options, onLog) {
    if (this.closed) throw new Error("the job process pool is closed");
    const child = this.take() ?? await new Promise((resolve) => this.waiters.push(resolve));
    try {
      return await child.run(cell, options, onLog);
    } finally {
      this.reserved.delete(child);
      if (this.waiters.length > 0) {
        const next = this.take();
        if (next) this.waiters.shift()(next);
      }
    }
  }
  /** pids of the live job processes */
  get pids() {
    return this.children.filter((c) => c.alive).map((c) => c.proc.pid ?? -1);
  }
  async close() {
    this.closed = true;
    await Promise.all(this.children.map((c) => c.stop()));
    this.children.length = 0;
  }
}
export {
  JobChild,
  JobChildPool,
  JobError,
  JobProcessExitError
};
//# sourceMappingURL=job-child.js.map
