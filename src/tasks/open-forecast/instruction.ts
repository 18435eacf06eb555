import { isoDay } from "../../common/time.js";
import type { TriggerKind } from "../../common/trigger-kind.js";
import { NORMALIZATION_IGNORES } from "./answer-match.js";
import type { OpenForecastParams } from "./params.js";

export interface InstructionInput {
  params: OpenForecastParams;
  sim_start: number;
  sim_end: number;
  budget_usd: number;
  trigger: TriggerKind;
  /** the episode has a news archive */
  news: boolean;
  /** next_day exists (an LLM agent under the sleep trigger) */
  nextDay: boolean;
  /** the harness's memory tools are on */
  memory: boolean;
}

/** The agent's task text, rendered with the run's real budget, prices, limits, window and trigger. */
export function renderInstruction(o: InstructionInput): string {
  const p = o.params;
  const memory = o.memory;
  const phase = memory && p.memory_phase && o.nextDay;
  const days: string[] = [];
  switch (o.trigger) {
    case "sleep":
      days.push(
        o.nextDay
          ? "- Call `next_day()` when you are done for the day: you sleep until the next 00:00 UTC and wake with the day's recap."
          : "- Sleep until the next 00:00 UTC when you are done for the day; the first wake of each day carries the day's recap.",
      );
      if (phase)
        days.push(
          "- The first `next_day()` of a day opens a memory phase: save what you learned with the memory tools (forecasts are " +
            "refused meanwhile), then call `next_day()` again to move to the next day.",
        );
      break;
    case "watcher":
      days.push(
        "- To end your day, run a program that waits until the next 00:00 UTC (sleep.js with WAKE_AT set to the next midnight); " +
          "the first wake of each day carries the day's recap.",
      );
      break;
    case "cron":
      days.push(
        "- Your base schedule wakes you every day at 00:00 UTC; that wake carries the day's recap. There is no next_day: end " +
          "each episode with done().",
      );
      break;
    case "policy":
      days.push(
        "- A trigger policy wakes you; end each wake with done(). The first wake of each day carries the day's recap.",
      );
      break;
    default: {
      const never: never = o.trigger;
      throw new Error(`unknown trigger ${String(never)}`);
    }
  }
  days.push(
    "- The recap tells you how many articles were published and which questions were released since the previous recap, " +
      "and the answers of questions that resolved (public facts).",
  );
  return [
    "# Open-ended forecasting",
    "",
    `You forecast from ${isoDay(o.sim_start)} to ${isoDay(o.sim_end - 1)} (UTC, inclusive). Questions about future events ` +
      (p.ceiling ? "are each released one day before they resolve. " : "are released on their open dates. ") +
      (!o.news
        ? "There is no news archive in this episode: forecast from each question's text and background."
        : p.news === "frozen"
          ? `The news archive is frozen at the end of ${isoDay(o.sim_start)}: nothing published later can be read.`
          : "News articles become readable as they are published; you only ever see what is published up to the current simulated time."),
    `Keep a forecast standing on every open question: probabilities for up to ${p.max_outcomes} possible answers.`,
    "",
    "## Scoring",
    "- Every question is scored on each day it is active (from its open date until it resolves or the run ends) on the forecast " +
      "standing at that day's end (00:00 UTC): 1 − Σ (p − 1[the answer is true])² over the answers you named plus the true " +
      "answer. {A: 0.65, B: 0.25} with A true scores 0.815; {B: 0.8} with A true scores −0.64. No forecast scores 0; " +
      "probability you leave unassigned is not scored, but a true answer you did not name counts with p = 0.",
    `- An answer you name matches the truth when it is equal to it, or equal after ignoring ${NORMALIZATION_IGNORES[p.answer_match ?? "relive"]}` +
      `${p.judge_cache !== null ? ", or when the answer judge has ruled the two equivalent" : ""}.`,
    "- A question's score is the mean of its daily scores; your score is 100 × the sum over questions.",
    "",
    "## Tools",
    "- `list_questions(status?, offset?)` and `get_question(id)` (free): released questions with status open, closed (past its " +
      "resolve time, answer not yet public) or resolved (with its answer), the crowd forecast where one exists, and your " +
      "standing forecast.",
    `- \`submit_forecasts(question_id, outcomes)\` (free): {answer: probability}, at most ${p.max_outcomes} answers, each p in ` +
      "[0, 1], summing to at most 1. It replaces your previous forecast on the question. Only open questions accept " +
      "forecasts; invalid forecasts are refused with the reason (free). `get_forecasts(question_id?)` (free) shows yours.",
    ...(!o.news
      ? []
      : p.search === "one-shot"
        ? [
            `- \`question_news(question_id)\` ($${p.search_usd} on the first call per question, then free): the one news ` +
              `retrieval of a question, the ${p.search_k} articles best matching its title as of its release (there is no ` +
              `free-text search); \`read_article(id)\` ($${p.article_usd} per call): the full text.`,
          ]
        : [
            `- \`search_news(query, from_date?, to_date?)\` ($${p.search_usd} per call): the ${p.search_k} most relevant articles ` +
              `published up to ${p.news === "frozen" ? "the end of the frozen archive" : "now"} (to_date is capped to ${p.news === "frozen" ? "it" : "now"}); \`read_article(id)\` ($${p.article_usd} per call): the full text.`,
          ]),
    ...(memory
      ? [
          "- Memory (free): `memory_append(note, item?)` adds a note, across questions or about one (`item`: the question id); " +
            "`memory_read(item?, date?)` reads it. Notes are kept for the run; each past day's memory is a read-only snapshot.",
        ]
      : []),
    "",
    "## Days",
    ...days,
    "",
    `Your total budget is $${o.budget_usd.toFixed(2)} for everything (model calls included).`,
  ].join("\n");
}
