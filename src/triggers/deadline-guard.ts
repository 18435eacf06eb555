import { HOUR_MS, isoInstant, MINUTE_MS } from "../common/time.js";
import type { Kernel } from "../kernel/kernel.js";
import { DEADLINE_GUARD_PREFIX } from "./trigger.js";

export const DEADLINE_GUARD_MARGIN_MS = HOUR_MS;
/** how often the guard asks the task which deadlines are known (simulated time) */
export const DEADLINE_GUARD_POLL_MS = 15 * MINUTE_MS;

export interface DeadlineGuardOptions {
  kernel: Kernel;
  actorId: string;
  /**
   * The deadlines known now in [now, until) (`TaskRun.deadlines` over the run's as-of view): the
   * guard never learns of a deadline before the task could.
   */
  deadlines: (until: number) => readonly number[];
  marginMs?: number;
}

/**
 * The deadline guard (wraps any trigger): a one-shot kernel trigger at each known deadline minus the
 * margin (default 1 h), with id "deadline:<ISO deadline>"; the agent ledgers such wakes with reason
 * "deadline". It asks the task for the deadlines known at its start and then every
 * DEADLINE_GUARD_POLL_MS and whenever the clock moves, looking one margin plus two polls ahead, so a
 * deadline is installed as soon as it is known; one whose wake instant has passed by then is skipped.
 */
export function installDeadlineGuard(o: DeadlineGuardOptions): void {
  const margin = o.marginMs ?? DEADLINE_GUARD_MARGIN_MS;
  const seen = new Set<number>();
  const poll = () => {
    const now = o.kernel.now();
    // two polls ahead: a deadline first seen by the poll one poll before its wake still gets it
    for (const d of [...o.deadlines(now + margin + 2 * DEADLINE_GUARD_POLL_MS)].sort((a, b) => a - b)) {
      if (seen.has(d)) continue;
      seen.add(d);
      const at = d - margin;
      if (!(at > now) || at >= o.kernel.end) continue;
      o.kernel.addOnce(
        o.actorId,
        `${DEADLINE_GUARD_PREFIX}${isoInstant(d)}`,
        at,
        `deadline guard: ${isoInstant(d)} in ${margin / HOUR_MS} h`,
      );
    }
  };
  const tick = (t: number) => {
    poll();
    const next = t + DEADLINE_GUARD_POLL_MS;
    if (next < o.kernel.end) o.kernel.at(next, tick);
  };
  o.kernel.onAdvance(() => poll());
  tick(o.kernel.now());
}
