import { z } from "zod";
const OpenForecastParams = z.object({
  /** USD per accepted `search_news` call */
  search_usd: z.number().nonnegative().default(2e-3),
  /** USD per accepted `read_article` call */
  article_usd: z.number().nonnegative().default(2e-3),
  /** results per search */
  search_k: z.number().int().min(1).max(20).default(5),
  /** hybrid: BM25 + vectors fused by reciprocal rank (falls back to bm25 on a world without vectors) */
  search_mode: z.enum(["hybrid", "bm25"]).default("hybrid"),
  /** most outcomes one forecast may name */
  max_outcomes: z.number().int().min(1).max(20).default(5),
  /** longest outcome label */
  max_answer_chars: z.number().int().min(1).max(1e3).default(200),
  /** questions per list_questions page */
  list_page_size: z.number().int().min(1).max(500).default(50),
  /** characters of the background shown per question in list_questions (get_question has it all) */
  list_background_chars: z.number().int().min(0).max(1e4).default(300),
  /** characters of article text returned by read_article */
  article_max_chars: z.number().int().min(100).max(1e5).default(8e3),
  /** memory tools: per-question notes, cross-question insights, immutable past-day snapshots */
  memory: z.boolean().default(true),
  /** with memory on, under the sleep trigger: the first next_day opens a memory phase (forecasts refused) */
  memory_phase: z.boolean().default(false),
  note_max_chars: z.number().int().min(1).max(1e5).default(2e3),
  insights_max_chars: z.number().int().min(1).max(1e5).default(4e3),
  /**
   * The persistent cache of an answer judge (a JSON file): outcomes that match the answer neither
   * exactly nor after normalization count as the answer when the cache holds a positive verdict
   * for the pair. null (default): no judge.
   */
  judge_cache: z.string().min(1).nullable().default(null)
}).strict();
export {
  OpenForecastParams
};
//# sourceMappingURL=params.js.map
