import { z } from "zod";
import { isoDay, isoInstant, nextUtcMidnight } from "../../kernel/day.js";
import { defineTool, ok } from "../../tools/tool.js";
import { inMemoryPhase } from "./forecast-tools.js";
const NEXT_DAY_TOOL = "next_day";
function nextDayTool(sleepUntil, state, memoryPhase) {
  return defineTool({
    name: NEXT_DAY_TOOL,
    description: memoryPhase ? "Free. End the day. The first call opens a memory phase (write your notes and insights; forecasts are refused); the second call sleeps until the next 00:00 UTC, where you wake with the day's recap." : "Free. End this wake and sleep until the next 00:00 UTC; you wake with the day's recap (new articles, resolved questions).",
    args: z.object({}).strict(),
    kind: "meta",
    run(_a, c) {
      const now = c.now();
      const next = nextUtcMidnight(now);
      if (memoryPhase && !inMemoryPhase(state, now)) {
        state.memoryPhaseSince = now;
        return ok({
          memory_phase: true,
          message: `Memory phase: save what you learned today with write_note / write_insights (forecasts are refused), then call next_day again to move to ${isoDay(next)}.`
        });
      }
      state.memoryPhaseSince = null;
      sleepUntil(next, NEXT_DAY_TOOL, c.actor);
      return ok({ sleeping_until: isoInstant(next) });
    }
  });
}
export {
  NEXT_DAY_TOOL,
  nextDayTool
};
//# sourceMappingURL=day-tools.js.map
