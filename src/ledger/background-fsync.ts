import { Worker } from "node:worker_threads";

/**
 * fsync beside the simulation: one worker thread per process (started on the first request,
 * unref'd so it never keeps a process alive) fsyncs ledger files on its own descriptors, so a
 * settlement point requests durability without stalling the run for the disk (the fsync of a
 * 3-day price-check run was 25–60% of its wall time, and two grid job processes queued on the
 * filesystem journal behind each other's).
 *
 * A request is posted from the main thread without waiting for its event loop, so it starts at the
 * settlement point even in a run that never yields (a scripted one). Per file at most one fsync is
 * in flight: a request made while one is running is dropped, since the next settlement point's
 * request (or the writer's own synchronous fsync at close) covers the lines written meanwhile.
 * Completion and failure are read from memory shared with the worker (no event-loop turn needed).
 */

/** slots of a file's shared Int32Array */
const REQUESTED = 0;
const COMPLETED = 1;
/** errno of a failed background fsync (0: none) */
const FAILED = 2;

/** The worker: CommonJS evaluated from this string, so it needs no file of its own in any build (sources, dist, bundles). */
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { openSync, fsyncSync, closeSync } = require("node:fs");
const files = new Map();
parentPort.on("message", (m) => {
  if (m.op === "open") {
    const state = new Int32Array(m.state);
    try { files.set(m.id, { fd: openSync(m.path, "r"), state }); }
    catch (e) { Atomics.store(state, ${FAILED}, e.errno ? -e.errno : 1); }
    return;
  }
  const f = files.get(m.id);
  if (!f) return;
  if (m.op === "sync") {
    try { fsyncSync(f.fd); } catch (e) { Atomics.store(f.state, ${FAILED}, e.errno ? -e.errno : 1); }
    Atomics.store(f.state, ${COMPLETED}, m.n);
  } else if (m.op === "close") {
    closeSync(f.fd);
    files.delete(m.id);
  }
});
`;

let worker: Worker | null = null;
let nextId = 0;

function theWorker(): Worker {
  if (worker === null) {
    worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [] });
    worker.unref();
    worker.on("error", () => {
      worker = null;
    });
  }
  return worker;
}

/** The background fsync of one file (a ledger): `request()` at settlement points, `close()` when done. */
export class BackgroundFsync {
  private readonly id = nextId++;
  private readonly state = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
  private readonly worker = theWorker();

  constructor(readonly path: string) {
    this.worker.postMessage({ op: "open", id: this.id, path, state: this.state.buffer });
  }

  /** Starts an fsync of the file unless one is in flight (which a later request or the final sync covers). */
  request(): void {
    this.check();
    const n = Atomics.load(this.state, REQUESTED);
    if (Atomics.load(this.state, COMPLETED) !== n) return;
    Atomics.store(this.state, REQUESTED, n + 1);
    this.worker.postMessage({ op: "sync", id: this.id, n: n + 1 });
  }

  /** fsyncs requested and completed so far (diagnostics; tests wait on them) */
  get counts(): { requested: number; completed: number } {
    return { requested: Atomics.load(this.state, REQUESTED), completed: Atomics.load(this.state, COMPLETED) };
  }

  /** Releases the worker's descriptor of the file (after any fsync in flight: the worker works in order); throws if a background fsync failed. */
  close(): void {
    this.worker.postMessage({ op: "close", id: this.id });
    this.check();
  }

  private check(): void {
    const failed = Atomics.load(this.state, FAILED);
    if (failed !== 0)
      throw new Error(
        `${this.path}: a background fsync failed (errno ${failed}); the file may not be durable on disk. Check the disk and resume the run.`,
      );
  }
}
