import { type Job, UnrecoverableError, Worker } from "bullmq";
import type { ChildRunOptions } from "./child-protocol.js";
import type { GridJobSummary } from "./grid-job.js";
import { DEFAULT_QUEUE_NAME, GridJobDataSchema, openRedis, type QueueLocation } from "./grid-queue.js";
import { JobChildPool } from "./job-child.js";
import type { JobRunner } from "./local-pool.js";
import { ProviderGate } from "./provider-gate.js";

export type WorkerEvent =
  | { type: "ready"; pids: number[] }
  | {
      type: "start";
      id: string;
      label: string;
      /** BullMQ's attempts started, this one included (a re-queued stalled job counts again) */
      attempt: number;
      /** wall ms when the job was added to the queue, and when this worker started it */
      enqueuedAt: number;
      startedAt: number;
    }
  | { type: "log"; id: string; message: string }
  | { type: "done"; id: string; summary: GridJobSummary }
  | { type: "failed"; id: string; attempt: number; final: boolean; error: string }
  | { type: "error"; error: string };

export interface QueueWorkerOptions extends QueueLocation {
  /** jobs run at once by this worker, each in its own job process (default 1) */
  concurrency?: number;
  run: ChildRunOptions;
  /**
   * BullMQ lock of a running job in ms (default 30,000; renewed every half of it). A worker that
   * dies stops renewing; after the lock expires the next stalled-job check of any live worker
   * moves the job back to the queue. Short values (1–2 s) suit tests.
   */
  lockDurationMs?: number;
  /** how often this worker checks for stalled jobs, ms (default 30,000) */
  stalledIntervalMs?: number;
  /** times a job may stall (its worker died) before it fails for good (default 2) */
  maxStalledCount?: number;
  onEvent?: (e: WorkerEvent) => void;
  /** replaces the job processes (tests) */
  runner?: JobRunner;
}

export interface QueueWorkerHandle {
  worker: Worker;
  /** waits for the running jobs, then stops the job processes and the connection */
  close(): Promise<void>;
}

/**
 * A `relive worker`: takes grid jobs from the BullMQ queue and runs each with the same job
 * function as the local pool (`runGridJob`), in a job process, so the BullMQ lock is renewed by
 * this process while the job process works, and a crash of the job process fails only that
 * attempt (retried with backoff). The per-provider cap that came with a job holds within this
 * worker: jobs of a provider at its cap wait here (holding their slot) until one finishes.
 */
export async function startQueueWorker(o: QueueWorkerOptions): Promise<QueueWorkerHandle> {
  const concurrency = o.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`concurrency must be ≥ 1, got ${concurrency}`);
  const emit = (e: WorkerEvent) => o.onEvent?.(e);
  const pool = o.runner ? null : new JobChildPool(concurrency);
  // the job processes load while the connection comes up
  const warming = pool?.warm();
  const runner: JobRunner = o.runner ?? ((cell, options, onLog) => (pool as JobChildPool).run(cell, options, onLog));
  const gate = new ProviderGate();
  const redis = openRedis(o.url);

  const processor = async (job: Job): Promise<GridJobSummary> => {
    const startedAt = Date.now();
    const parsed = GridJobDataSchema.safeParse(job.data);
    if (!parsed.success)
      throw new Error(
        `job ${job.id}: malformed grid job data: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
      );
    const d = parsed.data;
    emit({
      type: "start",
      id: d.id,
      label: d.label,
      attempt: job.attemptsStarted,
      enqueuedAt: job.timestamp,
      startedAt,
    });
    await gate.acquire(d.provider, d.cap);
    try {
      return await runner({ id: d.id, label: d.label, config: d.config }, o.run, (message) =>
        emit({ type: "log", id: d.id, message }),
      );
    } catch (err) {
      // a configuration error fails the same way every time: no further attempts
      if (err instanceof Error && err.name === "ConfigError")
        throw new UnrecoverableError(`ConfigError: ${err.message}`);
      throw err;
    } finally {
      gate.release(d.provider);
    }
  };

  const worker = new Worker(o.name ?? DEFAULT_QUEUE_NAME, processor, {
    connection: redis,
    concurrency,
    lockDuration: o.lockDurationMs ?? 30_000,
    stalledInterval: o.stalledIntervalMs ?? 30_000,
    maxStalledCount: o.maxStalledCount ?? 2,
    autorun: false,
  });
  worker.on("completed", (job: Job, summary: GridJobSummary) => emit({ type: "done", id: String(job.id), summary }));
  worker.on("failed", (job: Job | undefined, err: Error) => {
    if (!job) return emit({ type: "error", error: err.message });
    const final = job.attemptsMade >= (job.opts.attempts ?? 1) || err.name === "UnrecoverableError";
    emit({
      type: "failed",
      id: String(job.id),
      attempt: job.attemptsMade,
      final,
      error: `${err.name}: ${err.message}`,
    });
  });
  worker.on("error", (err: Error) => emit({ type: "error", error: err.message }));
  await Promise.all([worker.waitUntilReady(), warming]);
  emit({ type: "ready", pids: pool?.pids ?? [] });
  void worker.run().catch((err: Error) => emit({ type: "error", error: err.message }));
  let closing: Promise<void> | null = null;
  return {
    worker,
    close: () => {
      closing ??= (async () => {
        await worker.close();
        await pool?.close();
        await redis.quit().catch(() => {});
      })();
      return closing;
    },
  };
}
