import { existsSync } from "node:fs";
import { cachedSummary } from "./local-pool.js";
import { lockHolder } from "./run-lock.js";
const CELL_STATES = ["done", "running", "waiting", "failed", "interrupted", "pending"];
function fromRunsDir(cell) {
  const summary = cachedSummary(cell);
  if (summary) return { cell, state: "done", summary };
  if (lockHolder(cell.runDir)) return { cell, state: "running" };
  if (existsSync(cell.runDir)) return { cell, state: "interrupted" };
  return { cell, state: "pending" };
}
function fromQueue(cell, job) {
  const local = fromRunsDir(cell);
  const withJob = (state, summary = local.summary ?? job.summary) => ({
    cell,
    state,
    job,
    ...summary ? { summary } : {}
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
      const never = job.state;
      throw new Error(`unknown job state ${String(never)}`);
    }
  }
}
async function gridStatus(cells, loc) {
  const jobs = loc ? await (await import("./grid-queue.js")).queueJobStatus(cells, loc) : null;
  const rows = cells.map((cell) => {
    const job = jobs?.get(cell.id);
    return job ? fromQueue(cell, job) : fromRunsDir(cell);
  });
  const counts = Object.fromEntries(CELL_STATES.map((s) => [s, 0]));
  for (const r of rows) counts[r.state]++;
  return { cells: rows, counts };
}
export {
  CELL_STATES,
  gridStatus
};
//# sourceMappingURL=grid-status.js.map
