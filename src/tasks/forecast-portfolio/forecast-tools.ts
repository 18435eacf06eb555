import { z } from "zod";
import { isoInstant } from "../../common/time.js";
import { defineTool, ok, reject, type ToolDef } from "../../tools/tool.js";
import type { AsOfView } from "../../world/as-of-view.js";
import { parseTimeArg } from "../reddit-tools.js";
import type { Forecast } from "./brier.js";
import { canonicalForecast, ForecastArg } from "./forecast-rule.js";
import type { ForecastPortfolioParams } from "./params.js";
import { type AgentQuestion, AgentQuestions, type QuestionStatus } from "./questions.js";

export const LIST_QUESTIONS_TOOL = "list_questions";
export const GET_QUESTION_TOOL = "get_question";
export const GET_FORECASTS_TOOL = "get_forecasts";
export const SUBMIT_FORECAST_TOOL = "submit_forecast";

export interface AcceptedForecast {
  t: number;
  forecast: Forecast;
  news_id: string | null;
}

/** The run's accepted forecasts per question, in submission order (tool state, rebuilt by re-running the episode). */
export class ForecastBook {
  readonly byQuestion = new Map<string, AcceptedForecast[]>();

  add(question: string, f: AcceptedForecast): void {
    const list = this.byQuestion.get(question) ?? [];
    list.push(f);
    this.byQuestion.set(question, list);
  }

  standing(question: string): AcceptedForecast | null {
    return this.byQuestion.get(question)?.at(-1) ?? null;
  }
}

export const SubmitForecastArgs = z
  .object({
    question_id: z.string().min(1).max(200).describe("question id"),
    forecast: ForecastArg,
    news_id: z.string().min(1).max(200).optional().describe("optional: id of a published article that motivates it"),
  })
  .strict();

export const ListQuestionsArgs = z
  .object({
    status: z
      .enum(["open", "closed", "resolved", "all"])
      .optional()
      .describe(
        '"open": accepting forecasts; "closed": past its scheduled end, result not yet public; "resolved": result public; "all" (default)',
      ),
    added_after: z
      .union([z.number(), z.string()])
      .optional()
      .describe("only questions that became available after this instant (epoch ms or ISO-8601)"),
  })
  .strict();

const QuestionIdArgs = z.object({ question_id: z.string().min(1).max(200).describe("question id") }).strict();

const forecastOut = (f: AcceptedForecast) => ({
  submitted_at: isoInstant(f.t),
  forecast: f.forecast,
  news_id: f.news_id,
});

/**
 * `list_questions`, `get_question`, `get_forecasts` (free) and `submit_forecast` (commit, free).
 * Every read goes through the as-of view; prices are never shown. A rejected submission is free
 * and leaves the standing forecast unchanged.
 */
