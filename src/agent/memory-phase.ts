import { HOUR_MS, startOfUtcDay } from "../common/time.js";

/** the memory phase opens at the agent's first wake at or after this hour (UTC) of a simulated day */
export const MEMORY_PHASE_HOUR = 23;
/** ... or when the transcript reaches this share of its token budget */
export const MEMORY_PHASE_CONTEXT_SHARE = 0.9;
/** model calls one memory phase may take (read, then append, then done) */
export const MEMORY_PHASE_CALLS = 3;

export type MemoryPhaseReason = "day_end" | "context_full";

/** true when `t` is at or after 23:00 UTC of its day */
export const lateInDay = (t: number) => t - startOfUtcDay(t) >= MEMORY_PHASE_HOUR * HOUR_MS;

/** The user turn that opens a memory phase. */
export function memoryPhasePrompt(why: MemoryPhaseReason, tools: readonly string[]): string {
  const head =
    why === "day_end"
      ? "(memory phase: the day is ending."
      : "(memory phase: your conversation is nearly at its context limit and its oldest part will be dropped.";
  return (
    `${head} Save what you will need later with ${tools.join(" / ")}. Only these tools run in this turn; every other ` +
    "call, commitments included, is refused. Reply without a tool call when you are done.)"
  );
}

export const MEMORY_PHASE_OVER = "(memory phase over: every tool works again)";

/** the tool result of a call refused in the memory phase */
export const memoryPhaseRefusal = (tool: string, tools: readonly string[]) =>
  `ERROR: memory phase: only ${tools.join(" and ")} run in this turn; ${tool} was not run`;

/** the line a daily reset adds to the first wake marker of a day */
export const DAILY_RESET_LINE =
  "(a new day: the conversation so far was cleared; your memory (memory_read) and the state of your commitments carry over)";
