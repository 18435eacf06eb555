import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ChildRunOptions } from "./child-protocol.js";
import { type GridJobInput, type GridJobSummary, readResultsHead } from "./grid-job.js";
import { JobChildPool } from "./job-child.js";
import type { PreparedCell } from "./prepare-cells.js";
import { ProviderGate } from "./provider-gate.js";

/** What happened to a cell, as the grid goes. */
export type GridEvent =
  | { type: "skipped"; cell: PreparedCell; summary: GridJobSummary }
  | { type: "start"; cell: PreparedCell; attempt: number }
  | { type: "log"; cell: PreparedCell; message: string }
  | { type: "done"; cell: PreparedCell; attempt: number; summary: GridJobSummary }
  | { type: "retry"; cell: PreparedCell; attempt: number; error: string }
  | { type: "failed"; cell: PreparedCell; attempts: number; error: string };

export interface GridCellOutcome {
  cell: PreparedCell;
  /** `cached`: finished before (skipped, or the job found results.json) */
  status: "done" | "cached" | "failed";
  attempts: number;
  summary?: GridJobSummary;
  error?: string;
}

/** Runs one job; the default forks job processes (`JobChildPool`). */
export type JobRunner = (
  cell: GridJobInput,
  options: ChildRunOptions,
  onLog: (m: string) => void,
) => Promise<GridJobSummary>;

export interface LocalGridOptions {
  /** job processes running at once (≥ 1) */
  workers: number;
  /** further attempts after a failed one (default 2) */
  retries?: number;
  /** per-provider concurrency caps */
  caps?: Readonly<Record<string, number>>;
  run: ChildRunOptions;
  onEvent?: (e: GridEvent) => void;
  /** replaces the job processes (tests) */
  runner?: JobRunner;
  /**
   * job processes forked earlier (`forkJobProcesses`, while the caller prepared the cells): used
   * instead of forking here, and closed when the grid ends, whatever happens
   */
  pool?: JobChildPool;
}

/**
 * Forks the job processes of a local grid now, so they load the runner while the caller prepares
 * the cells (expanding the grid, building worlds); hand the pool to `runGridLocal` (`pool`), or
 * close it. Children the grid turns out not to need (fewer cells left to run than workers) stay
 * idle and are closed with the rest.
 */
export function forkJobProcesses(workers: number): JobChildPool {
  if (!Number.isInteger(workers) || workers < 1) throw new Error(`workers must be ≥ 1, got ${workers}`);
  const pool = new JobChildPool(workers);
  void pool.warm();
  return pool;
}

/** A finished cell's summary from its run directory, without running anything. */
export function cachedSummary(cell: PreparedCell): GridJobSummary | null {
  if (!existsSync(join(cell.runDir, "results.json"))) return null;
  const head = readResultsHead(cell.runDir);
  return {
    id: cell.id,
    label: cell.label,
    runDir: cell.runDir,
    status: "cached",
    resumed: false,
    primary: head.performance.primary,
    spent_usd: head.resources.spent_usd,
    wall_ms: 0,
  };
}

/**
 * The local worker pool: runs the cells in `workers` job processes, in grid order, never more
 * than a provider's cap at once (a capped cell waits while later cells of other providers go
 * ahead). Resumable: cells whose run directory holds results.json are skipped. A failed attempt
 * (an error, or the job process dying) goes to the back of the queue until `retries + 1`
 * attempts have failed; a `ConfigError` fails the cell at once. Resolves with one outcome per cell, in cell order; never rejects for a
 * failed cell.
 */
export async function runGridLocal(cells: PreparedCell[], o: LocalGridOptions): Promise<GridCellOutcome[]> {
  try {
    return await runCells(cells, o);
  } finally {
    await o.pool?.close();
  }
}

async function runCells(cells: PreparedCell[], o: LocalGridOptions): Promise<GridCellOutcome[]> {
  if (!Number.isInteger(o.workers) || o.workers < 1) throw new Error(`workers must be ≥ 1, got ${o.workers}`);
  const retries = o.retries ?? 2;
  if (!Number.isInteger(retries) || retries < 0) throw new Error(`retries must be ≥ 0, got ${retries}`);
  const emit = (e: GridEvent) => o.onEvent?.(e);
  const outcomes = new Map<number, GridCellOutcome>();
  const pending: PreparedCell[] = [];
  for (const cell of cells) {
    const summary = cachedSummary(cell);
    if (summary) {
      outcomes.set(cell.index, { cell, status: "cached", attempts: 0, summary });
      emit({ type: "skipped", cell, summary });
    } else pending.push(cell);
  }
  if (pending.length === 0) return cells.map((c) => outcomes.get(c.index)!);

  const workers = Math.min(o.workers, pending.length);
  const pool = o.runner ? null : (o.pool ?? new JobChildPool(workers));
  const runner: JobRunner = o.runner ?? ((cell, options, onLog) => (pool as JobChildPool).run(cell, options, onLog));
  const gate = new ProviderGate(o.caps ?? {});
  const attempts = new Map<number, number>();
  let active = 0;

  try {
    if (pool) await pool.warm();
    await new Promise<void>((resolveAll) => {
      const pump = () => {
        while (active < workers) {
          const i = pending.findIndex((c) => gate.tryAcquire(c.provider));
          if (i < 0) break;
          const [cell] = pending.splice(i, 1);
          start(cell!);
        }
        if (active === 0 && pending.length === 0) resolveAll();
      };
      const start = (cell: PreparedCell) => {
        active++;
        const attempt = (attempts.get(cell.index) ?? 0) + 1;
        attempts.set(cell.index, attempt);
        emit({ type: "start", cell, attempt });
        runner({ id: cell.id, label: cell.label, config: cell.config }, o.run, (message) =>
          emit({ type: "log", cell, message }),
        )
          .then(
            (summary) => {
              outcomes.set(cell.index, { cell, status: summary.status, attempts: attempt, summary });
              emit({ type: "done", cell, attempt, summary });
            },
            (err: unknown) => {
              const error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
              // a configuration error fails the same way every time: no retry
              const config = err instanceof Error && err.name === "ConfigError";
              if (attempt <= retries && !config) {
                emit({ type: "retry", cell, attempt, error });
                pending.push(cell);
              } else {
                outcomes.set(cell.index, { cell, status: "failed", attempts: attempt, error });
                emit({ type: "failed", cell, attempts: attempt, error });
              }
            },
          )
          .finally(() => {
            gate.release(cell.provider);
            active--;
            pump();
          });
      };
      pump();
    });
  } finally {
    await pool?.close();
  }
  return cells.map((c) => outcomes.get(c.index)!);
}
