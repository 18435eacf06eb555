import type { TaskRun } from "../tasks/task.js";
import type { ResolvedRun } from "./resolve-run.js";
import { openRunSetup, type RunSetup } from "./run-setup.js";

/**
 * Opens the run (`openRunSetup`) and the task's per-run state, runs `body`, and tears both down on
 * every exit path: a result, a thrown kernel, a paused run. The task run is disposed first (its
 * errors are swallowed: they must not hide the body's), then the ledger is fsynced and closed (so
 * every acknowledged line is durable) and the stores are released (`leaseWorld`).
 */
export async function withOpenRun<T>(
  r: ResolvedRun,
  recorded: readonly string[],
  body: (s: RunSetup, run: TaskRun) => Promise<T>,
): Promise<T> {
  const s = openRunSetup(r, recorded);
  try {
    const run = r.task.open(s.ctx);
    try {
      return await body(s, run);
    } finally {
      await run.dispose().catch(() => {});
    }
  } finally {
    teardownRun(s);
  }
}

/** Closes what `openRunSetup` opened; the ledger close fsyncs (idempotent: a finished run closed it already). */
export function teardownRun(s: RunSetup): void {
  try {
    s.ledger.close();
  } finally {
    s.releaseWorld();
  }
}
