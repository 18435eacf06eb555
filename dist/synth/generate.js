import { z } from "zod";
import { generateBlotter } from "./blotter.js";
import { generateBrokerEvents } from "./broker.js";
import { generateCandles } from "./candles.js";
import { generateFilings } from "./filings.js";
import { generateMarkets } from "./markets.js";
import { generateBackgroundNews } from "./news-background.js";
import { generateQuestions, questionResolutions } from "./questions.js";
import { generateReddit } from "./reddit.js";
import { createRng } from "./rng.js";
import { DAY, isoDate, pad } from "./time.js";
import { slugify } from "./vocab.js";
const GENERATOR_VERSION = "v3";
const HISTORY_MS = 8 * DAY;
const SynthOptionsSchema = z.object({ seed: z.number().int(), start: z.number().int(), end: z.number().int() }).refine((o) => o.end > o.start, { message: "end must be after start" });
function finalizeNews(drafts, end) {
  const kept = drafts.filter((d) => d.published_at < end);
  kept.sort((a, b) => a.published_at - b.published_at || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const ids = /* @__PURE__ */ new Map();
  const rows = kept.map((d, i) => {
    const id = `n${pad(i + 1, 6)}`;
    ids.set(d.key, id);
    const day = isoDate(d.published_at).replaceAll("-", "/");
    return {
      id,
      url: `https://${d.domain}/${day}/${slugify(d.title)}-${id}`,
      domain: d.domain,
      title: d.title,
      text: d.text,
      published_at: d.published_at,
      visible_at: d.published_at
    };
  });
  return { rows, ids };
}
function generateRows(o) {
  const opts = SynthOptionsSchema.parse(o);
  const root = createRng(opts.seed);
  const from = opts.start - HISTORY_MS;
  const reddit = generateReddit(root.split("reddit"), from, opts.end);
  const markets = generateMarkets(root.split("markets"), from, opts.start, opts.end);
  const filings = generateFilings(root.split("filings"), from, opts.start, opts.end);
  const background = generateBackgroundNews(root.split("news"), from, opts.end);
  const candles = generateCandles(root.split("candles"), from, opts.end);
  const broker = generateBrokerEvents(candles, opts.start, opts.end);
  const questions = generateQuestions(root.split("questions"), markets.plans, filings.labels, opts.start, opts.end);
  const news = finalizeNews([...markets.news, ...filings.news, ...background], opts.end);
  const attribution = [];
  for (const a of markets.attributions) {
    const id = news.ids.get(a.news_id);
    if (id !== void 0) attribution.push({ ...a, news_id: id });
  }
  return {
    news: news.rows,
    market: markets.markets,
    market_price: markets.prices,
    market_resolution: markets.resolutions,
    reddit_post: reddit.posts,
    reddit_comment: reddit.comments,
    reddit_reveal: reddit.reveals,
    candle: candles,
    filing: filings.filings,
    xbrl_fact: filings.facts,
    company: filings.companies,
    question: questions.questions,
    question_resolution: questionResolutions(questions.questions, questions.answers),
    broker_event: [...generateBlotter(from, opts.start, opts.end), ...broker].sort(
      (a, b) => a.t - b.t || a.id.localeCompare(b.id)
    ),
    truth: {
      breakpoint: markets.breakpoints,
      attribution,
      question_answer: questions.answers,
      label: [...markets.labels, ...filings.labels]
    }
  };
}
export {
  GENERATOR_VERSION,
  HISTORY_MS,
  SynthOptionsSchema,
  generateRows
};
//# sourceMappingURL=generate.js.map
