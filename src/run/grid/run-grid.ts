import { expandGrid } from "./expand-grid.js";
import { type GridConfig, loadGridConfig, parseGridConfig } from "./grid-config.js";
import { forkJobProcesses, type GridCellOutcome, type LocalGridOptions, runGridLocal } from "./local-pool.js";
import { prepareGridCells } from "./prepare-cells.js";

export interface RunGridOptions extends Omit<LocalGridOptions, "workers" | "retries"> {
  /** worker processes (default 2) */
  workers?: number;
  /** further attempts after a failed one, per cell (default 2) */
  retries?: number;
  /** check that every model of the grid is priced and has its key (default true) */
  checkModel?: boolean;
}

/**
 * Runs a grid on the local worker pool (the library form of `relive grid CONFIG`): expands the
 * cross product, resolves every cell (building worlds once, before any job starts; the job
 * processes are forked first and load the runner meanwhile) and runs the cells; finished cells
 * are skipped. `grid` is a grid file path or a grid config object.
 */
export async function runGrid(grid: string | GridConfig, o: RunGridOptions): Promise<GridCellOutcome[]> {
  const cfg = typeof grid === "string" ? loadGridConfig(grid) : parseGridConfig(grid);
  const source = typeof grid === "string" ? grid : "grid config";
  const workers = o.workers ?? 2;
  // the job processes load the runner while the cells are prepared
  const pool = o.runner || o.pool ? o.pool : forkJobProcesses(workers);
  let cells: Awaited<ReturnType<typeof prepareGridCells>>;
  try {
    cells = await prepareGridCells(expandGrid(cfg, source), { ...o.run, checkModel: o.checkModel ?? true });
  } catch (e) {
    await pool?.close();
    throw e;
  }
  return runGridLocal(cells, {
    ...o,
    workers,
    retries: o.retries ?? 2,
    caps: o.caps ?? cfg.concurrency,
    ...(pool ? { pool } : {}),
  });
}