export function forecastTools(o: { view: AsOfView; params: ForecastPortfolioParams; book: ForecastBook }): ToolDef[] {
  const { view, params: p, book } = o;
  const questions = new AgentQuestions(view, p.market_prefix);

  const summary = (q: AgentQuestion, full: boolean) => {
    const standing = book.standing(q.market.id);
    return {
      id: q.market.id,
      question: q.market.question,
      ...(full ? { description: q.market.description } : {}),
      outcomes: q.market.outcomes,
      open: isoInstant(q.market.open),
      scheduled_end: isoInstant(q.market.scheduled_end),
      status: q.status,
      resolution: q.resolution ? { result: q.resolution.result, closed_at: isoInstant(q.resolution.closed_at) } : null,
      my_forecast: standing ? standing.forecast : null,
      my_forecast_since: standing ? isoInstant(standing.t) : null,
      submissions: book.byQuestion.get(q.market.id)?.length ?? 0,
    };
  };

  const list = defineTool({
    name: LIST_QUESTIONS_TOOL,
    description:
      "Free: the questions available now, each with its outcomes, open and scheduled end, status (open: accepting " +
      "forecasts; closed: past its scheduled end, result not yet public; resolved: result public, shown) and your " +
      "standing forecast (null = the uniform default). `status` filters (default all); `added_after` (epoch ms or " +
      "ISO-8601) keeps the questions that became available after that instant.",
    args: ListQuestionsArgs,
    kind: "meta",
    run(a) {
      let after: number | null = null;
      if (a.added_after !== undefined) {
        const r = parseTimeArg("added_after", a.added_after);
        if (!r.ok) return reject(r.error);
        after = r.t;
      }
      const want: QuestionStatus | "all" = a.status ?? "all";
      const qs = questions
        .list()
        .filter((q) => (want === "all" || q.status === want) && (after === null || q.available_at > after));
      return ok({ now: isoInstant(view.now()), count: qs.length, questions: qs.map((q) => summary(q, false)) });
    },
  });

  const get = defineTool({
    name: GET_QUESTION_TOOL,
    description:
      "Free: one question in full (with its description and resolution criteria) and your standing forecast.",
    args: QuestionIdArgs,
    kind: "meta",
    run(a) {
      return ok(summary(questions.get(a.question_id), true));
    },
  });

  const forecasts = defineTool({
    name: GET_FORECASTS_TOOL,
    description:
      "Free: your forecasts. With `question_id`: the standing forecast and every submission for that question. " +
      "Without: the standing forecast of every question you have forecast.",
    args: z.object({ question_id: z.string().min(1).max(200).optional().describe("question id (optional)") }).strict(),
    kind: "meta",
    run(a) {
      if (a.question_id !== undefined) {
        const q = questions.get(a.question_id);
        const hist = book.byQuestion.get(q.market.id) ?? [];
        const standing = hist.at(-1);
        return ok({
          question_id: q.market.id,
          status: q.status,
          standing: standing ? standing.forecast : null,
          standing_since: standing ? isoInstant(standing.t) : null,
          history: hist.map(forecastOut),
        });
      }
      return ok({
        forecasts: [...book.byQuestion.entries()]
          .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
          .map(([id, hist]) => ({
            question_id: id,
            standing: hist.at(-1)!.forecast,
            standing_since: isoInstant(hist.at(-1)!.t),
            submissions: hist.length,
          })),
      });
    },
  });

  const submit = defineTool({
    name: SUBMIT_FORECAST_TOOL,
    description:
      'Free: set your standing forecast for a question, e.g. {"Yes": 0.7, "No": 0.3}. Each probability in [0, 1], ' +
      "Σp ≤ 1 (less is allowed: unassigned mass is not scored and an outcome you leave out counts as 0). It stands " +
      "until you submit another. Rejected (free): an unknown question or one not open yet, a closed or resolved " +
      "question, an unknown outcome, p outside [0, 1], Σp > 1, an unknown or unpublished `news_id`.",
    args: SubmitForecastArgs,
    kind: "commit",
    run(a, ctx) {
      const now = ctx.now();
      const q = questions.get(a.question_id);
      if (q.status === "resolved")
        return reject(
          `submit_forecast rejected: question ${q.market.id} is resolved (${q.resolution!.result} at ${isoInstant(q.resolution!.closed_at)}); forecasts are closed`,
        );
      if (q.status === "closed")
        return reject(
          `submit_forecast rejected: question ${q.market.id} closed at its scheduled end ${isoInstant(q.market.scheduled_end)}; forecasts are closed`,
        );
      const c = canonicalForecast(a.forecast, q.market.outcomes, p.sum_tolerance);
      if (!c.ok) return reject(`submit_forecast rejected: ${c.error}`);
      if (a.news_id !== undefined) view.news.get(a.news_id);
      const accepted: AcceptedForecast = { t: now, forecast: c.forecast, news_id: a.news_id ?? null };
      book.add(q.market.id, accepted);
      return ok({
        accepted: true,
        question_id: q.market.id,
        forecast: c.forecast,
        unassigned: Math.max(0, Math.round((1 - c.sum) * 1e9) / 1e9),
        standing_since: isoInstant(now),
      });
    },
  });

  return [list, get, forecasts, submit];
}
