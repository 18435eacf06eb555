import { z } from "zod";
import type { StreamKind, StreamRows } from "../world/row-schemas.js";
import type { AttributionRow, BreakpointRow, LabelRow, NewsRow, QuestionAnswerRow } from "../world/types.js";
import { generateBlotter } from "./blotter.js";
import { generateBrokerEvents } from "./broker.js";
import { generateCandles } from "./candles.js";
import { generateFilings } from "./filings.js";
import { generateMarkets } from "./markets.js";
import { generateBackgroundNews } from "./news-background.js";
import type { NewsDraft } from "./news-draft.js";
import { generateQuestions, questionResolutions } from "./questions.js";
import { generateReddit } from "./reddit.js";
import { createRng } from "./rng.js";
import { DAY, isoDate, pad } from "./time.js";
import { slugify } from "./vocab.js";

/** Bump whenever the generated rows change for some (seed, window): cached worlds are keyed by it. */
export const GENERATOR_VERSION = "v3";

/** History generated before `start` (reddit study week + candidate day, news, prices, candles). */
export const HISTORY_MS = 8 * DAY;

export interface SynthOptions {
  seed: number;
  /** window start, UTC epoch ms */
  start: number;
  /** window end (exclusive), UTC epoch ms */
  end: number;
}

export const SynthOptionsSchema = z
  .object({ seed: z.number().int(), start: z.number().int(), end: z.number().int() })
  .refine((o) => o.end > o.start, { message: "end must be after start" });

/** Every stream kind's rows (world/row-schemas.ts) plus the truth tables the generator plants. */
export type SynthWorld = { [K in StreamKind]: StreamRows[K][] } & {
  truth: {
    breakpoint: BreakpointRow[];
    attribution: AttributionRow[];
    question_answer: QuestionAnswerRow[];
    label: LabelRow[];
  };
};

/** assign n000001... in (published_at, key) order; returns rows and the key → id map */
function finalizeNews(drafts: NewsDraft[], end: number): { rows: NewsRow[]; ids: Map<string, string> } {
  const kept = drafts.filter((d) => d.published_at < end);
  kept.sort((a, b) => a.published_at - b.published_at || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const ids = new Map<string, string>();
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
      visible_at: d.published_at,
    };
  });
  return { rows, ids };
}

/**
 * The whole synthetic world for a seed and window, as plain rows. Pure and deterministic: every
 * stream draws from its own labelled sub-stream of the seed (reddit, news, markets, candles,
 * filings, questions), so changing one stream's generator never shifts another's.
 */
export function generateRows(o: SynthOptions): SynthWorld {
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
  const attribution: AttributionRow[] = [];
  for (const a of markets.attributions) {
    const id = news.ids.get(a.news_id);
    if (id !== undefined) attribution.push({ ...a, news_id: id });
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
      (a, b) => a.t - b.t || a.id.localeCompare(b.id),
    ),
    event: [], // imported event logs only (relive data import --events)
    truth: {
      breakpoint: markets.breakpoints,
      attribution,
      question_answer: questions.answers,
      label: [...markets.labels, ...filings.labels],
    },
  };
}
