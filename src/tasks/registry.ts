import { dailyDigestTask } from "./daily-digest/index.js";
import { priceCheckTask } from "./price-check/index.js";
import type { TaskDefinition } from "./task.js";

/** Every task, by id. Adding a task touches only its folder and this line. */
export const TASKS: readonly TaskDefinition<never>[] = [
  dailyDigestTask,
  priceCheckTask,
] as unknown as TaskDefinition<never>[];

export function getTask(id: string): TaskDefinition<unknown> {
  const t = TASKS.find((x) => x.id === id);
  if (!t)
    throw new Error(`unknown task "${id}"; available: ${TASKS.map((x) => x.id).join(", ")} (see \`relive tasks\`)`);
  return t as unknown as TaskDefinition<unknown>;
}
