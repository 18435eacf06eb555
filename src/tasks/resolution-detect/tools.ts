import { z } from "zod";
import { isoInstant } from "../../common/time.js";
import { defineTool, ok, reject, type ToolDef } from "../../tools/tool.js";
import { type AsOfView, NotVisibleError } from "../../world/as-of-view.js";
import type { MarketRow } from "../../world/types.js";
import { parseTimeArg } from "../reddit-tools.js";
import type { Mark, MarkBook } from "./mark-book.js";
import { isQuestion, type ResolutionDetectParams } from "./params.js";

export const LIST_QUESTIONS_TOOL = "list_questions";
export const GET_QUESTION_TOOL = "get_question";
export const GET_MARKS_TOOL = "get_marks";
export const MARK_OUTCOME_TOOL = "mark_outcome";
/** questions per `list_questions` page */
export const QUESTIONS_PAGE_SIZE = 100;

const TimeArg = z
  .union([z.number(), z.string()])
  .describe('an instant: epoch milliseconds or ISO-8601 ("2026-03-01T12:00:00Z"; a date alone or no zone is UTC)');

export const ListQuestionsArgs = z
  .object({
    added_after: TimeArg.optional().describe("only questions added strictly after this instant"),
    offset: z.number().int().min(0).optional().describe(`skip this many questions (pages of ${QUESTIONS_PAGE_SIZE})`),
  })
  .strict();

export const QuestionIdArgs = z.object({ question_id: z.string().min(1).max(200).describe("question id") }).strict();

export const GetMarksArgs = z
  .object({ question_id: z.string().min(1).max(200).optional().describe("only your mark on this question") })
  .strict();

export const MarkOutcomeArgs = z
  .object({
    question_id: z.string().min(1).max(200).describe("question id"),
    outcome: z
      .string()
      .min(1)
      .max(200)
      .describe("the outcome you say the question has resolved to (one of its outcomes)"),
    news_id: z.string().min(1).max(200).optional().describe("optional: id of a published article that supports it"),
  })
  .strict();
export type MarkOutcomeArgs = z.infer<typeof MarkOutcomeArgs>;

/**
 * A question visible now, or the one error text for ids that are unknown, not yet visible, or
 * markets that are not questions of this task (byte-identical, DESIGN invariant 2).
 */
export function visibleQuestion(view: AsOfView, id: string, p: ResolutionDetectParams): MarketRow {
  if (!isQuestion(id, p)) throw new NotVisibleError("question", id);
  try {
    return view.markets.get(id);
  } catch (err) {
    if (err instanceof NotVisibleError) throw new NotVisibleError("question", id);
    throw err;
  }
}

const markOut = (m: Mark) => ({
  question_id: m.question,
  outcome: m.outcome,
  news_id: m.news_id,
  marked_at: isoInstant(m.t),
});

/**
 * `list_questions`, `get_question`, `get_marks` (free reads) and `mark_outcome` (free commitment).
 * Nothing they return depends on a question's resolution: no close date, no status, no price, and
 * `mark_outcome` answers the same whether or not the question has resolved.
 */
export function resolutionTools(view: AsOfView, p: ResolutionDetectParams, marks: MarkBook): ToolDef[] {
  const listQuestions = defineTool({
    name: LIST_QUESTIONS_TOOL,
    description:
      `Free: the questions visible now (id, question, outcomes, when it was added), oldest first, ${QUESTIONS_PAGE_SIZE} ` +
      "per page with `total` and `next_offset`. `added_after` (epoch ms or ISO-8601) lists only questions added after it.",
    args: ListQuestionsArgs,
    kind: "data",
    run(a) {
      let after: number | null = null;
      if (a.added_after !== undefined) {
        const r = parseTimeArg("added_after", a.added_after);
        if (!r.ok) return reject(r.error);
        after = r.t;
      }
      const all = view.markets
        .list()
        .filter((m) => isQuestion(m.id, p) && (after === null || m.visible_at > after))
        .sort((x, y) => x.visible_at - y.visible_at || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
      const offset = a.offset ?? 0;
      const page = all.slice(offset, offset + QUESTIONS_PAGE_SIZE);
      return ok({
        questions: page.map((m) => ({
          id: m.id,
          question: m.question,
          outcomes: m.outcomes,
          added_at: isoInstant(m.visible_at),
        })),
        total: all.length,
        offset,
        next_offset: offset + page.length < all.length ? offset + page.length : null,
      });
    },
  });

  const getQuestion = defineTool({
    name: GET_QUESTION_TOOL,
    description: "Free: one question with its full description (resolution rules), outcomes and when it was added.",
    args: QuestionIdArgs,
    kind: "data",
    run(a) {
      const m = visibleQuestion(view, a.question_id, p);
      return ok({
        id: m.id,
        question: m.question,
        description: m.description,
        outcomes: m.outcomes,
        added_at: isoInstant(m.visible_at),
      });
    },
  });

  const getMarks = defineTool({
    name: GET_MARKS_TOOL,
    description: "Free: your accepted marks (question, outcome, cited article, when), or your mark on one question.",
    args: GetMarksArgs,
    kind: "meta",
    run(a) {
      if (a.question_id !== undefined) {
        const m = visibleQuestion(view, a.question_id, p);
        const mark = marks.get(m.id);
        return ok({ marks: mark ? [markOut(mark)] : [] });
      }
      return ok({ marks: marks.all().map(markOut) });
    },
  });

  const markOutcome = defineTool({
    name: MARK_OUTCOME_TOOL,
    description:
      "Free commitment: say that a question has resolved (or is about to) to `outcome`, optionally citing a published " +
      "article. One accepted mark per question, ever; marks cannot be withdrawn or changed. Rejected (free, nothing " +
      "used up): an unknown question, an outcome the question does not have, an unknown or unpublished article, a " +
      "question you already marked.",
    args: MarkOutcomeArgs,
    kind: "commit",
    run(a, ctx) {
      const m = visibleQuestion(view, a.question_id, p);
      if (!m.outcomes.includes(a.outcome))
        return reject(
          `mark_outcome rejected: ${JSON.stringify(a.outcome)} is not an outcome of ${m.id} (outcomes: ${m.outcomes.join(", ")})`,
        );
      const article = a.news_id !== undefined ? view.news.get(a.news_id) : null;
      const prior = marks.get(m.id);
      if (prior)
        return reject(
          `mark_outcome rejected: you already marked ${m.id} as ${prior.outcome} at ${isoInstant(prior.t)}; marks are final`,
        );
      const mark: Mark = {
        question: m.id,
        outcome: a.outcome,
        news_id: article?.id ?? null,
        t: ctx.now(),
        actor: ctx.actor,
      };
      marks.add(mark);
      return ok({ accepted: true, ...markOut(mark) });
    },
  });

  return [listQuestions, getQuestion, getMarks, markOutcome];
}
