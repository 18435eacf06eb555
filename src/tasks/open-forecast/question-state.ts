import type { AsOfView } from "../../world/as-of-view.js";
import { NotVisibleError } from "../../world/as-of-view.js";
import type { QuestionResolutionRow, QuestionRow } from "../../world/types.js";

/**
 * A question's state for the agent at `now`: `open` (open ≤ now < resolve, answer not public:
 * forecasts accepted), `closed` (past its resolve time, answer not public yet) or `resolved` (its
 * answer is a public world fact). Questions before their open date do not exist for the agent.
 */
export type QuestionStatus = "open" | "closed" | "resolved";

/** The agent-visible questions (release order: open, id) and public answers at the view's `now` (both bounded in SQL, then open ≤ now). */
export class QuestionsNow {
  readonly now: number;
  readonly questions: QuestionRow[];
  readonly resolutions: Map<string, QuestionResolutionRow>;

  constructor(view: AsOfView) {
    this.now = view.now();
    // released on the open date: a row visible early (a world built that way) is still held back
    this.questions = view.questions
      .list()
      .filter((q) => q.open <= this.now)
      .sort((a, b) => a.open - b.open || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    this.resolutions = new Map(view.questions.resolutions().map((r) => [r.question, r]));
  }

  status(q: QuestionRow): QuestionStatus {
    if (this.resolutions.has(q.id)) return "resolved";
    return this.now < q.resolve ? "open" : "closed";
  }
}

/** The visible, released question `id`; unknown, not yet visible and not yet open ids throw the same error. */
export function visibleQuestion(view: AsOfView, id: string): QuestionRow {
  const q = view.questions.get(id);
  if (q.open > view.now()) throw new NotVisibleError("question", id);
  return q;
}

/** The public answer of `id` visible now, or null. */
export function publicAnswer(view: AsOfView, id: string): QuestionResolutionRow | null {
  for (const r of view.questions.resolutions()) if (r.question === id) return r;
  return null;
}
