import { z } from "zod";
import { NEWS_DEFAULT_ARTICLE_USD, NEWS_DEFAULT_SEARCH_USD } from "../news-tools.js";
const ResolutionDetectParams = z.object({
  /** USD per `search_news` page of 10 */
  search_usd: z.number().nonnegative().default(NEWS_DEFAULT_SEARCH_USD),
  /** USD per `get_article` */
  article_usd: z.number().nonnegative().default(NEWS_DEFAULT_ARTICLE_USD),
  /** credit of a correct claim at τ ≥ t_det: exp(−(τ − t_det) / late_decay_hours) */
  late_decay_hours: z.number().positive().default(48),
  /** credit of a correct claim at τ < t_det: exp(−(t_det − τ) / early_decay_hours) */
  early_decay_hours: z.number().positive().default(12),
  /** the questions: every market whose id starts with this prefix (ignored when `questions` is set) */
  question_prefix: z.string().default("ld-"),
  /** the questions by market id (overrides `question_prefix`) */
  questions: z.array(z.string().min(1)).min(1).optional()
}).strict();
function isQuestion(id, p) {
  return p.questions ? p.questions.includes(id) : id.startsWith(p.question_prefix);
}
export {
  ResolutionDetectParams,
  isQuestion
};
//# sourceMappingURL=params.js.map
