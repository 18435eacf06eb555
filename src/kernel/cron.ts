import { Cron } from "croner";

/**
 * Cron expressions on the simulated clock (croner syntax: 5 fields, or 6/7 with seconds/year,
 * always UTC). Jobs are created paused and only asked `nextRun(instant)`: croner never schedules
 * a timer and never reads wall time here.
 *
 * `utcOffset: 0` is the same instant arithmetic as `timezone: "UTC"` (UTC has no DST; a test checks
 * they agree) but skips croner's per-call Intl time-zone conversion, which makes `nextRun` ~6x
 * slower.
 */
export const CRON_OPTIONS = { utcOffset: 0, paused: true } as const;

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** A paused UTC croner job; throws an Error naming the expression when it is invalid. */
export function compileCron(expr: string): Cron {
  if (typeof expr !== "string") throw new Error(`invalid cron expression ${String(expr)}: not a string`);
  try {
    return new Cron(expr, { ...CRON_OPTIONS });
  } catch (e) {
    throw new Error(`invalid cron expression "${expr}": ${messageOf(e)}`);
  }
}

/** The first fire of `job` strictly after `after` (epoch ms), or null if it never fires again. */
export function cronNext(job: Cron, after: number): number | null {
  const d = job.nextRun(new Date(after));
  return d === null ? null : d.getTime();
}

/** Throws an Error naming `expr` if it is not a valid cron expression (for tool argument checks). */
export function assertCronExpression(expr: string): void {
  compileCron(expr);
}

/** The first fire of `expr` strictly after `after` (UTC epoch ms), or null if it never fires again. */
export function nextCronFire(expr: string, after: number): number | null {
  return cronNext(compileCron(expr), after);
}
