import { z } from "zod";
import { DAY_MS, isoInstant } from "../../common/time.js";
import { defineTool, ok, reject, type ToolDef, type ToolResult } from "../../tools/tool.js";
import { type AsOfView, NotVisibleError } from "../../world/as-of-view.js";
import type { QueryEmbedder } from "../../world/endpoint-embedder.js";
import { SearchQueryError } from "../../world/search-query.js";
import { parseTimeArg } from "../reddit-tools.js";
import type { OpenForecastParams } from "./params.js";

export const SEARCH_NEWS_TOOL = "search_news";
export const READ_ARTICLE_TOOL = "read_article";
export const QUESTION_NEWS_TOOL = "question_news";

const DateArg = z.string().min(1).max(40).describe('a date "YYYY-MM-DD" (UTC, the whole day) or an ISO-8601 instant');

export const SearchNewsArgs = z
  .object({
    query: z
      .string()
      .min(1)
      .max(1000)
      .describe('words to search for; quoted phrases, AND, OR, NOT and parentheses work ("central bank" OR rates)'),
    from_date: DateArg.optional().describe(
      "only articles published at or after this date (a date: from its 00:00 UTC)",
    ),
    to_date: DateArg.optional().describe(
      "only articles published at or before this date (a date: through its end); capped to now",
    ),
  })
  .strict();

export const ReadArticleArgs = z
  .object({ id: z.string().min(1).max(200).describe("an article id from search_news") })
  .strict();

/** A date argument: a bare date is the day's first instant (from) or last instant (to). */
export function parseDateArg(
  name: string,
  v: string,
  edge: "start" | "end",
): { ok: true; t: number } | { ok: false; error: string } {
  const s = v.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) {
    const t = Date.parse(`${s}T00:00:00Z`);
    if (!Number.isFinite(t)) return { ok: false, error: `${name}: "${s}" is not a valid date` };
    return { ok: true, t: edge === "start" ? t : t + DAY_MS - 1 };
  }
  return parseTimeArg(name, s);
}

/**
 * The query vector of a hybrid search on a world with endpoint vectors (`qe`), and its priced cost
 * (tokens × the world's embeddings price); nothing for BM25 or the offline hashing embedder.
 */
export async function queryEmbedding(
  qe: QueryEmbedder | null,
  mode: "hybrid" | "bm25",
  query: string,
): Promise<{ queryVector?: Float32Array; usd: number }> {
  if (qe === null || mode !== "hybrid") return { usd: 0 };
  const e = await qe.embedQuery(query);
  return { queryVector: e.vector, usd: e.usd };
}

function agentError(err: unknown): ToolResult {
  if (err instanceof NotVisibleError || err instanceof SearchQueryError) return reject(err.message);
  throw err;
}

/**
 * `search_news` (top `search_k`, hybrid BM25 + vectors by default) and `read_article`, both priced,
 * both through the as-of view: the date bound is inside the view's query, `to_date` is capped to
 * now with a note, and an unknown or not-yet-published article gives the view's own error text.
 */
export function newsTools(
  view: AsOfView,
  p: OpenForecastParams,
  mode: "hybrid" | "bm25",
  frozenCut: number | null = null,
  qe: QueryEmbedder | null = null,
): ToolDef[] {
  const read = readArticleTool(view, p);
  if (p.search === "one-shot") return [read];
  const corpus =
    frozenCut === null
      ? "published up to now"
      : `published up to ${isoInstant(frozenCut)} (the news corpus is frozen there: nothing later is searchable)`;
  const search = defineTool({
    name: SEARCH_NEWS_TOOL,
    description:
      `$${p.search_usd} per call. The ${p.search_k} most relevant news articles ${corpus} ` +
      `(${mode === "hybrid" ? "keyword (BM25) and similarity rankings fused" : "keyword (BM25) ranking"}), ` +
      "optionally between from_date and to_date (to_date is capped to now, with a note). Each result has id, title, " +
      "domain, published time and a snippet; read_article gives the full text.",
    args: SearchNewsArgs,
    kind: "data",
    domain: "news",
    price: () => p.search_usd,
    async run(a, c) {
      // the newest news: now, or the frozen corpus's last instant (news: frozen; the view caps its queries there too)
      const now = frozenCut === null ? c.now() : Math.min(c.now(), frozenCut);
      const frozen = now < c.now();
      const opts: { from?: number; to?: number; limit: number } = { limit: p.search_k };
      if (a.from_date !== undefined) {
        const f = parseDateArg("from_date", a.from_date, "start");
        if (!f.ok) return reject(f.error);
        if (f.t > now)
          return reject(
            frozen
              ? `from_date ${isoInstant(f.t)} is after the frozen news corpus ends (${isoInstant(now)}): nothing can match`
              : `from_date ${isoInstant(f.t)} is after now (${isoInstant(now)}): nothing can match`,
          );
        opts.from = f.t;
      }
      let note: string | undefined;
      if (a.to_date !== undefined) {
        const t = parseDateArg("to_date", a.to_date, "end");
        if (!t.ok) return reject(t.error);
        if (t.t > now)
          note = frozen
            ? `to_date ${a.to_date} reaches past the frozen news corpus: results are capped to ${isoInstant(now)}`
            : `to_date ${a.to_date} reaches past now: results are capped to ${isoInstant(now)}`;
        opts.to = Math.min(t.t, now);
      }
      if (opts.from !== undefined && opts.to !== undefined && opts.from > opts.to)
        return reject("from_date is after to_date: nothing can match");
      try {
        // endpoint vectors: the query is embedded (cached in the world, priced per token) before the as-of search
        const emb = await queryEmbedding(qe, mode, a.query);
        const r =
          mode === "hybrid"
            ? view.news.hybridSearch(a.query, emb.queryVector ? { ...opts, queryVector: emb.queryVector } : opts)
            : view.news.search(a.query, opts);
        const res = ok({
          query: a.query,
          ...(opts.from !== undefined ? { from: isoInstant(opts.from) } : {}),
          to: isoInstant(r.capped_to),
          ...(note !== undefined ? { note } : {}),
          results: r.hits.map((h) => ({
            id: h.id,
            title: h.title,
            domain: h.domain,
            published_at: isoInstant(h.published_at),
            snippet: h.snippet,
          })),
        });
        return emb.usd > 0 ? { ...res, cost_usd: emb.usd } : res;
      } catch (err) {
        return agentError(err);
      }
    },
  });

  return [search, read];
}

/** `read_article(id)` through `view` (the frozen corpus under `news: frozen`). */
function readArticleTool(view: AsOfView, p: OpenForecastParams): ToolDef {
  return defineTool({
    name: READ_ARTICLE_TOOL,
    description: `$${p.article_usd} per call. The full article (title, domain, url, published time, text up to ${p.article_max_chars} characters).`,
    args: ReadArticleArgs,
    kind: "data",
    domain: "news",
    price: () => p.article_usd,
    run(a) {
      try {
        const n = view.news.get(a.id);
        const cut = n.text.length > p.article_max_chars;
        return ok({
          id: n.id,
          title: n.title,
          domain: n.domain,
          url: n.url,
          published_at: isoInstant(n.published_at),
          text: cut ? n.text.slice(0, p.article_max_chars) : n.text,
          ...(cut ? { truncated: true } : {}),
        });
      } catch (err) {
        return agentError(err);
      }
    },
  });
}
