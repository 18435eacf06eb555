import { z } from "zod";
import { createRng } from "../common/random.js";
import type { StreamKind, StreamRows } from "../world/row-schemas.js";
import type { AttributionRow, BreakpointRow, LabelRow, NewsRow, QuestionAnswerRow } from "../world/types.js";
import { generateBlotter } from "./blotter.js";
import { generateBrokerEvents } from "./broker.js";
import { generateCandles } from "./candles.js";
import { generateFilings } from "./filings.js";
import { type FutureStream, futureSplit } from "./future.js";
import { IdMinter } from "./ids.js";
import { generateMarkets } from "./markets.js";
import { generateBackgroundNews } from "./news-background.js";
import type { NewsDraft } from "./news-draft.js";
import { generateQuestions, type QuestionStreams, questionResolutions } from "./questions.js";
import { generateReddit } from "./reddit.js";
import { DAY, isoDate } from "./time.js";
import { slugify } from "./vocab.js";

/**
 * Bump whenever the generated rows change for some (seed, window): cached worlds are keyed by it.
 * v6: breakout-news distractors (the calibration of issue 12 §6; src/synth/README.md "Distractors").
 * v7: candle volatility regimes (stress spells; the risk-portfolio calibration, README "Volatility regimes").
 */
export const GENERATOR_VERSION = "v7";

/**
 * Bump whenever what `future` re-draws changes (the ordinary world stays as it is): different-futures
 * worlds are cached under it (synth-world.ts). 2: filings and the holdings blotter are re-drawn too;
 * 3: questions opening by the cut are asked about the filings of the seed's own stream; 4: markets
 * (prices, moves, events, spikes, their news and chatter) are re-drawn too; 5: the candles' daily
 * volatility regime is re-drawn too (days starting after the cut).
 */
export const FUTURE_VERSION = 5;

/** History generated before `start` (reddit study week + candidate day, news, prices, candles). */
export const HISTORY_MS = 8 * DAY;

/**
 * A second generator stream for everything drawn at or after `from` (the different-futures test
 * of DESIGN invariant 2): the world is the same as without it for every row visible before `from`
 * and re-drawn from `seed` after it (README, "Prefix stability").
 */
export interface FutureOptions {
  seed: number;
  /** the cut T, UTC epoch ms */
  from: number;
}

export interface SynthOptions {
  seed: number;
  /** window start, UTC epoch ms */
  start: number;
  /** window end (exclusive), UTC epoch ms */
  end: number;
  /** re-draw everything after `future.from` from another seed (tests only; default: none) */
  future?: FutureOptions;
}

export const SynthOptionsSchema = z
  .object({
    seed: z.number().int(),
    start: z.number().int(),
    end: z.number().int(),
    future: z.object({ seed: z.number().int(), from: z.number().int() }).strict().optional(),
  })
  .strict()
  .refine((o) => o.end > o.start, { message: "end must be after start" })
  .refine((o) => o.future === undefined || o.future.seed !== o.seed, {
    message: "future.seed must differ from seed (the future would not be different)",
    path: ["future", "seed"],
  })
  .refine((o) => o.future === undefined || (o.future.from > o.start - HISTORY_MS && o.future.from < o.end), {
    message: "future.from must lie inside the generated span (start − 8 days, end)",
    path: ["future", "from"],
  });

/** Every stream kind's rows (world/row-schemas.ts) plus the truth tables the generator plants. */
export type SynthWorld = { [K in StreamKind]: StreamRows[K][] } & {
  truth: {
    breakpoint: BreakpointRow[];
    attribution: AttributionRow[];
    question_answer: QuestionAnswerRow[];
    label: LabelRow[];
  };
};

/** opaque ids `n<12 hex>` of each draft's content, rows in (published_at, id) order; the key → id map */
function finalizeNews(
  drafts: NewsDraft[],
  end: number,
  minter: IdMinter,
): { rows: NewsRow[]; ids: Map<string, string> } {
  const kept = drafts
    .filter((d) => d.published_at < end)
    .map((d) => ({ d, id: `n${minter.hex("news", [d.published_at, d.domain, d.title, d.text], 12)}` }));
  kept.sort((a, b) => a.d.published_at - b.d.published_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const ids = new Map<string, string>();
  const rows = kept.map(({ d, id }) => {
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
 * The questions of `generateRows(o)` (rows, answers and kinds), without the rest of the world: only
 * markets and filings are generated (milliseconds per seed, for tests over many seeds).
 */
export function generateQuestionSet(o: SynthOptions): QuestionStreams {
  const opts = SynthOptionsSchema.parse(o);
  const root = createRng(opts.seed);
  const from = opts.start - HISTORY_MS;
  const ids = new IdMinter(opts.seed);
  const markets = generateMarkets(root.split("markets"), from, opts.start, opts.end, ids);
  const filings = generateFilings(root.split("filings"), from, opts.start, opts.end, ids);
  return generateQuestions(root.split("questions"), markets.plans, filings, opts.start, opts.end, ids);
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
  const future: FutureStream = opts.future
    ? { rng: createRng(opts.future.seed).split("future"), from: opts.future.from }
    : null;
  const ids = new IdMinter(opts.seed);
  const reddit = generateReddit(root.split("reddit"), from, opts.end, ids, futureSplit(future, "reddit"));
  const markets = generateMarkets(
    root.split("markets"),
    from,
    opts.start,
    opts.end,
    ids,
    futureSplit(future, "markets"),
  );
  const filings = generateFilings(
    root.split("filings"),
    from,
    opts.start,
    opts.end,
    ids,
    futureSplit(future, "filings"),
  );
  const background = generateBackgroundNews(root.split("news"), from, opts.end, futureSplit(future, "news"));
  const candles = generateCandles(root.split("candles"), from, opts.end, futureSplit(future, "candles"));
  const broker = generateBrokerEvents(candles, opts.start, opts.end, ids);
  // asked from what is public at each open, answered from this world's markets and filings
  const questions = generateQuestions(root.split("questions"), markets.plans, filings, opts.start, opts.end, ids);
  const news = finalizeNews([...markets.news, ...filings.news, ...background], opts.end, ids);
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
    // by time; at one instant the PM book's events in the order they happen, then the blotter's
    broker_event: [...broker, ...generateBlotter(from, opts.start, opts.end, ids, futureSplit(future, "blotter"))].sort(
      (a, b) => a.t - b.t,
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
