import { breakoutNewsTask } from "./breakout-news/index.js";
import { brokerOpsTask } from "./broker-ops/index.js";
import { dailyDigestTask } from "./daily-digest/index.js";
import { eventResponseTask } from "./event-response/index.js";
import { filingTrackerTask } from "./filing-tracker/index.js";
import { forecastPortfolioTask } from "./forecast-portfolio/index.js";
import { openForecastTask } from "./open-forecast/index.js";
import { popularityTask } from "./popularity/index.js";
import { priceCheckTask } from "./price-check/index.js";
import { resolutionDetectTask } from "./resolution-detect/index.js";
import { riskPortfolioTask } from "./risk-portfolio/index.js";
import type { AnyTask } from "./task.js";

/** Every task, by id, in the order of tasks.md. Adding a task touches only its folder and this list. */
export const TASKS: readonly AnyTask[] = [
  breakoutNewsTask,
  resolutionDetectTask,
  popularityTask,
  dailyDigestTask,
  priceCheckTask,
  forecastPortfolioTask,
  filingTrackerTask,
  brokerOpsTask,
  openForecastTask,
  riskPortfolioTask,
  eventResponseTask,
];

/** Built-ins plus tasks registered at run time (task modules, library users). */
const registered: AnyTask[] = [...TASKS];

/**
 * Registers a task defined outside the repo (`defineTask`), so runs, grids, resume and rescore
 * can name it. Registering the same object again is a no-op; another task with a taken id is refused.
 */
export function registerTask(task: AnyTask): void {
  const taken = registered.find((x) => x.id === task.id);
  if (taken === task) return;
  if (taken) throw new Error(`registerTask: a task with id "${task.id}" is already registered`);
  if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(task.id))
    throw new Error(`registerTask: task id "${task.id}" must match ^[a-z0-9][a-z0-9-]{0,63}$`);
  registered.push(task);
}

/** Every task a run can name: the built-ins in spec order, then registered ones. */
export function allTasks(): readonly AnyTask[] {
  return registered;
}

export function getTask(id: string): AnyTask {
  const t = registered.find((x) => x.id === id);
  if (!t)
    throw new Error(
      `unknown task "${id}"; available: ${registered.map((x) => x.id).join(", ")} (see \`relive tasks\`; a task of your own loads with --task-module FILE)`,
    );
  return t;
}
