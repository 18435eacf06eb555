import { isoDay } from "../../common/time.js";
import type { ForecastPortfolioParams } from "./params.js";

export interface InstructionInput {
  params: ForecastPortfolioParams;
  sim_start: number;
  sim_end: number;
  budget_usd: number;
}

/** The agent's task text, rendered with the run's real budget, prices and window. */
export function renderInstruction(o: InstructionInput): string {
  const p = o.params;
  return [
    "# Forecast portfolio",
    "",
    `You run from ${isoDay(o.sim_start)} to ${isoDay(o.sim_end - 1)} (UTC, inclusive). You keep a standing probability ` +
      "forecast on a portfolio of binary questions about future events (each resolves to one of its two outcomes, " +
      "usually Yes or No). New questions may open during the run. A news archive, replayed as time passes, is your " +
      "evidence; no market prices are available to you.",
    "",
    "## Scoring",
    "- Every question that resolves inside the run is scored over its whole active period, from when it became " +
      "available (or the run start) until it resolved or reached its scheduled end, whichever came first.",
    "- At each instant your standing forecast scores 1 − Σ (p_o − 1[o is the result])², summed over the outcomes; an " +
      "outcome you did not name counts as probability 0. Before your first forecast on a question, the uniform " +
      "forecast (0.5 on each outcome) stands.",
    "- A question's score is the time average of that score, so forecasting well early counts as much as late.",
    "- Your overall score compares the mean Brier score over the scored questions with that of always forecasting the " +
      "base rate of the scored questions' results (Brier skill): 0 is that reference, 1 is perfect.",
    "",
    "## Tools and rules",
    "- `list_questions(status?, added_after?)`, `get_question(question_id)` and `get_forecasts(question_id?)` are free.",
    "- `submit_forecast(question_id, forecast, news_id?)` is free and replaces your standing forecast from now on. Each " +
      "probability must be in [0, 1] and they must sum to at most 1 (less is allowed: unassigned mass earns nothing). " +
      "It is rejected (free, your standing forecast unchanged) for an unknown question, one that is not open yet, one " +
      "past its scheduled end or already resolved, an unknown outcome, or an article id that is not published.",
    `- \`search_news(q, date_from?, date_to?, offset?)\` costs $${p.search_usd} per page of 10 results and ` +
      `\`get_article(news_id)\` $${p.article_usd}. You only ever see articles published up to the current time.`,
    `- Your total budget is $${o.budget_usd.toFixed(2)} for everything (model calls included).`,
  ].join("\n");
}
