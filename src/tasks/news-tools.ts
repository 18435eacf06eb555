import { z } from "zod";
import { isoInstant } from "../common/time.js";
import { defineTool, ok, reject, type ToolDef } from "../tools/tool.js";
import type { AsOfView } from "../world/as-of-view.js";
import { parseTimeArg } from "./reddit-tools.js";

/**
 * The news tools shared by breakout-news, resolution-detect and forecast-portfolio: `search_news`
 * (BM25 over the articles published up to now, pages of 10) and `get_article`. Every read goes
 * through the as-of view, whose SQL carries the visibility bound; an unknown or not-yet-published
 * id and an unusable query become free rejections with the view's own text (the tool runtime maps
 * `NotVisibleError` and `SearchQueryError`).
 */

export const SEARCH_NEWS_TOOL = "search_news";
export const GET_ARTICLE_TOOL = "get_article";
/** hits per `search_news` page (one page = one priced call) */
export const NEWS_PAGE_SIZE = 10;
export const NEWS_DEFAULT_SEARCH_USD = 0.002;
export const NEWS_DEFAULT_ARTICLE_USD = 0.002;
/** spend domain of both tools (wallet and daily brief) */
export const NEWS_DOMAIN = "news";

export interface NewsToolPrices {
  /** USD per `search_news` page */
  search_usd: number;
  /** USD per `get_article` call */
  article_usd: number;
}

const TimeArg = z
  .union([z.number(), z.string()])
  .describe('an instant: epoch milliseconds or ISO-8601 ("2026-03-01T12:00:00Z"; a date alone or no zone is UTC)');

export const SearchNewsArgs = z
  .object({
    q: z
      .string()
      .min(1)
      .max(1000)
      .describe('search words; "quoted phrases", AND, OR, NOT and parentheses work; implicit AND between words'),
    date_from: TimeArg.optional().describe("only articles published at or after this instant"),
    date_to: TimeArg.optional().describe("only articles published at or before this instant (clamped to now)"),
    offset: z
      .number()
      .int()
      .min(0)
      .max(10_000)
      .optional()
      .describe(`skip this many hits (pages of ${NEWS_PAGE_SIZE}; each page is one priced call)`),
  })
  .strict();

export const GetArticleArgs = z.object({ news_id: z.string().min(1).max(200).describe("article id") }).strict();

/** `search_news` and `get_article` over an as-of view, priced per page and per article. */
export function newsTools(view: AsOfView, prices: NewsToolPrices): ToolDef[] {
  const search = defineTool({
    name: SEARCH_NEWS_TOOL,
    description:
      `Search news articles published up to now (BM25 ranking), ${NEWS_PAGE_SIZE} hits per page with id, title, domain, ` +
      'publication time and a snippet. `q`: words, "quoted phrases", AND / OR / NOT, parentheses. `date_from` / ' +
      "`date_to` bound the publication time (epoch ms or ISO-8601; `date_to` is clamped to now); `offset` pages on. " +
      `$${prices.search_usd} per page.`,
    args: SearchNewsArgs,
    kind: "data",
    domain: NEWS_DOMAIN,
    price: () => prices.search_usd,
    run(a) {
      let from: number | undefined;
      let to: number | undefined;
      if (a.date_from !== undefined) {
        const r = parseTimeArg("date_from", a.date_from);
        if (!r.ok) return reject(r.error);
        from = r.t;
      }
      if (a.date_to !== undefined) {
        const r = parseTimeArg("date_to", a.date_to);
        if (!r.ok) return reject(r.error);
        to = r.t;
      }
      const offset = a.offset ?? 0;
      const res = view.news.search(a.q, {
        ...(from !== undefined ? { from } : {}),
        ...(to !== undefined ? { to } : {}),
        offset,
        limit: NEWS_PAGE_SIZE,
      });
      return ok({
        hits: res.hits.map((h) => ({
          id: h.id,
          title: h.title,
          domain: h.domain,
          published_at: isoInstant(h.published_at),
          snippet: h.snippet,
        })),
        offset,
        next_offset: res.hits.length === NEWS_PAGE_SIZE ? offset + NEWS_PAGE_SIZE : null,
        /** the effective upper bound: the requested date_to, or now when absent or later */
        date_to: isoInstant(res.capped_to),
        date_to_clamped: to !== undefined && to > res.capped_to,
      });
    },
  });

  const article = defineTool({
    name: GET_ARTICLE_TOOL,
    description: `One published article in full: id, url, domain, title, text, publication time. $${prices.article_usd} per call.`,
    args: GetArticleArgs,
    kind: "data",
    domain: NEWS_DOMAIN,
    price: () => prices.article_usd,
    run(a) {
      const n = view.news.get(a.news_id);
      return ok({
        id: n.id,
        url: n.url,
        domain: n.domain,
        title: n.title,
        text: n.text,
        published_at: isoInstant(n.published_at),
      });
    },
  });

  return [search, article];
}
