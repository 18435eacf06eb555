import type {
  BrokerEventRow,
  CandleRow,
  CompanyRow,
  EventRow,
  FilingRow,
  MarketPriceRow,
  MarketResolutionRow,
  MarketRow,
  NewsRow,
  QuestionResolutionRow,
  QuestionRow,
  RedditCommentRow,
  RedditPostRow,
  XbrlFactRow,
} from "./types.js";

/**
 * An agent-facing view of a world bound to a clock: every method returns only rows with
 * `visible_at <= now()`, with the bound inside the SQL query (filter first, then rank, count,
 * sort and limit). Unknown and not-yet-visible ids give byte-identical `NotVisibleError`s.
 */
export interface AsOfView {
  now(): number;
  /**
   * The same world and options bound to the earlier instant of `cut` and this view's now:
   * `now()` = min(cut, this.now()). Never later than this view, so everything it returns was
   * visible here too (open-forecast's frozen news corpus).
   */
  capped(cut: number): AsOfView;
  news: {
    /** BM25 top-k over articles published in [from, min(to, now)]; default limit 10 */
    search(
      q: string,
      opts?: { from?: number; to?: number; offset?: number; limit?: number },
    ): {
      hits: { id: string; title: string; domain: string; published_at: number; snippet: string }[];
      capped_to: number;
    };
    /**
     * Hybrid top-k: BM25 and vector-similarity rankings of the articles published in
     * [from, min(to, now)] and visible now, fused by reciprocal rank (k = 60); default limit 10.
     * Throws when the world has no news vectors.
     */
    hybridSearch(
      q: string,
      /** queryVector: the query's L2-normalized embedding when the world's embedder is asynchronous (an endpoint) */
      opts?: { from?: number; to?: number; offset?: number; limit?: number; queryVector?: Float32Array },
    ): {
      hits: {
        id: string;
        title: string;
        domain: string;
        published_at: number;
        snippet: string;
        /** 1-based ranks in each list (null: not in that list's candidates) */
        bm25_rank: number | null;
        vector_rank: number | null;
      }[];
      capped_to: number;
    };
    get(id: string): NewsRow;
    count(opts?: { from?: number; to?: number }): number;
    /** articles that became visible in (after, min(until, now)], by visible_at then id (observations) */
    arrivals(after: number, until: number): { id: string; title: string; published_at: number; visible_at: number }[];
  };
  markets: {
    list(): MarketRow[];
    get(id: string): MarketRow;
    /** price points with t in [start, end] visible now, ascending by t */
    prices(market: string, start: number, end: number): MarketPriceRow[];
    /** the last visible price at or before t per outcome */
    lastPrice(market: string, t: number): MarketPriceRow[];
    resolutions(): MarketResolutionRow[];
  };
  reddit: {
    listPosts(opts: {
      since?: number;
      until?: number;
      subreddit?: string;
      sort?: "new" | "comments";
      order?: "asc" | "desc";
      offset?: number;
      limit?: number;
    }): { posts: (RedditPostRow & { num_comments: number })[]; total: number };
    getPost(id: string): RedditPostRow & { num_comments: number };
    /** visible reply prefix ordered by created_utc, paged */
    cascade(id: string, opts?: { offset?: number; limit?: number }): { comments: RedditCommentRow[]; total: number };
    /** revealed 24 h cascade sizes (post + 24 h ≤ now) */
    revealed(id: string): number | null;
    /** root posts that became visible in (after, min(until, now)], by visible_at then id (observations) */
    arrivals(after: number, until: number): { id: string; subreddit: string; title: string; visible_at: number }[];
  };
  exchanges: {
    /** completed candles with open_time in [from, to], ascending */
    candles(venue: string, symbol: string, from: number, to: number): CandleRow[];
    /**
     * of `candles(venue, symbol, from, to)`, the one visible last (the latest visible_at; then the
     * shortest interval, then the earliest open_time), or null when none: a mark in one row
     */
    latest(venue: string, symbol: string, from: number, to: number): CandleRow | null;
    symbols(venue: string): string[];
    venues(): string[];
  };
  filings: {
    companies(): CompanyRow[];
    submissions(cik: string): FilingRow[];
    facts(cik: string): XbrlFactRow[];
  };
  questions: {
    list(opts?: { added_after?: number }): QuestionRow[];
    get(id: string): QuestionRow;
    /** public answers (`question_resolution` rows) visible now, made public after `since` when given; by visible_at, question */
    resolutions(opts?: { since?: number }): QuestionResolutionRow[];
  };
  broker: {
    events(opts?: { since?: number; kind?: string }): BrokerEventRow[];
    /** rows that became visible in (after, min(until, now)], by visible_at then id (an incremental reader's cursor) */
    arrivals(after: number, until: number): BrokerEventRow[];
  };
  /** the `event` stream of an imported event log */
  events: {
    /** visible events with t in [since, until] (both inclusive) and of `kind` when given, by (t, id); a page (default 50) and the total that match */
    list(opts?: { since?: number; until?: number; kind?: string; offset?: number; limit?: number }): {
      events: EventRow[];
      total: number;
    };
    get(id: string): EventRow;
    /** events that became visible in (after, min(until, now)], by visible_at then id (observations) */
    arrivals(after: number, until: number): { id: string; kind: string; t: number; visible_at: number }[];
  };
}

/** The single error for unknown and not-yet-visible ids: message depends only on kind and id. */
export class NotVisibleError extends Error {
  constructor(kind: string, id: string) {
    super(`unknown ${kind} id: ${JSON.stringify(id)}`);
    this.name = "NotVisibleError";
  }
}
