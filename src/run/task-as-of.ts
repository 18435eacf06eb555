import { Kernel } from "../kernel/kernel.js";
import type { TaskRun, TaskRunContext } from "../tasks/task.js";
import { WorldStore } from "../world/world-store.js";
import type { ResolvedRun } from "./resolve-run.js";

/** A resolved run's task opened over its world outside a run, with an as-of view at a clock the caller moves. */
export interface TaskAsOf {
  run: TaskRun;
  ctx: TaskRunContext<unknown>;
  /** the view's `now` (starts at sim_start) */
  clock: { t: number };
  close(): Promise<void>;
}

/**
 * Opens `r`'s task without an agent, ledger or wallet (counterfactual trigger replay, checking a
 * cron gate's tool names before a run starts). Feedback is off; the view's bound is `clock.t`.
 */
export function openTaskAsOf(r: ResolvedRun): TaskAsOf {
  const world = WorldStore.open(r.worldDir);
  const clock = { t: r.sim_start };
  const ctx: TaskRunContext<unknown> = {
    params: r.params,
    feedback: "none",
    oracleFeedback: null,
    sim_start: r.sim_start,
    sim_end: r.sim_end,
    view: world.at(() => clock.t, { search: r.config.search ?? "global" }),
    kernel: new Kernel({ start: r.sim_start, end: r.sim_end }),
    budget_usd: r.budget_usd,
    env_seed: r.env_seed,
    world,
  };
  let run: TaskRun;
  try {
    run = r.task.open(ctx);
  } catch (err) {
    world.close();
    throw err;
  }
  return {
    run,
    ctx,
    clock,
    close: async () => {
      try {
        await run.dispose().catch(() => {});
      } finally {
        world.close();
      }
    },
  };
}
