import { z } from "zod";
import { isoInstant, startOfUtcDay } from "../../kernel/day.js";
import { defineTool, ok, reject } from "../../tools/tool.js";
import { NotVisibleError } from "../../world/as-of-view.js";
import { checkOutcomes, SUBMIT_FORECASTS_TOOL, SubmitForecastsArgs } from "./forecast-args.js";
import { publicAnswer, visibleQuestion } from "./question-state.js";
import { standingAt } from "./run-state.js";
const GET_FORECASTS_TOOL = "get_forecasts";
const GetForecastsArgs = z.object({
  question_id: z.string().min(1).max(300).optional().describe("one question (default: every question you forecast)")
}).strict();
function inMemoryPhase(state, now) {
  return state.memoryPhaseSince !== null && startOfUtcDay(state.memoryPhaseSince) === startOfUtcDay(now);
}
function forecastTools(view, p, state) {
  const submit = defineTool({
    name: SUBMIT_FORECASTS_TOOL,
    description: `Free. Set your forecast for one open question: {answer: probability} for at most ${p.max_outcomes} answers, each p in [0, 1], summing to at most 1 (mass left unassigned is not scored). It replaces your previous forecast on that question and stands until you change it; each day is scored on the forecast standing at the day's end.`,
    args: SubmitForecastsArgs,
    kind: "commit",
    run(a, c) {
      const now = c.now();
      let q;
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
          `question ${q.id} closed for forecasts at ${isoInstant(q.resolve)}; its answer is not public yet`
        );
      if (inMemoryPhase(state, now))
        return reject("memory phase: forecasts are refused now; write your memory, then call next_day again");
      const checked = checkOutcomes(a.outcomes, { maxOutcomes: p.max_outcomes, maxChars: p.max_answer_chars });
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
        at: isoInstant(now)
      });
    }
  });
  const get = defineTool({
    name: GET_FORECASTS_TOOL,
    description: "Free. Your standing forecasts and their history (every accepted submission, oldest first).",
    args: GetForecastsArgs,
    kind: "meta",
    run(a) {
      const ids = a.question_id === void 0 ? [...state.forecasts.keys()].sort() : [a.question_id];
      if (a.question_id !== void 0) {
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
            history: h.map((e) => ({ at: isoInstant(e.at), outcomes: e.outcomes }))
          };
        })
      });
    }
  });
  return [submit, get];
}
export {
  GET_FORECASTS_TOOL,
  GetForecastsArgs,
  forecastTools,
  inMemoryPhase
};
//# sourceMappingURL=forecast-tools.js.map
