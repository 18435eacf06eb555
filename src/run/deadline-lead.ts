import { MINUTE_MS } from "../common/time.js";
import type { AnyTask } from "../tasks/task.js";
import { DEADLINE_GUARD_MARGIN_MS } from "../triggers/deadline-guard.js";
import { ConfigError, type RunConfig } from "./config.js";

/** The deadline guard's margin of a run config (`agent.deadline_guard_margin_min`, default 60 min). */
export function deadlineGuardMarginMs(config: RunConfig): number {
  const m = config.agent.deadline_guard_margin_min;
  return m === undefined ? DEADLINE_GUARD_MARGIN_MS : Math.round(m * MINUTE_MS);
}

const minutes = (ms: number) => `${Math.round((ms / MINUTE_MS) * 1000) / 1000} min`;

/**
 * Refuses a deadline-guard margin longer than the task's shortest deadline lead (DESIGN.md
 * invariant 5): a guard wake `margin` before a deadline that becomes known only `lead` before it
 * would announce the event (a fill, a margin call) before it is visible.
 */
export function checkDeadlineGuardMargin(config: RunConfig, task: AnyTask, params: unknown): void {
  if (!config.agent.deadline_guard || !task.deadlineLead) return;
  const margin = deadlineGuardMarginMs(config);
  const lead = task.deadlineLead(params);
  if (margin > lead.ms)
    throw new ConfigError(
      `agent.deadline_guard_margin_min: ${minutes(margin)} is longer than ${task.id}'s shortest deadline lead ` +
        `(task_params.${lead.param}: ${minutes(lead.ms)}): a guard wake that early would come before the event ` +
        "that makes the deadline known; use a margin of at most the lead",
    );
}
