import { z } from "zod";
import { isoInstant } from "../../common/time.js";
import { defineTool, ok, reject, type ToolDef } from "../../tools/tool.js";
import { type AsOfView, NotVisibleError } from "../../world/as-of-view.js";
import type { QueryEmbedder } from "../../world/endpoint-embedder.js";
import { SearchQueryError } from "../../world/search-query.js";
import type { QuestionRow } from "../../world/types.js";
import { QUESTION_NEWS_TOOL, queryEmbedding } from "./news-tools.js";
import type { OpenForecastParams } from "./params.js";
import { visibleQuestion } from "./question-state.js";
import type { OneShotRetrieval, OpenForecastRunState } from "./run-state.js";

/** most title words in a one-shot retrieval query */
const MAX_TERMS = 16;

export const QuestionNewsArgs = z.object({ question_id: z.string().min(1).max(300).describe("question id") }).strict();

/**
 * The one-shot query of a question: its title's distinct words of at least 3 letters or digits
 * (lower-cased, so FTS5 operators cannot arise), at most 16, joined by OR. Null when none.
 */
export function oneShotQuery(title: string): string | null {
  const words: string[] = [];
  for (const w of title.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
    if (w.length >= 3 && !words.includes(w) && words.length < MAX_TERMS) words.push(w);
  return words.length === 0 ? null : words.join(" OR ");
}

/** When a question was released to the agent: its (presented) open date, or its row's visibility if later. */
export function releasedAt(q: Pick<QuestionRow, "open" | "visible_at">): number {
  return Math.max(q.open, q.visible_at);
}

/**
 * `search: one-shot` (FutureSim's "no agentic search"): `search_news` is gone; `question_news(question_id)`
 * gives the question's single retrieval: the top `search_k` articles for `oneShotQuery(title)` in
 * the task's search mode, **as of the question's release** (the view capped there, so the result
 * does not depend on when the agent asks). The first call per question costs one search
 * (`search_usd`); later calls return the same retrieval free. `read_article` stays.
 */
export function questionNewsTool(
  view: AsOfView,
  p: OpenForecastParams,
  mode: "hybrid" | "bm25",
  state: OpenForecastRunState,
  qe: QueryEmbedder | null = null,
): ToolDef {
  return defineTool({
    name: QUESTION_NEWS_TOOL,
    description:
      `$${p.search_usd} on the first call per question, free afterwards. The one news retrieval you get for a question: ` +
      `the ${p.search_k} articles that best match its title, as of the time the question was released (the same result ` +
      "every time). There is no free-text news search; read_article gives an article's full text.",
    args: QuestionNewsArgs,
    kind: "data",
    domain: "news",
    price: (a) => (state.oneShot.has(a.question_id) ? 0 : p.search_usd),
    async run(a) {
      let q: QuestionRow;
      try {
        q = visibleQuestion(view, a.question_id);
      } catch (err) {
        if (err instanceof NotVisibleError) return reject(err.message);
        throw err;
      }
      const done = state.oneShot.get(q.id);
      if (done) return ok({ question_id: q.id, ...done, repeated: true });
      const at = releasedAt(q);
      const query = oneShotQuery(q.title);
      let results: OneShotRetrieval["results"] = [];
      let usd = 0;
      if (query !== null) {
        const v = view.capped(at);
        const emb = await queryEmbedding(qe, mode, query);
        usd = emb.usd;
        try {
          const r =
            mode === "hybrid"
              ? v.news.hybridSearch(query, {
                  limit: p.search_k,
                  ...(emb.queryVector ? { queryVector: emb.queryVector } : {}),
                })
              : v.news.search(query, { limit: p.search_k });
          results = r.hits.map((h) => ({
            id: h.id,
            title: h.title,
            domain: h.domain,
            published_at: isoInstant(h.published_at),
            snippet: h.snippet,
          }));
        } catch (err) {
          // the query is built from words only; a rejection here is a system fault
          if (err instanceof SearchQueryError) throw new Error(`internal: one-shot query ${query}: ${err.message}`);
          throw err;
        }
      }
      const retrieval: OneShotRetrieval = { query: query ?? "", as_of: isoInstant(Math.min(at, view.now())), results };
      state.oneShot.set(q.id, retrieval);
      const res = ok({ question_id: q.id, ...retrieval });
      return usd > 0 ? { ...res, cost_usd: usd } : res;
    },
  });
}
