import { isoDay } from "../../common/time.js";
import type { ResolutionDetectParams } from "./params.js";

export interface InstructionInput {
  params: ResolutionDetectParams;
  sim_start: number;
  sim_end: number;
  budget_usd: number;
}

/** The agent's task text, rendered with the run's real budget, prices, decay constants and window. */
export function renderInstruction(o: InstructionInput): string {
  const p = o.params;
  return [
    "# Resolution detection",
    "",
    `You run from ${isoDay(o.sim_start)} to ${isoDay(o.sim_end - 1)} (UTC, inclusive) over a replay of the news. You ` +
      "watch a set of long-dated prediction-market questions; most will not be decided while you run. When a question " +
      "is decided (its answer has become certain), say so with `mark_outcome(question_id, outcome, news_id?)`, as soon " +
      "as you can tell from the news.",
    "",
    "## Scoring",
    "- A question counts as decided at the moment its market settled on the answer (the winning outcome's price " +
      "reached 0.99 and never again fell below 0.95). You never see prices in this task: read the news.",
    `- A correct mark made after that moment earns exp(−delay / ${p.late_decay_hours} h); a correct mark made before it ` +
      `earns exp(−advance / ${p.early_decay_hours} h). A wrong outcome, or a mark on a question that is not decided ` +
      "while you run, earns 0. A decided question you never mark is a miss.",
    "- Main score: F1 of precision (total credit / your settled marks) and recall (total credit / decided questions). " +
      "Also reported: the same F1 counting correct marks instead of credit.",
    "",
    "## Rules and tools",
    "- One mark per question, ever: marks are final and cannot be changed or withdrawn. Rejected (free, nothing used " +
      "up): an unknown question, an outcome the question does not have, an unknown or unpublished article, a question " +
      "you already marked. A mark is never rejected because of the question's state.",
    "- `list_questions(added_after?)`, `get_question(question_id)` and `get_marks(question_id?)` are free. New questions " +
      "can appear while you run.",
    `- \`search_news(q, date_from?, date_to?, offset?)\` costs $${p.search_usd} per page of 10 hits; ` +
      `\`get_article(news_id)\` costs $${p.article_usd}. You only ever see articles published up to now.`,
    "- `mark_outcome` is free.",
    `- Your total budget is $${o.budget_usd.toFixed(2)} for everything (model calls included).`,
  ].join("\n");
}
