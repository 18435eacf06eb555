import { z } from "zod";
import { isoDay, isoInstant, nextUtcMidnight } from "../../common/time.js";
import { defineTool, ok, type ToolDef } from "../../tools/tool.js";
import { inMemoryPhase } from "./forecast-tools.js";
import type { OpenForecastRunState } from "./run-state.js";

export const NEXT_DAY_TOOL = "next_day";

/**
 * `next_day()` (free; the sleep trigger of an LLM agent only): ends this wake and sleeps until the
 * next 00:00 UTC, where the wake carries the day's recap. With the memory phase on, the first call
 * of a day opens the memory phase instead (forecasts refused, the clock does not move) and the
 * second call advances the day.
 */
export function nextDayTool(
  sleepUntil: (until: number, tool: string, actor: string) => void,
  state: OpenForecastRunState,
  memoryPhase: boolean,
): ToolDef {
  return defineTool({
    name: NEXT_DAY_TOOL,
    description: memoryPhase
      ? "Free. End the day. The first call opens a memory phase (save notes with memory_append; forecasts are refused); " +
        "the second call sleeps until the next 00:00 UTC, where you wake with the day's recap."
      : "Free. End this wake and sleep until the next 00:00 UTC; you wake with the day's recap (new articles, resolved questions).",
    args: z.object({}).strict(),
    kind: "meta",
    run(_a, c) {
      const now = c.now();
      const next = nextUtcMidnight(now);
      if (memoryPhase && !inMemoryPhase(state, now)) {
        state.memoryPhaseSince = now;
        return ok({
          memory_phase: true,
          message: `Memory phase: save what you learned today with memory_append (forecasts are refused), then call next_day again to move to ${isoDay(next)}.`,
        });
      }
      state.memoryPhaseSince = null;
      sleepUntil(next, NEXT_DAY_TOOL, c.actor);
      return ok({ sleeping_until: isoInstant(next) });
    },
  });
}
