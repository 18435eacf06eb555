import { breakoutNewsTask } from "./breakout-news/index.js";
import { brokerOpsTask } from "./broker-ops/index.js";
import { dailyDigestTask } from "./daily-digest/index.js";
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
  riskPortfolioTask
];
function getTask(id) {
  const t = TASKS.find((x) => x.id === id);
  if (!t)
    throw new Error(`unknown task "${id}"; available: ${TASKS.map((x) => x.id).join(", ")} (see \`relive tasks\`)`);
  return t;
}
export {
  TASKS,
  getTask
};
//# sourceMappingURL=registry.js.map
