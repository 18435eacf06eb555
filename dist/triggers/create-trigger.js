import { cronTrigger } from "./cron.js";
import { sleepTrigger } from "./sleep.js";
import { watcherTrigger } from "./watcher-trigger.js";
const TRIGGERS_FOR_MODELS = ["sleep", "watcher", "cron"];
function createTrigger(o) {
  switch (o.kind) {
    case "sleep":
      return sleepTrigger(o.slot);
    case "cron":
      return cronTrigger({
        kernel: o.kernel,
        actorId: o.actorId,
        slot: o.slot,
        baseSchedule: o.baseSchedule,
        base: o.cronBase
      });
    case "watcher":
      if (!o.watcher) throw new Error("the watcher trigger needs its workspace and tool wrappers");
      return watcherTrigger({ ...o.watcher, actorId: o.actorId, slot: o.slot });
    default: {
      const never = o.kind;
      throw new Error(`unknown trigger ${String(never)}`);
    }
  }
}
export {
  TRIGGERS_FOR_MODELS,
  createTrigger
};
//# sourceMappingURL=create-trigger.js.map
