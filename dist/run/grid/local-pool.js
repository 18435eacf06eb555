import { existsSync } from "node:fs";
import { join } from "node:path";
import { readResultsHead } from "./grid-job.js";
import { JobChildPool } from "./job-child.js";
import { ProviderGate } from "./provider-gate.js";
function cachedSummary(cell) {
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
    wall_ms: 0
  };
}
async function runGridLocal(cells, o) {
  if (!Number.isInteger(o.workers) || o.workers < 1) throw new Error(`workers must be \u2265 1, got ${o.workers}`);
  const retries = o.retries ?? 2;
  if (!Number.isInteger(retries) || retries < 0) throw new Error(`retries must be \u2265 0, got ${retries}`);
  const emit = (e) => o.onEvent?.(e);
  const outcomes = /* @__PURE__ */ new Map();
  const pending = [];
  for (const cell of cells) {
    const summary = cachedSummary(cell);
    if (summary) {
      outcomes.set(cell.index, { cell, status: "cached", attempts: 0, summary });
      emit({ type: "skipped", cell, summary });
    } else pending.push(cell);
  }
  if (pending.length === 0) return cells.map((c) => outcomes.get(c.index));
  const workers = Math.min(o.workers, pending.length);
  const pool = o.runner ? null : new JobChildPool(workers);
  const runner = o.runner ?? ((cell, options, onLog) => pool.run(cell, options, onLog));
  const gate = new ProviderGate(o.caps ?? {});
  const attempts = /* @__PURE__ */ new Map();
  let active = 0;
  try {
    if (pool) await pool.warm();
    await new Promise((resolveAll) => {
      const pump = () => {
        while (active < workers) {
          const i = pending.findIndex((c) => gate.tryAcquire(c.provider));
          if (i < 0) break;
          const [cell] = pending.splice(i, 1);
          start(cell);
        }
        if (active === 0 && pending.length === 0) resolveAll();
      };
      const start = (cell) => {
        active++;
        const attempt = (attempts.get(cell.index) ?? 0) + 1;
        attempts.set(cell.index, attempt);
        emit({ type: "start", cell, attempt });
        runner(
          { id: cell.id, label: cell.label, config: cell.config },
          o.run,
          (message) => emit({ type: "log", cell, message })
        ).then(
          (summary) => {
            outcomes.set(cell.index, { cell, status: summary.status, attempts: attempt, summary });
            emit({ type: "done", cell, attempt, summary });
          },
          (err) => {
            const error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
            const config = err instanceof Error && err.name === "ConfigError";
            if (attempt <= retries && !config) {
              emit({ type: "retry", cell, attempt, error });
              pending.push(cell);
            } else {
              outcomes.set(cell.index, { cell, status: "failed", attempts: attempt, error });
              emit({ type: "failed", cell, attempts: attempt, error });
            }
          }
        ).finally(() => {
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
  return cells.map((c) => outcomes.get(c.index));
}
export {
  cachedSummary,
  runGridLocal
};
//# sourceMappingURL=local-pool.js.map
