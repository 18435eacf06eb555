import { isoInstant } from "../common/time.js";

/** One section of the state block (the shape of `StateSection` in tasks/task.ts and of a trigger's own state). */
export interface StateBlockSection {
  title: string;
  lines: readonly string[];
  /** open items among `lines` (absent: every line) */
  open?: number;
}

/**
 * The state block of a wake: the task's decision-critical state (pending claims, open duties,
 * standing forecasts, rights already used) and the trigger's own (pending schedules), rendered
 * into the newest user turn of each wake, never into the system prompt, so the cached prefix stays
 * stable and compaction can never drop it. A section with no lines says "none". Null when there
 * are no sections at all (nothing to show).
 */
export function renderStateBlock(sections: readonly StateBlockSection[], at: number): string | null {
  if (sections.length === 0) return null;
  const body = sections.map((s) =>
    [`${s.title}:`, ...(s.lines.length ? s.lines.map((l) => `- ${l}`) : ["- none"])].join("\n"),
  );
  return [`[state as of ${isoInstant(at)}]`, ...body].join("\n");
}

/** Open items over all sections (guidance v2). */
export const openItems = (sections: readonly StateBlockSection[]) =>
  sections.reduce((n, s) => n + (s.open ?? s.lines.length), 0);
