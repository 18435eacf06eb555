import { DAY_MS, isoDay, isoInstant, startOfUtcDay } from "../../common/time.js";
import type { TaskRunContext } from "../task.js";
import type { OpenForecastParams } from "./params.js";
import { QuestionsNow } from "./question-state.js";
import type { OpenForecastRunState } from "./run-state.js";

/** resolved questions listed by name in one recap (the rest are counted) */
const MAX_LISTED = 30;

/**
 * The daily recap, appended to the first wake marker of each UTC day (`TaskRun.wakeNote`; `state` is the run's, which remembers the last recap):
 * the day number, articles published since the last recap, questions released and answers made
 * public since then (world facts: every condition). Under `feedback: oracle` only, the scores of
 * questions settled since the last recap (from the run's own settled outcomes).
 */
export function recapNote(
  ctx: TaskRunContext<OpenForecastParams>,
  state: OpenForecastRunState,
  wake: { at: number },
): string | null {
  const day = startOfUtcDay(wake.at);
  if (state.lastRecapDay !== null && day <= state.lastRecapDay) return null;
  const prevAt = state.lastRecapAt;
  state.lastRecapDay = day;
  state.lastRecapAt = wake.at;
  const days = Math.round((ctx.sim_end - ctx.sim_start) / DAY_MS);
  const n = Math.floor((day - startOfUtcDay(ctx.sim_start)) / DAY_MS) + 1;
  const view = ctx.view;
  const qn = new QuestionsNow(view);
  const open = qn.questions.filter((q) => qn.status(q) === "open").length;
  const lines = [`Recap, day ${n} of ${days} (${isoDay(day)}): ${open} question${open === 1 ? "" : "s"} open.`];
  if (prevAt !== null) {
    const parts: string[] = [];
    if (ctx.world.manifest.streams.news ?? 0) {
      const articles = view.news.count({ from: prevAt + 1, to: wake.at });
      parts.push(`${articles} new article${articles === 1 ? "" : "s"}`);
    }
    const released = qn.questions.filter((q) => q.open > prevAt).length;
    parts.push(`${released} new question${released === 1 ? "" : "s"}`);
    lines.push(`Since ${isoInstant(prevAt)}: ${parts.join(", ")}.`);
    const resolved = view.questions.resolutions({ since: prevAt });
    if (resolved.length > 0) {
      const named = resolved.slice(0, MAX_LISTED).map((r) => `${r.question} → ${r.answer}`);
      const more = resolved.length - named.length;
      lines.push(
        `Resolved: ${named.join("; ")}${more > 0 ? `; and ${more} more (list_questions with status "resolved")` : ""}.`,
      );
    }
    const channel = ctx.oracleFeedback;
    if (channel) {
      const scores = channel.settled(prevAt).filter((o) => o.key.startsWith("q:"));
      if (scores.length > 0) {
        const named = scores
          .slice(0, MAX_LISTED)
          .map((o) => `${o.key.slice(2)} ${o.credit === null ? "n/a" : o.credit.toFixed(3)}`);
        const more = scores.length - named.length;
        lines.push(
          `Your scores (mean daily score per question, 1 is perfect): ${named.join("; ")}${more > 0 ? `; and ${more} more` : ""}.`,
        );
      }
    }
  }
  return lines.join("\n");
}
