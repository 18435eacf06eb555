import { z } from "zod";
import { isoInstant } from "../../common/time.js";
import { defineTool, ok, reject, type ToolDef } from "../../tools/tool.js";
import { type AsOfView, NotVisibleError } from "../../world/as-of-view.js";
import type { QuestionResolutionRow, QuestionRow } from "../../world/types.js";
import type { OpenForecastParams } from "./params.js";
import { publicAnswer, type QuestionStatus, QuestionsNow, visibleQuestion } from "./question-state.js";
import { type OpenForecastRunState, standingAt } from "./run-state.js";

export const LIST_QUESTIONS_TOOL = "list_questions";
export const GET_QUESTION_TOOL = "get_question";

export const ListQuestionsArgs = z
  .object({
    status: z
      .enum(["open", "closed", "resolved", "all"])
      .optional()
      .describe(
        '"open" (default): accepting forecasts; "closed": past their resolve time, answer not yet public; "resolved": answer public; "all"',
      ),
    offset: z.number().int().min(0).optional().describe("skip this many questions (pages in list order)"),
  })
  .strict();

export const GetQuestionArgs = z.object({ id: z.string().min(1).max(300).describe("question id") }).strict();

/**
 * The crowd forecast of a question where the world carries one: the last visible price of outcome
 * "Yes" of the market with the question's id (ForecastBench market questions: the value at the
 * question set's freeze date). Null elsewhere.
 */
export function crowdOf(view: AsOfView, id: string): { p_yes: number; as_of: string } | null {
  const yes = view.markets.lastPrice(id, view.now()).find((r) => r.outcome === "Yes");
  return yes ? { p_yes: yes.p, as_of: isoInstant(yes.t) } : null;
}

function cut(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

/**
 * `list_questions(status?, offset?)` and `get_question(id)` (free). Questions exist for the agent
 * from their open date on (the view bounds visible_at in SQL; open ≤ now is checked too, so a row
 * visible early is still held back). Resolved questions carry their public answer.
 */
/** `tuned`: the params with the run's tuned values (`list_page_size` is tunable), read at each call */
export function questionTools(
  view: AsOfView,
  p: OpenForecastParams,
  state: OpenForecastRunState,
  tuned: () => OpenForecastParams = () => p,
): ToolDef[] {
  const entry = (q: QuestionRow, status: QuestionStatus, res: QuestionResolutionRow | null, full: boolean) => {
    const crowd = crowdOf(view, q.id);
    const standing = standingAt(state.forecasts.get(q.id), Number.POSITIVE_INFINITY);
    return {
      id: q.id,
      title: q.title,
      status,
      answer_type: q.answer_type,
      open: isoInstant(q.open),
      resolve: isoInstant(q.resolve),
      background: full ? q.background : cut(q.background, p.list_background_chars),
      ...(full ? { criteria: q.criteria } : {}),
      ...(crowd ? { crowd } : {}),
      ...(res ? { answer: res.answer, resolved_at: isoInstant(res.resolved_at) } : {}),
      your_forecast: standing ? standing.outcomes : null,
    };
  };

  // the questions and public answers at one instant never change: reuse them within the instant
  let cached: QuestionsNow | null = null;
  const questionsNow = () => {
    if (cached === null || cached.now !== view.now()) cached = new QuestionsNow(view);
    return cached;
  };

  const list = defineTool({
    name: LIST_QUESTIONS_TOOL,
    description:
      `Free. Questions released so far, ${p.list_page_size} per page in release order: id, title, status, open and resolve ` +
      `times, the start of the background (get_question has all of it and the resolution criteria), the crowd forecast ` +
      "where one exists, the public answer of resolved questions, and your standing forecast.",
    args: ListQuestionsArgs,
    kind: "meta",
    run(a) {
      const qn = questionsNow();
      const want = a.status ?? "open";
      const rows = qn.questions.filter((q) => want === "all" || qn.status(q) === want);
      const offset = a.offset ?? 0;
      const page = rows.slice(offset, offset + tuned().list_page_size);
      const next = offset + page.length;
      return ok({
        now: isoInstant(qn.now),
        status: want,
        total: rows.length,
        offset,
        next_offset: next < rows.length ? next : null,
        questions: page.map((q) => entry(q, qn.status(q), qn.resolutions.get(q.id) ?? null, false)),
      });
    },
  });

  const get = defineTool({
    name: GET_QUESTION_TOOL,
    description:
      "Free. One question in full: title, background, resolution criteria, status, crowd forecast where one exists, the public answer once resolved, and your standing forecast.",
    args: GetQuestionArgs,
    kind: "meta",
    run(a) {
      try {
        const q = visibleQuestion(view, a.id);
        const res = publicAnswer(view, q.id);
        return ok(entry(q, res ? "resolved" : view.now() < q.resolve ? "open" : "closed", res, true));
      } catch (err) {
        if (err instanceof NotVisibleError) return reject(err.message);
        throw err;
      }
    },
  });
  return [list, get];
}
