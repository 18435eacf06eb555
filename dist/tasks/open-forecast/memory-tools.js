import { z } from "zod";
import { isoDay, isoInstant, startOfUtcDay } from "../../kernel/day.js";
import { defineTool, ok, reject } from "../../tools/tool.js";
import { NotVisibleError } from "../../world/as-of-view.js";
import { visibleQuestion } from "./question-state.js";
const WRITE_NOTE_TOOL = "write_note";
const WRITE_INSIGHTS_TOOL = "write_insights";
const READ_MEMORY_TOOL = "read_memory";
const WriteNoteArgs = z.object({
  question_id: z.string().min(1).max(300).describe("the question the note is about"),
  note: z.string().describe("the whole note (replaces the previous one; an empty string deletes it)")
}).strict();
const WriteInsightsArgs = z.object({ insights: z.string().describe("your cross-question insights, the whole text (replaces the previous)") }).strict();
const ReadMemoryArgs = z.object({
  question_id: z.string().min(1).max(300).optional().describe("only this question's note"),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional().describe(`"YYYY-MM-DD" of a past day: the memory as it stood at that day's end (read-only); default: now`)
}).strict();
function memoryTools(view, p, state) {
  const writeNote = defineTool({
    name: WRITE_NOTE_TOOL,
    description: `Free. Replace your note on one question (at most ${p.note_max_chars} characters; "" deletes it). Past days' memory stays as it was.`,
    args: WriteNoteArgs,
    kind: "meta",
    run(a, c) {
      try {
        visibleQuestion(view, a.question_id);
      } catch (err) {
        if (err instanceof NotVisibleError) return reject(err.message);
        throw err;
      }
      if (a.note.length > p.note_max_chars)
        return reject(`note of ${a.note.length} characters: at most ${p.note_max_chars}`);
      state.memory.write({ at: c.now(), kind: "note", question: a.question_id, text: a.note });
      return ok({ saved: true, question_id: a.question_id, chars: a.note.length });
    }
  });
  const writeInsights = defineTool({
    name: WRITE_INSIGHTS_TOOL,
    description: `Free. Replace your cross-question insights (one text, at most ${p.insights_max_chars} characters). Past days' memory stays as it was.`,
    args: WriteInsightsArgs,
    kind: "meta",
    run(a, c) {
      if (a.insights.length > p.insights_max_chars)
        return reject(`insights of ${a.insights.length} characters: at most ${p.insights_max_chars}`);
      state.memory.write({ at: c.now(), kind: "insights", text: a.insights });
      return ok({ saved: true, chars: a.insights.length });
    }
  });
  const read = defineTool({
    name: READ_MEMORY_TOOL,
    description: "Free. Your memory: notes per question and cross-question insights, as they stand now, or as they stood at the end of a past day (`date`, read-only snapshot).",
    args: ReadMemoryArgs,
    kind: "meta",
    run(a, c) {
      const now = c.now();
      let m = state.memory.stateBefore(Number.POSITIVE_INFINITY);
      let asOf = isoInstant(now);
      if (a.date !== void 0) {
        const day = Date.parse(`${a.date}T00:00:00Z`);
        if (!Number.isFinite(day)) return reject(`date "${a.date}" is not a valid date`);
        if (day >= startOfUtcDay(now))
          return reject(
            `no snapshot for ${a.date}: snapshots exist for days that have ended (up to ${isoDay(startOfUtcDay(now) - 1)}); omit date for today's memory`
          );
        m = state.memory.snapshot(day);
        asOf = `end of ${a.date}`;
      }
      if (a.question_id !== void 0) {
        try {
          visibleQuestion(view, a.question_id);
        } catch (err) {
          if (err instanceof NotVisibleError) return reject(err.message);
          throw err;
        }
        return ok({ as_of: asOf, question_id: a.question_id, note: m.notes[a.question_id] ?? null });
      }
      return ok({ as_of: asOf, notes: m.notes, insights: m.insights });
    }
  });
  return [writeNote, writeInsights, read];
}
export {
  READ_MEMORY_TOOL,
  ReadMemoryArgs,
  WRITE_INSIGHTS_TOOL,
  WRITE_NOTE_TOOL,
  WriteInsightsArgs,
  WriteNoteArgs,
  memoryTools
};
//# sourceMappingURL=memory-tools.js.map
