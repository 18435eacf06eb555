import { z } from "zod";
import { AnchorFrom } from "./anchor.js";

/**
 * open-forecast parameters (run config `task_params`). FutureSim prices nothing; the defaults here
 * follow breakout-news (tasks.md §1): $0.002 per news search and per article read, everything else
 * free. Limits follow tasks.md §9 (≤ 5 outcomes per forecast, top 5 search results).
 */
export const OpenForecastParams = z
  .object({
    /** USD per accepted `search_news` call */
    search_usd: z.number().nonnegative().default(0.002),
    /** USD per accepted `read_article` call */
    article_usd: z.number().nonnegative().default(0.002),
    /** results per search */
    search_k: z.number().int().min(1).max(20).default(5),
    /** hybrid: BM25 + vectors fused by reciprocal rank (falls back to bm25 on a world without vectors) */
    search_mode: z.enum(["hybrid", "bm25"]).default("hybrid"),
    /** most outcomes one forecast may name */
    max_outcomes: z.number().int().min(1).max(20).default(5),
    /** longest outcome label */
    max_answer_chars: z.number().int().min(1).max(1000).default(200),
    /** questions per list_questions page */
    list_page_size: z.number().int().min(1).max(500).default(50),
    /** characters of the background shown per question in list_questions (get_question has it all) */
    list_background_chars: z.number().int().min(0).max(10_000).default(300),
    /** characters of article text returned by read_article */
    article_max_chars: z.number().int().min(100).max(100_000).default(8000),
    /**
     * the harness's memory tools (memory_read, memory_append: notes per question and across questions, immutable
     * past-day snapshots; src/learning) for LLM runs when the run config leaves `agent.memory_tools` unset
     */
    memory: z.boolean().default(true),
    /** with memory on, under the sleep trigger: the first next_day opens a memory phase (forecasts refused) */
    memory_phase: z.boolean().default(false),
    /** no longer used (the harness memory tools cap every note at 2,000 characters); kept so older configs parse */
    note_max_chars: z.number().int().min(1).max(100_000).default(2000),
    /** no longer used (see note_max_chars) */
    insights_max_chars: z.number().int().min(1).max(100_000).default(4000),
    /**
     * The persistent cache of an answer judge (a JSON file): outcomes that match the answer neither
     * exactly nor after normalization count as the answer when the cache holds a positive verdict
     * for the pair. null (default): no judge.
     */
    judge_cache: z.string().min(1).nullable().default(null),
    // ablations (FutureSim; harness.md "Config names"): every default is the full configuration
    /** live: news unlocked day by day; frozen: the corpus as visible at the end of day 0 (sim_start's UTC day) */
    news: z.enum(["live", "frozen"]).default("live"),
    /**
     * agentic: `search_news` with the agent's own queries; one-shot: no `search_news`, one fixed
     * retrieval per question (`question_news`: the question's title words, as of its release)
     */
    search: z.enum(["agentic", "one-shot"]).default("agentic"),
    /** each question is released alone one day before its resolution (max(open, resolve − 1 day)) and scored from then */
    ceiling: z.boolean().default(false),
    /**
     * another open-forecast run whose day-0 forecasts become this run's standing forecasts at
     * sim_start: a run directory (resolved to its absolute path and its ledger's sha256) or that
     * pair; null (default): none
     */
    anchor_from: AnchorFrom.nullable().default(null),
    /**
     * Answer matching after exact equality: "relive" (NFKC, lowercase, punctuation and symbols
     * dropped, spaces collapsed) or "futuresim" (FutureSim's: lowercase, spaces removed, punctuation
     * kept). Absent: relive's (an optional field, so default runs keep their identity).
     */
    answer_match: z.enum(["relive", "futuresim"]).optional(),
  })
  .strict();

export type OpenForecastParams = z.output<typeof OpenForecastParams>;
