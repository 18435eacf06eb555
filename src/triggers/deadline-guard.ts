import { HOUR_MS, isoInstant } from "../kernel/day.js";
import type { Kernel } from "../kernel/kernel.js";
import { DEADLINE_GUARD_PREFIX } from "./trigger.js";

export const DEADLINE_GUARD_MARGIN_MS = HOUR_MS;

export interface DeadlineGuardOptions {
  kernel: Kernel;
  actorId: string;
  /** the task's deadlines in [sim_start, sim_end) (`TaskDefinition.deadlines`) */
  deadlines: readonly number[];
  marginMs?: number;
}

/**
 * The deadline guard (wraps any trigger): a one-shot kernel trigger at each deadline minus the
 * margin (default 1 h) that lies after now, with id "deadline:<ISO deadline>". The agent ledgers
 * such wakes with reason "deadline". Returns the installed wake instants.
 */
export function installDeadlineGuard(o: DeadlineGuardOptions): number[] {
  const margin = o.marginMs ?? DEADLINE_GUARD_MARGIN_MS;
  const now = o.kernel.now();
  const installed: number[] = [];
  for (const d of [...new Set(o.deadlines)].sort((a, b) => a - b)) {
    const at = d - margin;
    if (!(at > now) || at >= o.kernel.end) continue;
    o.kernel.addOnce(
      o.actorId,
      `${DEADLINE_GUARD_PREFIX}${isoInstant(d)}`,
      at,
      `deadline guard: ${isoInstant(d)} in ${margin / HOUR_MS} h`,
    );
    installed.push(at);
  }
  return installed;
}
