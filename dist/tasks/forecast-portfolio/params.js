import { z } from "zod";
import { NEWS_DEFAULT_ARTICLE_USD, NEWS_DEFAULT_SEARCH_USD } from "../news-tools.js";
const ForecastPortfolioParams = z.object({
  /** the questions are the binary markets whose id starts with this ("" = every binary market) */
  market_prefix: z.string().max(64).default("ld-"),
  /** USD per `search_news` page */
  search_usd: z.number().nonnegative().default(NEWS_DEFAULT_SEARCH_USD),
  /** USD per `get_article` call */
  article_usd: z.number().nonnegative().default(NEWS_DEFAULT_ARTICLE_USD),
  /** Σp may exceed 1 by at most this much (floating-point slack of decimal inputs such as 0.1 + 0.2 + 0.7) */
  sum_tolerance: z.number().nonnegative().max(1e-6).default(1e-9)
}).strict();
export {
  ForecastPortfolioParams
};
//# sourceMappingURL=params.js.map
