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
const TASKS = [
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
  eventResponseTask
];
const registered = [...TASKS];
function registerTask(task) {
  const taken = registered.find((x) => x.id === task.id);
  if (taken === task) return;
  if (taken) throw new Error(`registerTask: a task with id "${task.id}" is already registered`);
  if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(task.id))
    throw new Error(`registerTask: task id "${task.id}" must match ^[a-z0-9][a-z0-9-]{0,63}$`);
  registered.push(task);
}
function allTasks() {
  return registered;
}
function getTask(id) {
  const t = registered.find((x) => x.id === id);
  if (!t)
    throw new Error(
      `unknown task "${id}"; available: ${registered.map((x) => x.id).join(", ")} (see \`relive tasks\`; a task of your own loads with --task-module FILE)`
    );
  return t;
}
export {
  TASKS,
  allTasks,
  getTask,
  registerTask
};
//# sourceMappingURL=registry.js.map
