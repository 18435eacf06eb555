import { existsSync } from "node:fs";
import type { GridJobSummary } from "./grid-job.js";
import type { QueueJobStatus, QueueLocation } from "./grid-queue.js";
import { cachedSummary } from "./local-pool.js";
import type { PreparedCell } from "./prepare-cells.js";
import { lockHolder } from "./run-lock.js";

/**
 * A cell's state: `done` (results exist), `running` (a live process holds its run directory, or
 * its queue job is active), `waiting` (queued), `failed` (its queue job failed for good),
 * `interrupted` (a run directory without results that nobody runs: the next grid run resumes
 * it), `pending` (nothing yet).
 */
export type CellState = "done" | "running" | "waiting" | "failed" | "interrupted" | "pending";
export const CELL_STATES: readonly CellState[] = ["done", "running", "waiting", "failed", "interrupted", "pending"];

export interface CellStatus {
  cell: PreparedCell;
  state: CellState;
  summary?: GridJobSummary;
  /** the queue job, when a queue was asked */
  job?: QueueJobStatus;
}

export interface GridStatus {
  cells: CellStatus[];
  counts: Record<CellState, number>;
}

function fromRunsDir(cell: PreparedCell): CellStatus {
  const summary = cachedSummary(cell);
  if (summary) return { cell, state: "done", summary };
  if (lockHolder(cell.runDir)) return { cell, state: "running" };
  if (existsSync(cell.runDir)) return { cell, state: "interrupted" };
  return { cell, state: "pending" };
}

function fromQueue(cell: PreparedCell, job: QueueJobStatus): CellStatus {
  const local = fromRunsDir(cell);
  const withJob = (state: CellState, summary = local.summary ?? job.summary): CellStatus => ({
    cell,
    state,
    job,
    ...(summary ? { summary } : {}),
  });
  switch (job.state) {
    case "completed":
      return withJob("done");
    case "failed":
      return withJob("failed");
    case "active":
      return withJob("running");
    case "waiting":
    case "delayed":
    case "prioritized":
    case "waiting-children":
      return withJob("waiting");
    case "unknown":
      return { ...local, job };
    default: {
      const never: never = job.state;
      throw new Error(`unknown job state ${String(never)}`);
    }
  }
}

/** Progress of a grid: from its runs directory alone, or from the queue (`loc`) and the runs directory. */
export async function gridStatus(cells: PreparedCell[], loc?: QueueLocation): Promise<GridStatus> {
  // BullMQ loads only when a queue is asked (it costs every other command a second otherwise)
  const jobs = loc ? await (await import("./grid-queue.js")).queueJobStatus(cells, loc) : null;
  const rows = cells.map((cell) => {
    const job = jobs?.get(cell.id);
    return job ? fromQueue(cell, job) : fromRunsDir(cell);
  });
  const counts = Object.fromEntries(CELL_STATES.map((s) => [s, 0])) as Record<CellState, number>;
  for (const r of rows) counts[r.state]++;
  return { cells: rows, counts };
}
