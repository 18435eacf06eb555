import { Cron } from "croner";
const CRON_OPTIONS = { utcOffset: 0, paused: true };
function messageOf(e) {
  return e instanceof Error ? e.message : String(e);
}
function compileCron(expr) {
  if (typeof expr !== "string") throw new Error(`invalid cron expression ${String(expr)}: not a string`);
  try {
    return new Cron(expr, { ...CRON_OPTIONS });
  } catch (e) {
    throw new Error(`invalid cron expression "${expr}": ${messageOf(e)}`);
  }
}
function cronNext(job, after) {
  const d = job.nextRun(new Date(after));
  return d === null ? null : d.getTime();
}
function assertCronExpression(expr) {
  compileCron(expr);
}
function nextCronFire(expr, after) {
  return cronNext(compileCron(expr), after);
}
export {
  CRON_OPTIONS,
  assertCronExpression,
  compileCron,
  cronNext,
  nextCronFire
};
//# sourceMappingURL=cron.js.map
