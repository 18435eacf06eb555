import { UnrecoverableError, Worker } from "bullmq";
import { DEFAULT_QUEUE_NAME, GridJobDataSchema, openRedis } from "./grid-queue.js";
import { JobChildPool } from "./job-child.js";
import { ProviderGate } from "./provider-gate.js";
async function startQueueWorker(o) {
  const concurrency = o.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`concurrency must be \u2265 1, got ${concurrency}`);
  const emit = (e) => o.onEvent?.(e);
  const pool = o.runner ? null : new JobChildPool(concurrency);
  const warming = pool?.warm();
  const runner = o.runner ?? ((cell, options, onLog) => pool.run(cell, options, onLog));
  const gate = new ProviderGate();
  const redis = openRedis(o.url);
  const processor = async (job) => {
    const startedAt = Date.now();
    const parsed = GridJobDataSchema.safeParse(job.data);
    if (!parsed.success)
      throw new Error(
        `job ${job.id}: malformed grid job data: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`
      );
    const d = parsed.data;
    emit({
      type: "start",
      id: d.id,
      label: d.label,
      attempt: job.attemptsStarted,
      enqueuedAt: job.timestamp,
      startedAt
    });
    await gate.acquire(d.provider, d.cap);
    try {
      return await runner(
        { id: d.id, label: d.label, config: d.config },
        o.run,
        (message) => emit({ type: "log", id: d.id, message })
      );
    } catch (err) {
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
    lockDuration: o.lockDurationMs ?? 3e4,
    stalledInterval: o.stalledIntervalMs ?? 3e4,
    maxStalledCount: o.maxStalledCount ?? 2,
    autorun: false
  });
  worker.on("completed", (job, summary) => emit({ type: "done", id: String(job.id), summary }));
  worker.on("failed", (job, err) => {
    if (!job) return emit({ type: "error", error: err.message });
    const final = job.attemptsMade >= (job.opts.attempts ?? 1) || err.name === "UnrecoverableError";
    emit({
      type: "failed",
      id: String(job.id),
      attempt: job.attemptsMade,
      final,
      error: `${err.name}: ${err.message}`
    });
  });
  worker.on("error", (err) => emit({ type: "error", error: err.message }));
  await Promise.all([worker.waitUntilReady(), warming]);
  emit({ type: "ready", pids: pool?.pids ?? [] });
  void worker.run().catch((err) => emit({ type: "error", error: err.message }));
  let closing = null;
  return {
    worker,
    close: () => {
      closing ??= (async () => {
        await worker.close();
        await pool?.close();
        await redis.quit().catch(() => {
        });
      })();
      return closing;
    }
  };
}
export {
  startQueueWorker
};
//# sourceMappingURL=queue-worker.js.map
