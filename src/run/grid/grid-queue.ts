import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { z } from "zod";
import { type GridJobSummary, GridJobSummarySchema } from "./grid-job.js";
import { cachedSummary } from "./local-pool.js";
import type { PreparedCell } from "./prepare-cells.js";

/** The BullMQ queue every grid uses unless told otherwise (job ids are run ids, so grids can share it). */
export const DEFAULT_QUEUE_NAME = "relive-grid";

export interface QueueLocation {
  /** `redis://host:port[/db]` */
  url: string;
  /** BullMQ queue name (default `relive-grid`) */
  name?: string;
}

/** A job's data in Redis (validated by the worker: it crosses machines). */
export const GridJobDataSchema = z
  .object({
    v: z.literal(1),
    id: z.string().min(1),
    label: z.string(),
    provider: z.string().min(1),
    /** the grid's concurrency cap for this provider (per worker process) */
    cap: z.number().int().positive().optional(),
    config: z.unknown(),
  })
  .strict();
export type GridJobData = z.infer<typeof GridJobDataSchema>;

/** Opens a Redis connection for BullMQ. `maxConnectAttempts` bounds the wait for an unreachable server. */
export function openRedis(url: string, maxConnectAttempts?: number): Redis {
  if (!/^rediss?:\/\/[^/]/.test(url))
    throw new Error(`queue: not a Redis URL: ${JSON.stringify(url)} (expected redis://host:port[/db])`);
  return new Redis(url, {
    // BullMQ's blocking commands need unlimited retries per request
    maxRetriesPerRequest: null,
    ...(maxConnectAttempts !== undefined
      ? { retryStrategy: (times: number) => (times >= maxConnectAttempts ? null : Math.min(times * 200, 2_000)) }
      : {}),
  });
}

/** Runs `fn` with the grid queue open (a client command: gives up after a few connection attempts). */
export async function withGridQueue<T>(loc: QueueLocation, fn: (q: Queue) => Promise<T>): Promise<T> {
  const redis = openRedis(loc.url, 4);
  const queue = new Queue(loc.name ?? DEFAULT_QUEUE_NAME, { connection: redis });
  queue.on("error", () => {}); // surfaced by the failing call below
  try {
    await queue.waitUntilReady();
    return await fn(queue);
  } finally {
    await queue.close().catch(() => {});
    await redis.quit().catch(() => {});
  }
}

export interface EnqueueOptions {
  /** further attempts after a failed one (default 2) */
  retries?: number;
  /** first retry delay in ms, doubled each further attempt (default 5000) */
  backoffMs?: number;
  /** per-provider concurrency caps of the grid */
  caps?: Readonly<Record<string, number>>;
}

export interface EnqueueReport {
  /** new jobs */
  added: string[];
  /** jobs already waiting, delayed or running */
  queued: string[];
  /** cells finished already (a completed job, or results.json in the local runs directory) */
  finished: string[];
  /** failed jobs sent back to the queue */
  requeued: string[];
}

/**
 * Enqueues one job per cell with jobId = the cell id (`<run-id>-s<seed>`), so enqueueing the same
 * grid again adds nothing twice: cells with a waiting, delayed or active job are left alone,
 * completed ones (or ones whose results.json the local runs directory already holds) are
 * skipped, and failed ones are retried with a fresh attempt count.
 */
export async function enqueueGrid(
  cells: PreparedCell[],
  loc: QueueLocation,
  o: EnqueueOptions = {},
): Promise<EnqueueReport> {
  const retries = o.retries ?? 2;
  const report: EnqueueReport = { added: [], queued: [], finished: [], requeued: [] };
  await withGridQueue(loc, async (queue) => {
    const fresh: PreparedCell[] = [];
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
        const data: GridJobData = {
          v: 1,
          id: cell.id,
          label: cell.label,
          provider: cell.provider,
          ...(cap !== undefined ? { cap } : {}),
          config: cell.config,
        };
        return {
          name: cell.id,
          data,
          opts: {
            jobId: cell.id,
            attempts: retries + 1,
            backoff: { type: "exponential", delay: o.backoffMs ?? 5000 },
            removeOnComplete: false,
            removeOnFail: false,
          },
        };
      }),
    );
    report.added.push(...fresh.map((c) => c.id));
  });
  return report;
}

/** BullMQ's view of one cell's job. */
export interface QueueJobStatus {
  state: "completed" | "failed" | "active" | "waiting" | "delayed" | "prioritized" | "waiting-children" | "unknown";
  attemptsMade: number;
  attemptsStarted: number;
  stalledCounter: number;
  failedReason?: string;
  summary?: GridJobSummary;
}

/** The job of every cell (`unknown` when it was never enqueued or was removed). */
export async function queueJobStatus(cells: PreparedCell[], loc: QueueLocation): Promise<Map<string, QueueJobStatus>> {
  const out = new Map<string, QueueJobStatus>();
  await withGridQueue(loc, async (queue) => {
    for (const cell of cells) {
      const job = await queue.getJob(cell.id);
      if (!job) {
        out.set(cell.id, { state: "unknown", attemptsMade: 0, attemptsStarted: 0, stalledCounter: 0 });
        continue;
      }
      const state = (await job.getState()) as QueueJobStatus["state"];
      const summary = GridJobSummarySchema.safeParse(job.returnvalue);
      out.set(cell.id, {
        state,
        attemptsMade: job.attemptsMade,
        attemptsStarted: job.attemptsStarted,
        stalledCounter: job.stalledCounter,
        ...(job.failedReason ? { failedReason: job.failedReason } : {}),
        ...(summary.success ? { summary: summary.data } : {}),
      });
    }
  });
  return out;
}
