import { z } from "zod";
import { isoInstant } from "../kernel/day.js";
import { defineTool, ok, reject } from "../tools/tool.js";
import { parseTimeArg } from "./reddit-tools.js";
const SEARCH_NEWS_TOOL = "search_news";
const GET_ARTICLE_TOOL = "get_article";
const NEWS_PAGE_SIZE = 10;
const NEWS_DEFAULT_SEARCH_USD = 2e-3;
const NEWS_DEFAULT_ARTICLE_USD = 2e-3;
const NEWS_DOMAIN = "news";
const TimeArg = z.union([z.number(), z.string()]).describe('an instant: epoch milliseconds or ISO-8601 ("2026-03-01T12:00:00Z"; a date alone or no zone is UTC)');
const SearchNewsArgs = z.object({
  q: z.string().min(1).max(1e3).describe('search words; "quoted phrases", AND, OR, NOT and parentheses work; implicit AND between words'),
  date_from: TimeArg.optional().describe("only articles published at or after this instant"),
  date_to: TimeArg.optional().describe("only articles published at or before this instant (clamped to now)"),
  offset: z.number().int().min(0).max(1e4).optional().describe(`skip this many hits (pages of ${NEWS_PAGE_SIZE}; each page is one priced call)`)
}).strict();
const GetArticleArgs = z.object({ news_id: z.string().min(1).max(200).describe("article id") }).strict();
function newsTools(view, prices) {
  const search = defineTool({
    name: SEARCH_NEWS_TOOL,
    description: `Search news articles published up to now (BM25 ranking), ${NEWS_PAGE_SIZE} hits per page with id, title, domain, publication time and a snippet. \`q\`: words, "quoted phrases", AND / OR / NOT, parentheses. \`date_from\` / \`date_to\` bound the publication time (epoch ms or ISO-8601; \`date_to\` is clamped to now); \`offset\` pages on. $${prices.search_usd} per page.`,
    args: SearchNewsArgs,
    kind: "data",
    domain: NEWS_DOMAIN,
    price: () => prices.search_usd,
    run(a) {
      let from;
      let to;
      if (a.date_from !== void 0) {
        const r = parseTimeArg("date_from", a.date_from);
        if (!r.ok) return reject(r.error);
        from = r.t;
      }
      if (a.date_to !== void 0) {
        const r = parseTimeArg("date_to", a.date_to);
        if (!r.ok) return reject(r.error);
        to = r.t;
      }
      const offset = a.offset ?? 0;
      const res = view.news.search(a.q, {
        ...from !== void 0 ? { from } : {},
        ...to !== void 0 ? { to } : {},
        offset,
        limit: NEWS_PAGE_SIZE
      });
      return ok({
        hits: res.hits.map((h) => ({
          id: h.id,
          title: h.title,
          domain: h.domain,
          published_at: isoInstant(h.published_at),
          snippet: h.snippet
        })),
        offset,
        next_offset: res.hits.length === NEWS_PAGE_SIZE ? offset + NEWS_PAGE_SIZE : null,
        /** the effective upper bound: the requested date_to, or now when absent or later */
        date_to: isoInstant(res.capped_to),
        date_to_clamped: to !== void 0 && to > res.capped_to
      });
    }
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
        published_at: isoInstant(n.published_at)
      });
    }
  });
  return [search, article];
}
export {
  GET_ARTICLE_TOOL,
  GetArticleArgs,
  NEWS_DEFAULT_ARTICLE_USD,
  NEWS_DEFAULT_SEARCH_USD,
  NEWS_DOMAIN,
  NEWS_PAGE_SIZE,
  SEARCH_NEWS_TOOL,
  SearchNewsArgs,
  newsTools
};
//# sourceMappingURL=news-tools.js.map
