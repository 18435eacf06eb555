import { z } from "zod";
import { isoInstant, startOfUtcDay } from "../../common/time.js";
import { defineTool, ok, reject, type ToolDef } from "../../tools/tool.js";
import { type AsOfView, NotVisibleError } from "../../world/as-of-view.js";
import { checkOutcomes, SUBMIT_FORECASTS_TOOL, SubmitForecastsArgs } from "./forecast-args.js";
import type { OpenForecastParams } from "./params.js";
import { publicAnswer, visibleQuestion } from "./question-state.js";
import { type OpenForecastRunState, standingAt } from "./run-state.js";

export const GET_FORECASTS_TOOL = "get_forecasts";

export const GetForecastsArgs = z
  .object({
    question_id: z.string().min(1).max(300).optional().describe("one question (default: every question you forecast)"),
  })
  .strict();

/** Is a memory phase open at `now` (it ends with the day it opened in)? */
export function inMemoryPhase(state: OpenForecastRunState, now: number): boolean {
  return state.memoryPhaseSince !== null && startOfUtcDay(state.memoryPhaseSince) === startOfUtcDay(now);
}

/**
 * `submit_forecasts(question_id, outcomes)` (commit, free) and `get_forecasts(question_id?)` (free).
 * A forecast stands until replaced; each day's score uses the one standing at the day's end.
 * Rejections (free, text): unknown / unreleased question (the view's error text), a question that
 * is closed or resolved, the memory phase, and the outcome rules of `checkOutcomes`.
 */
export function forecastTools(view: AsOfView, p: OpenForecastParams, state: OpenForecastRunState): ToolDef[] {
  const submit = defineTool({
    name: SUBMIT_FORECASTS_TOOL,
    description:
      `Free. Set your forecast for one open question: {answer: probability} for at most ${p.max_outcomes} answers, each p in ` +
      "[0, 1], summing to at most 1 (mass left unassigned is not scored). It replaces your previous forecast on that " +
      "question and stands until you change it; each day is scored on the forecast standing at the day's end.",
    args: SubmitForecastsArgs,
    kind: "commit",
    run(a, c) {
      const now = c.now();
      let q: ReturnType<typeof visibleQuestion>;
      try {
        q = visibleQuestion(view, a.question_id);
      } catch (err) {
        if (err instanceof NotVisibleError) return reject(err.message);
        throw err;
      }
      const res = publicAnswer(view, q.id);
      if (res) return reject(`question ${q.id} is resolved (answer: ${JSON.stringify(res.answer)}): no more forecasts`);
      if (now >= q.resolve)
        return reject(
          `question ${q.id} closed for forecasts at ${isoInstant(q.resolve)}; its answer is not public yet`,
        );
      if (inMemoryPhase(state, now))
        return reject("memory phase: forecasts are refused now; write your memory, then call next_day again");
      const checked = checkOutcomes(a.outcomes, {
        maxOutcomes: p.max_outcomes,
        maxChars: p.max_answer_chars,
        match: p.answer_match,
      });
      if (!checked.ok) return reject(`submit_forecasts rejected: ${checked.error}`);
      const list = state.forecasts.get(q.id) ?? [];
      list.push({ at: now, outcomes: checked.outcomes });
      state.forecasts.set(q.id, list);
      const sum = Object.values(checked.outcomes).reduce((s, x) => s + x, 0);
      return ok({
        accepted: true,
        question_id: q.id,
        outcomes: checked.outcomes,
        unassigned: Number(Math.max(0, 1 - sum).toFixed(12)),
        at: isoInstant(now),
      });
    },
  });

  const get = defineTool({
    name: GET_FORECASTS_TOOL,
    description: "Free. Your standing forecasts and their history (every accepted submission, oldest first).",
    args: GetForecastsArgs,
    kind: "meta",
    run(a) {
      const ids = a.question_id === undefined ? [...state.forecasts.keys()].sort() : [a.question_id];
      if (a.question_id !== undefined) {
        try {
          visibleQuestion(view, a.question_id);
        } catch (err) {
          if (err instanceof NotVisibleError) return reject(err.message);
          throw err;
        }
      }
      return ok({
        forecasts: ids.map((id) => {
          const h = state.forecasts.get(id) ?? [];
          const s = standingAt(h, Number.POSITIVE_INFINITY);
          return {
            question_id: id,
            standing: s ? { outcomes: s.outcomes, since: isoInstant(s.at) } : null,
            history: h.map((e) => ({ at: isoInstant(e.at), outcomes: e.outcomes })),
          };
        }),
      });
    },
  });
  return [submit, get];
}
