import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { z } from "zod";
import { GridJobSummarySchema } from "./grid-job.js";
import { cachedSummary } from "./local-pool.js";
const DEFAULT_QUEUE_NAME = "relive-grid";
const GridJobDataSchema = z.object({
  v: z.literal(1),
  id: z.string().min(1),
  label: z.string(),
  provider: z.string().min(1),
  /** the grid's concurrency cap for this provider (per worker process) */
  cap: z.number().int().positive().optional(),
  config: z.unknown()
}).strict();
function openRedis(url, maxConnectAttempts) {
  if (!/^rediss?:\/\/[^/]/.test(url))
    throw new Error(`queue: not a Redis URL: ${JSON.stringify(url)} (expected redis://host:port[/db])`);
  return new Redis(url, {
    // BullMQ's blocking commands need unlimited retries per request
    maxRetriesPerRequest: null,
    ...maxConnectAttempts !== void 0 ? { retryStrategy: (times) => times >= maxConnectAttempts ? null : Math.min(times * 200, 2e3) } : {}
  });
}
async function withGridQueue(loc, fn) {
  const redis = openRedis(loc.url, 4);
  const queue = new Queue(loc.name ?? DEFAULT_QUEUE_NAME, { connection: redis });
  queue.on("error", () => {
  });
  try {
    await queue.waitUntilReady();
    return await fn(queue);
  } finally {
    await queue.close().catch(() => {
    });
    await redis.quit().catch(() => {
    });
  }
}
async function enqueueGrid(cells, loc, o = {}) {
  const retries = o.retries ?? 2;
  const report = { added: [], queued: [], finished: [], requeued: [] };
  await withGridQueue(loc, async (queue) => {
    const fresh = [];
    for (const cell of cells) {
      const state = await queue.getJobState(cell.id);
      if (state === "completed") report.finished.push(cell.id);
      else if (state === "failed") {
        const job = await queue.getJob(cell.id);
        await job?.retry("failed", { resetAttemptsMade: true, resetAttemptsStarted: true });
        report.requeued.push(cell.id);
      } else if (state !== "unknown") report.queued.push(cell.id);
      else if (cachedSummary(cell)) report.finished.push(cell.id);
      else fresh.push(cell);
    }
    if (fresh.length === 0) return;
    await queue.addBulk(
      fresh.map((cell) => {
        const cap = o.caps?.[cell.provider];
        const data = {
          v: 1,
          id: cell.id,
          label: cell.label,
          provider: cell.provider,
          ...cap !== void 0 ? { cap } : {},
          config: cell.config
        };
        return {
          name: cell.id,
          data,
          opts: {
            jobId: cell.id,
            attempts: retries + 1,
            backoff: { type: "exponential", delay: o.backoffMs ?? 5e3 },
            removeOnComplete: false,
            removeOnFail: false
          }
        };
      })
    );
    report.added.push(...fresh.map((c) => c.id));
  });
  return report;
}
async function queueJobStatus(cells, loc) {
  const out = /* @__PURE__ */ new Map();
  await withGridQueue(loc, async (queue) => {
    for (const cell of cells) {
      const job = await queue.getJob(cell.id);
      if (!job) {
        out.set(cell.id, { state: "unknown", attemptsMade: 0, attemptsStarted: 0, stalledCounter: 0 });
        continue;
      }
      const state = await job.getState();
      const summary = GridJobSummarySchema.safeParse(job.returnvalue);
      out.set(cell.id, {
        state,
        attemptsMade: job.attemptsMade,
        attemptsStarted: job.attemptsStarted,
        stalledCounter: job.stalledCounter,
        ...job.failedReason ? { failedReason: job.failedReason } : {},
        ...summary.success ? { summary: summary.data } : {}
      });
    }
  });
  return out;
}
export {
  DEFAULT_QUEUE_NAME,
  GridJobDataSchema,
  enqueueGrid,
  openRedis,
  queueJobStatus,
  withGridQueue
};
//# sourceMappingURL=grid-queue.js.map
