import { type ChildProcess, fork } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { currentBuildFile } from "../../common/current-build.js";
import { type ChildMessage, ChildMessageSchema, type ChildRunOptions } from "./child-protocol.js";
import type { GridJobInput, GridJobSummary } from "./grid-job.js";

/** compiled (dist/*.js), or TypeScript sources (tests, `npm run relive`, a stale build) */
const COMPILED = import.meta.url.endsWith(".js");
const BUNDLE = "bundles/grid-child.js";

/**
 * What a job process runs: the launcher (job-child-launcher.ts) of the one-file bundle of
 * job-child-main that scripts/build.mjs writes, loaded with its V8 code cache —
 * from sources too while the checkout's build is current (`currentBuildFile`) — else the sources
 * through the TypeScript loader the CLI runs under (bin/relive.js registers tsx), explicitly.
 */
function childEntry(sources: boolean): { entry: string; execArgv: string[] } {
  if (COMPILED) return { entry: fileURLToPath(new URL(`../../${BUNDLE}`, import.meta.url)), execArgv: [] };
  const built = sources ? null : currentBuildFile(BUNDLE);
  if (built !== null) return { entry: built, execArgv: [] };
  return {
    entry: fileURLToPath(new URL("./job-child-main.ts", import.meta.url)),
    execArgv: ["--import", pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href],
  };
}

/** A job process died (crash, kill, out of memory) while running a job. */
export class JobProcessExitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JobProcessExitError";
  }
}

/** An error a job raised inside the job process, re-raised in the parent with its name and message. */
export class JobError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

const TAIL_LINES = 20;

/**
 * One long-lived job process (`job-child-main`, compiled, or through tsx while the build is stale): it runs grid jobs one at
 * a time. Keeping it alive across jobs saves the module load per job; a crash costs only
 * the job it was running (`JobProcessExitError`), and the pool forks a new one.
 */
export class JobChild {
  readonly proc: ChildProcess;
  readonly ready: Promise<void>;
  private seq = 0;
  private current: {
    seq: number;
    resolve(s: GridJobSummary): void;
    reject(e: Error): void;
    onLog?: (m: string) => void;
  } | null = null;
  private exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  private readonly stderrTail: string[] = [];

  /** `sources`: from the sources, run them through tsx even while the build is current (tests of that path) */
  constructor(o: { sources?: boolean } = {}) {
    const { entry, execArgv } = childEntry(o.sources ?? false);
    this.proc = fork(entry, [], {
      execArgv,
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    this.proc.stderr?.setEncoding("utf8");
    this.proc.stderr?.on("data", (chunk: string) => {
      for (const line of chunk.split("\n")) if (line.trim()) this.stderrTail.push(line);
      this.stderrTail.splice(0, Math.max(0, this.stderrTail.length - TAIL_LINES));
    });
    let readyResolve: () => void = () => {};
    let readyReject: (e: Error) => void = () => {};
    this.ready = new Promise((resolve, reject) => {
      readyResolve = resolve;
      readyReject = reject;
    });
    this.ready.catch(() => {});
    this.proc.on("message", (raw: unknown) => {
      const parsed = ChildMessageSchema.safeParse(raw);
      if (!parsed.success) return;
      this.onMessage(parsed.data, readyResolve);
    });
    this.proc.on("error", (err) => readyReject(err));
    this.proc.on("exit", (code, signal) => {
      this.exited = { code, signal };
      const why = new JobProcessExitError(
        `job process ${this.proc.pid} exited (${signal ? `signal ${signal}` : `code ${code}`})${this.stderrTail.length ? `; its last stderr lines:\n${this.stderrTail.join("\n")}` : ""}`,
      );
      readyReject(why);
      const cur = this.current;
      this.current = null;
      cur?.reject(why);
    });
  }

  get alive(): boolean {
    return this.exited === null;
  }

  get busy(): boolean {
    return this.current !== null;
  }

  private onMessage(m: ChildMessage, onReady: () => void): void {
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
        const never: never = m;
        throw new Error(`unhandled job process message ${JSON.stringify(never)}`);
      }
    }
  }

  /** Runs one job in this process; rejects with `JobError` (the job failed) or `JobProcessExitError`. */
  async run(cell: GridJobInput, options: ChildRunOptions, onLog?: (m: string) => void): Promise<GridJobSummary> {
    await this.ready;
    if (this.current) throw new Error("internal: a job process runs one job at a time");
    if (!this.alive) throw new JobProcessExitError(`job process ${this.proc.pid} is gone`);
    const seq = ++this.seq;
    return new Promise<GridJobSummary>((resolve, reject) => {
      this.current = { seq, resolve, reject, ...(onLog ? { onLog } : {}) };
      this.proc.send({ type: "run", seq, cell, options }, (err) => {
        if (err && this.current?.seq === seq) {
          this.current = null;
          reject(new JobProcessExitError(`cannot reach job process ${this.proc.pid}: ${err.message}`));
        }
      });
    });
  }

  /** Stops the process (SIGTERM; SIGKILL after `graceMs`). */
  async stop(graceMs = 2000): Promise<void> {
    if (!this.alive) return;
    const gone = new Promise<void>((resolve) => this.proc.once("exit", () => resolve()));
    this.proc.kill("SIGTERM");
    const timer = setTimeout(() => this.proc.kill("SIGKILL"), graceMs);
    await gone;
    clearTimeout(timer);
  }
}

/**
 * Up to `size` job processes, forked on demand and re-forked after a crash. `run` waits for a
 * free process when all are busy (callers normally never exceed `size` jobs at once).
 */
export class JobChildPool {
  private readonly children: JobChild[] = [];
  private readonly waiters: ((c: JobChild) => void)[] = [];
  /** children handed to a caller and not yet back */
  private readonly reserved = new Set<JobChild>();
  private closed = false;

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`a job process pool needs size ≥ 1, got ${size}`);
  }

  /** Forks every process now (so the first jobs do not pay the module load). */
  async warm(): Promise<void> {
    while (this.children.filter((c) => c.alive).length < this.size) this.children.push(new JobChild());
    await Promise.all(this.children.map((c) => c.ready.catch(() => {})));
  }

  /** a free child (forked when the pool is not full), reserved for the caller; null when all are taken */
  private take(): JobChild | null {
    for (let i = this.children.length - 1; i >= 0; i--) if (!this.children[i]!.alive) this.children.splice(i, 1);
    let child = this.children.find((c) => !this.reserved.has(c)) ?? null;
    if (!child && this.children.length < this.size) {
      child = new JobChild();
      this.children.push(child);
    }
    if (child) this.reserved.add(child);
    return child;
  }

  async run(cell: GridJobInput, options: ChildRunOptions, onLog?: (m: string) => void): Promise<GridJobSummary> {
    if (this.closed) throw new Error("the job process pool is closed");
    const child = this.take() ?? (await new Promise<JobChild>((resolve) => this.waiters.push(resolve)));
    try {
      return await child.run(cell, options, onLog);
    } finally {
      this.reserved.delete(child);
      if (this.waiters.length > 0) {
        const next = this.take();
        if (next) this.waiters.shift()!(next);
      }
    }
  }

  /** pids of the live job processes */
  get pids(): number[] {
    return this.children.filter((c) => c.alive).map((c) => c.proc.pid ?? -1);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.children.map((c) => c.stop()));
    this.children.length = 0;
  }
}
