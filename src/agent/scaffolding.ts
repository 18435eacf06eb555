import { DAY_MS, isoDay, nextUtcMidnight } from "../common/time.js";

/** FutureSim's light scaffold (spec/harness.md "Scaffolding options"): the switches the ReAct agent owns. Off by default. */
export interface Scaffolding {
  /** after each tool result, a line with the context tokens used and left */
  context_feedback: boolean;
  /** a wake line naming the goal and the day (v1), plus the open items (v2), plus what is due tomorrow (v3) */
  guidance: "none" | "v1" | "v2" | "v3";
  /** the daily checklist in the system prompt (`procedureText`) */
  procedure: boolean;
}

export const NO_SCAFFOLDING: Scaffolding = { context_feedback: false, guidance: "none", procedure: false };

/** The line appended to a tool result under `context_feedback`. */
export function contextFeedbackLine(used: number, limit: number): string {
  return `(context: ${used} tokens used of ${limit}, ${Math.max(0, limit - used)} left)`;
}

export interface GuidanceInput {
  /** the task's goal in a few words (its title and primary metric) */
  goal: string;
  at: number;
  sim_start: number;
  sim_end: number;
  /** open items of the state block (v2 and v3) */
  openItems: number;
  /** deadlines known now, in [now, until) (v3; the task's `TaskRun.deadlines`) */
  deadlines: (until: number) => readonly number[];
}

const hhmm = (t: number) => new Date(t).toISOString().slice(11, 16);

/** The guidance line of a wake (null under `none`). */
export function guidanceLine(level: Scaffolding["guidance"], g: GuidanceInput): string | null {
  switch (level) {
    case "none":
      return null;
    case "v1":
    case "v2":
    case "v3": {
      const day = Math.floor((g.at - g.sim_start) / DAY_MS) + 1;
      const days = Math.ceil((g.sim_end - g.sim_start) / DAY_MS);
      const parts = [`(guidance: your goal is ${g.goal}; today is ${isoDay(g.at)}, day ${day} of ${days}.`];
      if (level !== "v1")
        parts.push(`${g.openItems} item${g.openItems === 1 ? "" : "s"} still open: revisit stale commitments.`);
      if (level === "v3") {
        const from = nextUtcMidnight(g.at);
        // deadlines after the run's end are not due: nothing is scored there
        const due = g.deadlines(from + DAY_MS).filter((t) => t >= from && t < from + DAY_MS && t < g.sim_end);
        parts.push(
          due.length === 0
            ? `Nothing is due tomorrow (${isoDay(from)}).`
            : `Due tomorrow (${isoDay(from)}): ${due.length} deadline${due.length === 1 ? "" : "s"}, at ${listTimes(due)} UTC.`,
        );
      }
      return `${parts.join(" ")})`;
    }
    default: {
      const never: never = level;
      throw new Error(`unknown guidance level ${String(never)}`);
    }
  }
}

/** Times of day, sorted and de-duplicated; more than 8 are cut with a count. */
function listTimes(ts: readonly number[]): string {
  const times = [...new Set([...ts].sort((a, b) => a - b).map(hhmm))];
  return times.length <= 8 ? times.join(", ") : `${times.slice(0, 8).join(", ")} and ${times.length - 8} more`;
}
