import type Database from "better-sqlite3";
import { type AsOfView, NotVisibleError } from "./as-of-view.js";
import { hybridSearch } from "./hybrid-search.js";
import { boolTopK } from "./news-bool-top-k.js";
import type { NewsIndex } from "./news-index.js";
import { type TopKPhrase, topK } from "./news-top-k.js";
import type { NewsVectors } from "./news-vectors.js";
import {
  type BoolQuery,
  type CompiledQuery,
  compileSearchQuery,
  type FlatQuery,
  SearchQueryError,
  unusableQueryError,
} from "./search-query.js";
import { makeSnippet } from "./snippet.js";
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

/** What a view needs from its store: a statement cache over world.db and the news lag bounds. */
/** the candles of a series in [from, to] visible at now (the bound is in the statement) */
const CANDLES_SQL =
  "SELECT venue, symbol, interval_ms, open_time, o, h, l, c, v, visible_at FROM candle" +
  " WHERE venue = @venue AND symbol = @symbol AND open_time >= @from AND open_time <= @to" +
  " AND visible_at <= @now ORDER BY open_time, interval_ms";
/** of those, the one visible last (shortest interval, then earliest open_time, among equals) */
const LATEST_CANDLE_SQL =
  "SELECT venue, symbol, interval_ms, open_time, o, h, l, c, v, visible_at FROM candle" +
  " WHERE venue = @venue AND symbol = @symbol AND open_time >= @from AND open_time <= @to" +
  " AND visible_at <= @now ORDER BY visible_at DESC, interval_ms, open_time LIMIT 1";

export interface ViewBackend {
  stmt(sql: string): Database.Statement;
  /** max(published_at - visible_at) over all news (0 when none) */
  readonly newsLagPubOverVis: number;
  /** max(visible_at - published_at) over all news (0 when none) */
  readonly newsLagVisOverPub: number;
  /** the news vectors of hybrid search (null: the world has none) */
  newsVectors?(): NewsVectors | null;
  /** the relive-owned news index (null: the world was built without one; FTS5 ranks alone) */
  newsIndex?(): NewsIndex | null;
  /** published_at by seq (index seq - 1), for the exact bounds of lagged worlds */
  newsPublished?(): Float64Array;
  /**
   * max(created_utc - visible_at) over all Reddit posts (0 when none): a post visible by `now` was
   * created by `now + lead`, a redundant bound that lets `list_posts(since)` range over the creation
   * index instead of every post visible so far (the rows returned are the same)
   */
  redditPostLead?(): number;
  /** whether world.db has the named index (worlds built before it was added lack it) */
  hasIndex?(name: string): boolean;
  /**
   * The rows of `sql` (a statement of this view: its bound is among `params`) with `params`,
   * remembered across the views over this world (the world is immutable: the same statement with
   * the same parameters returns the same rows); each call gets its own copies.
   */
  memoAll?<R extends object>(sql: string, params: Record<string, number | string>): R[];
}

/**
 * BM25 corpus statistics of news search: `global` (default) = the whole world's, as FTS5 keeps
 * them (the one exception DESIGN allows); `strict` = as of now: documents, average length and term
 * document frequencies of the articles visible now only, so two worlds identical up to T rank alike
 * at every time <= T. Strict needs the relive-owned index and supports words joined by AND or OR.
 */
export type SearchStats = "global" | "strict";

export interface ViewOptions {
  search?: SearchStats;
}

/** The most results (offset + limit) the relive index ranks itself; deeper pages go to FTS5. */
const INDEX_MAX_K = 1000;

type SearchResult = ReturnType<AsOfView["news"]["search"]>;
type PostWithCount = RedditPostRow & { num_comments: number };

const NEWS_COLS = "id, url, domain, title, text, published_at, visible_at";
const POST_COLS = "p.id, p.subreddit, p.author, p.title, p.body, p.created_utc, p.visible_at";
const VISIBLE_COMMENTS = "(SELECT count(*) FROM reddit_comment c WHERE c.root = p.id AND c.visible_at <= @now)";
/**
 * `markets.lastPrice`: per outcome of the market, its newest row with t <= @t visible by @now (ties:
 * later visible_at, then later rowid), by outcome. The outcomes are walked by a skip scan and each
 * one's row is a LIMIT 1 probe, so a call costs a few index seeks instead of the market's whole
 * history; worlds with `market_price_outcome` probe it directly.
 */
const lastPriceSql = (indexedBy: string) =>
  "WITH RECURSIVE o(x) AS (SELECT min(outcome) FROM market_price WHERE market = @market" +
  " UNION ALL SELECT (SELECT min(outcome) FROM market_price WHERE market = @market AND outcome > o.x) FROM o WHERE o.x IS NOT NULL)" +
  " SELECT market, outcome, t, p, visible_at FROM market_price WHERE rowid IN (SELECT (SELECT m.rowid FROM market_price m" +
  `${indexedBy} WHERE m.market = @market AND m.outcome = o.x AND m.t <= @t AND m.visible_at <= @now` +
  " ORDER BY m.t DESC, m.visible_at DESC, m.rowid DESC LIMIT 1) FROM o WHERE o.x IS NOT NULL) ORDER BY outcome";
const LAST_PRICE = lastPriceSql("");
const LAST_PRICE_BY_OUTCOME_INDEX = lastPriceSql(" INDEXED BY market_price_outcome");
/** FTS5 bm25 column weights: title, body */
const BM25 = "bm25(news_fts, 2.0, 1.0)";
/**
 * The articles of search hits by seq (a JSON array), the as-of bound in the statement: at most two
 * statements per search (a statement per hit cost three times as much), the hits with a remembered
 * snippet without their texts, the others with them.
 */
const HITS_SQL =
  "SELECT o.seq, n.id, n.title, n.domain, n.published_at FROM news_order o JOIN news n ON n.rid = o.rid" +
  " WHERE o.seq IN (SELECT value FROM json_each(@seqs)) AND n.visible_at <= @now";
const HITS_WITH_TEXT_SQL = HITS_SQL.replace("n.published_at FROM", "n.published_at, n.text FROM");
/**
 * Snippets made by news search, per backend (a world: every view over it) by seq and query terms
 * (a snippet depends on the article and the terms only), at most this many (least recently used
 * dropped first): a policy asking the same queries at every wake gets most of the same articles
 * back, and making a snippet costs more than ranking them. Far above SEARCH_MAX_LIMIT: a search's
 * remembered snippets, refreshed first, are never evicted by its new ones.
 */
const SNIPPET_MEMO_MAX = 20_000;
const snippetMemos = new WeakMap<ViewBackend, Map<string, string>>();
function snippetMemo(b: ViewBackend): Map<string, string> {
  let m = snippetMemos.get(b);
  if (m === undefined) {
    m = new Map();
    snippetMemos.set(b, m);
  }
  return m;
}

const SEARCH_MAX_LIMIT = 100;
const PAGE_MAX_LIMIT = 1000;

function checkInt(name: string, v: number, min: number, max: number): number {
  if (!Number.isInteger(v) || v < min || v > max) {
    throw new RangeError(`${name} must be an integer in [${min}, ${max}], got ${String(v)}`);
  }
  return v;
}

function checkTime(name: string, v: number): number {
  if (typeof v !== "number" || !Number.isFinite(v)) throw new RangeError(`${name} must be a finite epoch-ms number`);
  return v;
}

function isFtsError(e: unknown): boolean {
  return e instanceof Error && /^fts5:|malformed MATCH/i.test(e.message);
}

/**
 * The SQLite implementation of AsOfView. Every statement carries `visible_at <= @now` (news search
 * carries it inside the rowid bound, see `searchSql`), so rows visible after `now` are filtered
 * before anything is ranked, counted, sorted or limited. `now()` is read on every call.
 */
export class SqliteAsOfView implements AsOfView {
  private readonly b: ViewBackend;
  private readonly clock: () => number;

  private readonly stats: SearchStats;

  constructor(backend: ViewBackend, now: () => number, opts: ViewOptions = {}) {
    this.b = backend;
    this.clock = now;
    this.stats = opts.search ?? "global";
    switch (this.stats) {
      case "global":
        break;
      case "strict":
        if (!this.b.newsIndex?.()) {
          throw new Error(
            "search: strict needs the world's news index (news_postings), which this world lacks: rebuild the world",
          );
        }
        break;
      default: {
        const never: never = this.stats;
        throw new RangeError(`unknown search statistics ${JSON.stringify(never)}: use "global" or "strict"`);
      }
    }
  }

  now(): number {
    return this.clock();
  }

  capped(cut: number): AsOfView {
    const parent = this.clock;
    return new SqliteAsOfView(this.b, () => Math.min(cut, parent()), { search: this.stats });
  }

  private t(): number {
    return checkTime("now", this.clock());
  }

  // ---------------------------------------------------------------- news
  readonly news: AsOfView["news"] = {
    search: (q, opts) => this.search(q, opts ?? {}),
    hybridSearch: (q, opts) => {
      const now = this.t();
      return hybridSearch(this.b, (qq, o) => this.rankBm25(now, qq, o), now, q, opts ?? {});
    },
    get: (id) => {
      const row = this.b.stmt(`SELECT ${NEWS_COLS} FROM news WHERE id = @id AND visible_at <= @now`).get({
        id,
        now: this.t(),
      }) as NewsRow | undefined;
      if (!row) throw new NotVisibleError("news", id);
      return row;
    },
    count: (opts) => {
      const now = this.t();
      const to = opts?.to === undefined ? now : Math.min(checkTime("to", opts.to), now);
      const from = opts?.from === undefined ? null : checkTime("from", opts.from);
      const sql =
        "SELECT count(*) AS n FROM news_order WHERE visible_at <= @now AND published_at <= @to" +
        (from === null ? "" : " AND published_at >= @from");
      const r = this.b.stmt(sql).get(from === null ? { now, to } : { now, to, from }) as { n: number };
      return r.n;
    },
    arrivals: (after, until) => {
      return this.b
        .stmt(
          "SELECT n.id, n.title, n.published_at, n.visible_at FROM news_order o JOIN news n ON n.rid = o.rid" +
            " WHERE o.visible_at > @after AND o.visible_at <= @until AND o.visible_at <= @now" +
            " ORDER BY o.visible_at, n.id",
        )
        .all({ after: checkTime("after", after), until: checkTime("until", until), now: this.t() }) as {
        id: string;
        title: string;
        published_at: number;
        visible_at: number;
      }[];
    },
  };

  /**
   * `news_order.seq` (the FTS rowid) is monotone in visible_at, so "visible at now" is
   * `rowid <= (the largest seq with visible_at <= @now)`: one backwards step in the
   * news_order_visible index, pushed into the FTS5 scan as a rowid range before bm25 ranking,
   * ORDER BY and LIMIT.
   *
   * When every article has published_at == visible_at (both lags 0) the published-date bounds are
   * seq bounds too, and the FTS table is queried alone. Otherwise the bounds are widened by the
   * recorded lags to a seq range, and the exact published_at / visible_at filter is applied by a
   * join to news_order (a narrow rowid lookup per match), still before ranking and limiting.
   */
  private searchSql(exact: boolean, hasFrom: boolean): string {
    const hi =
      "(SELECT seq FROM news_order WHERE visible_at <= min(@now, @hiVis) ORDER BY visible_at DESC, seq DESC LIMIT 1)";
    const lo = "(SELECT seq FROM news_order WHERE visible_at >= @loVis ORDER BY visible_at, seq LIMIT 1)";
    if (exact) {
      return (
        `SELECT rowid AS seq, ${BM25} AS score FROM news_fts WHERE news_fts MATCH @q` +
        ` AND rowid <= ${hi}${hasFrom ? ` AND rowid >= ${lo}` : ""}` +
        " ORDER BY score, seq LIMIT @limit OFFSET @offset"
      );
    }
    return (
      `SELECT f.rowid AS seq, ${BM25} AS score FROM news_fts f CROSS JOIN news_order o ON o.seq = f.rowid` +
      ` WHERE news_fts MATCH @q AND f.rowid <= ${hi}${hasFrom ? ` AND f.rowid >= ${lo}` : ""}` +
      ` AND o.visible_at <= @now AND o.published_at <= @to${hasFrom ? " AND o.published_at >= @from" : ""}` +
      " ORDER BY score, seq LIMIT @limit OFFSET @offset"
    );
  }

  private search(q: string, opts: { from?: number; to?: number; offset?: number; limit?: number }): SearchResult {
    const now = this.t();
    const { ranked, to, terms } = this.rankBm25(now, q, opts);
    if (ranked.length === 0) return { hits: [], capped_to: to };
    type Hit = { seq: number; id: string; title: string; domain: string; published_at: number; text?: string };
    // agents repeat their queries and get most of the same articles back: a remembered snippet is
    // refreshed (most recently used) before any new one is added, so adding cannot evict it; the
    // articles' texts are read only where a snippet must be made
    const snippets = snippetMemo(this.b);
    const termsKey = terms.join("\u0001");
    const keyOf = (seq: number) => `${seq}\u0000${termsKey}`;
    const known: number[] = [];
    const missing: number[] = [];
    for (const r of ranked) {
      const key = keyOf(r.seq);
      const snippet = snippets.get(key);
      if (snippet === undefined) missing.push(r.seq);
      else {
        known.push(r.seq);
        snippets.delete(key);
        snippets.set(key, snippet);
      }
    }
    const read = (sql: string, seqs: number[]): Hit[] =>
      seqs.length === 0 ? [] : (this.b.stmt(sql).all({ seqs: JSON.stringify(seqs), now }) as Hit[]);
    const rows = new Map(
      [...read(HITS_SQL, known), ...read(HITS_WITH_TEXT_SQL, missing)].map((h) => [h.seq, h] as const),
    );
    const hits: SearchResult["hits"] = [];
    for (const r of ranked) {
      const row = rows.get(r.seq);
      if (row === undefined) continue;
      const key = keyOf(r.seq);
      let snippet = snippets.get(key);
      if (snippet === undefined) {
        if (row.text === undefined)
          throw new Error(`news search: article seq ${r.seq} lost its snippet (internal error)`);
        snippet = makeSnippet(row.text, terms);
        if (snippets.size >= SNIPPET_MEMO_MAX) snippets.delete(snippets.keys().next().value as string);
        snippets.set(key, snippet);
      }
      hits.push({ id: row.id, title: row.title, domain: row.domain, published_at: row.published_at, snippet });
    }
    return { hits, capped_to: to };
  }

  /** BM25 ranking only (news_order seqs, best first), with the as-of bound in the query; see `searchSql`. */
  private rankBm25(
    now: number,
    q: string,
    opts: { from?: number; to?: number; offset?: number; limit?: number },
  ): { ranked: { seq: number; score: number }[]; to: number; terms: string[] } {
    const limit = checkInt("limit", opts.limit ?? 10, 1, SEARCH_MAX_LIMIT);
    const offset = checkInt("offset", opts.offset ?? 0, 0, Number.MAX_SAFE_INTEGER);
    const to = opts.to === undefined ? now : Math.min(checkTime("to", opts.to), now);
    const from = opts.from === undefined ? null : checkTime("from", opts.from);
    const compiled = compileSearchQuery(q);
    const exact = this.b.newsLagPubOverVis === 0 && this.b.newsLagVisOverPub === 0;
    const params: Record<string, number | string> = {
      now,
      limit,
      offset,
      hiVis: exact ? to : to + this.b.newsLagVisOverPub,
    };
    if (!exact) params.to = to;
    if (from !== null) {
      params.loVis = exact ? from : from - this.b.newsLagPubOverVis;
      if (!exact) params.from = from;
    }
    const native = this.rankWithIndex(compiled, now, to, from, offset, limit);
    if (native !== null) return { ranked: native, to, terms: compiled.terms };
    if (this.stats === "strict") {
      if (compiled.primary === null && compiled.fallback === null) throw unusableQueryError(q);
      throw new SearchQueryError(
        `search query ${JSON.stringify(q)}: strict search ranks single words joined by AND or by OR (at most ${INDEX_MAX_K} results deep); quoted phrases, NOT and parentheses need the default search statistics`,
      );
    }
    const stmt = this.b.stmt(this.searchSql(exact, from !== null));
    const run = (expr: string) => stmt.all({ ...params, q: expr }) as { seq: number; score: number }[];
    let ranked: { seq: number; score: number }[] | null = null;
    if (compiled.primary !== null) {
      try {
        ranked = run(compiled.primary);
      } catch (e) {
        if (!isFtsError(e)) throw e;
      }
    }
    if (ranked === null) {
      if (compiled.fallback === null) throw unusableQueryError(q);
      try {
        ranked = run(compiled.fallback);
      } catch (e) {
        if (!isFtsError(e)) throw e;
        throw unusableQueryError(q);
      }
    }
    return { ranked, to, terms: compiled.terms };
  }

  /**
   * Ranks a query with the relive index, exactly as the FTS5 statement of `searchSql` would (same
   * bounds, same bm25 order, same ties): flat queries (words or phrases joined by AND, or by OR;
   * the sanitized OR retry, also when FTS5's grammar rejects the primary query) by `topK` without
   * scoring every match, any other boolean shape (default statistics) by `boolTopK`; null when the
   * index cannot take the query (no index, a phrase FTS5 tokenizes to nothing, a phrase on a world
   * without positions, a page deeper than INDEX_MAX_K) and FTS5 must rank it.
   */
  private rankWithIndex(
    compiled: CompiledQuery,
    now: number,
    to: number,
    from: number | null,
    offset: number,
    limit: number,
  ): { seq: number; score: number }[] | null {
    const index = this.b.newsIndex?.() ?? null;
    if (index === null || offset + limit > INDEX_MAX_K) return null;
    const global = this.stats === "global";
    // what the FTS5 statement ranks: the primary query, else (absent, or rejected by FTS5's grammar) the retry
    const retry = compiled.primary === null || (global && compiled.primaryRejected);
    const flat: FlatQuery | null = !retry
      ? compiled.flat
      : compiled.fallback !== null
        ? { op: "OR", phrases: compiled.terms.map((t) => [t]) }
        : null;
    // any other boolean shape: by the tree (default statistics only)
    const tree = flat === null && !retry && global ? compiled.tree : null;
    if (flat === null && tree === null) return null;
    const terms: TopKPhrase[] = [];
    for (const words of flat?.phrases ?? tree?.phrases ?? []) {
      const t = index.queryTerms(words);
      // FTS5 phrases of two or more terms: by the index's positions; strict statistics rank words only
      if (t.length === 0 || (t.length > 1 && (!index.hasPositions || this.stats === "strict"))) return null;
      terms.push(t.length === 1 ? (t[0] as string) : t);
    }
    const exact = this.b.newsLagPubOverVis === 0 && this.b.newsLagVisOverPub === 0;
    const hiVis = exact ? to : to + this.b.newsLagVisOverPub;
    const bounds = this.b
      .stmt(
        "SELECT (SELECT seq FROM news_order WHERE visible_at <= min(@now, @hiVis) ORDER BY visible_at DESC, seq DESC LIMIT 1) AS hi," +
          " (SELECT seq FROM news_order WHERE visible_at <= @now ORDER BY visible_at DESC, seq DESC LIMIT 1) AS hiNow," +
          " (SELECT seq FROM news_order WHERE visible_at >= @loVis ORDER BY visible_at, seq LIMIT 1) AS lo",
      )
      .get({
        now,
        hiVis,
        loVis: from === null ? Number.MIN_SAFE_INTEGER : exact ? from : from - this.b.newsLagPubOverVis,
      }) as { hi: number | null; hiNow: number | null; lo: number | null };
    if (bounds.hi === null || bounds.lo === null || bounds.hiNow === null) return [];
    let accept: ((seq: number) => boolean) | undefined;
    if (!exact) {
      const pub = this.b.newsPublished?.();
      if (pub === undefined) return null;
      const hiNow = bounds.hiNow;
      const lo = from ?? Number.NEGATIVE_INFINITY;
      accept = (seq) => seq <= hiNow && (pub[seq - 1] as number) <= to && (pub[seq - 1] as number) >= lo;
    }
    const common = {
      lo: bounds.lo,
      hi: bounds.hi,
      k: offset + limit,
      ...(accept === undefined ? {} : { accept }),
      stats: global ? { kind: "global" as const } : { kind: "asOf" as const, asOf: bounds.hiNow },
    };
    const ranked =
      flat !== null
        ? topK(index, { terms, op: flat.op, ...common })
        : boolTopK(index, { phrases: terms, root: (tree as BoolQuery).root, ...common });
    return ranked.slice(offset);
  }

  // ---------------------------------------------------------------- markets
  readonly markets: AsOfView["markets"] = {
    list: () =>
      (
        this.b
          .stmt("SELECT * FROM market WHERE visible_at <= @now ORDER BY open, id")
          .all({ now: this.t() }) as MarketDbRow[]
      ).map(marketRow),
    get: (id) => {
      const r = this.b.stmt("SELECT * FROM market WHERE id = @id AND visible_at <= @now").get({ id, now: this.t() }) as
        | MarketDbRow
        | undefined;
      if (!r) throw new NotVisibleError("market", id);
      return marketRow(r);
    },
    prices: (market, start, end) =>
      this.b
        .stmt(
          "SELECT market, outcome, t, p, visible_at FROM market_price" +
            " WHERE market = @market AND t >= @start AND t <= @end AND visible_at <= @now" +
            " ORDER BY t, outcome, visible_at, rowid",
        )
        .all({
          market,
          start: checkTime("start", start),
          end: checkTime("end", end),
          now: this.t(),
        }) as MarketPriceRow[],
    lastPrice: (market, t) =>
      this.b
        .stmt(this.b.hasIndex?.("market_price_outcome") ? LAST_PRICE_BY_OUTCOME_INDEX : LAST_PRICE)
        .all({ market, t: checkTime("t", t), now: this.t() }) as MarketPriceRow[],
    resolutions: () =>
      this.b
        .stmt(
          "SELECT market, closed_at, result, visible_at FROM market_resolution WHERE visible_at <= @now" +
            " ORDER BY closed_at, market, rowid",
        )
        .all({ now: this.t() }) as MarketResolutionRow[],
  };

  // ---------------------------------------------------------------- reddit
  readonly reddit: AsOfView["reddit"] = {
    listPosts: (opts) => {
      const now = this.t();
      const sort = opts.sort ?? "new";
      const order = opts.order ?? "desc";
      const limit = checkInt("limit", opts.limit ?? 50, 1, PAGE_MAX_LIMIT);
      const offset = checkInt("offset", opts.offset ?? 0, 0, Number.MAX_SAFE_INTEGER);
      const params: Record<string, number | string> = { now };
      let where = "p.visible_at <= @now";
      if (opts.since !== undefined) {
        where += " AND p.created_utc >= @since";
        params.since = checkTime("since", opts.since);
        // redundant upper bound (visible_at <= now implies it): the creation index then has a closed range
        const lead = this.b.redditPostLead?.();
        if (lead !== undefined) {
          where += " AND p.created_utc <= @createdMax";
          params.createdMax = now + lead;
        }
      }
      if (opts.until !== undefined) {
        where += " AND p.created_utc <= @until";
        params.until = checkTime("until", opts.until);
      }
      if (opts.subreddit !== undefined) {
        where += " AND p.subreddit = @subreddit";
        params.subreddit = opts.subreddit;
      }
      const dir = orderDir(order);
      let orderBy: string;
      switch (sort) {
        case "new":
          orderBy = `p.created_utc ${dir}, p.id ${dir}`;
          break;
        case "comments":
          orderBy = `num_comments ${dir}, p.created_utc DESC, p.id ASC`;
          break;
        default: {
          const never: never = sort;
          throw new RangeError(`unknown sort ${JSON.stringify(never)}`);
        }
      }
      const postsSql =
        `SELECT ${POST_COLS}, ${VISIBLE_COMMENTS} AS num_comments FROM reddit_post p WHERE ${where}` +
        ` ORDER BY ${orderBy} LIMIT @limit OFFSET @offset`;
      const totalSql = `SELECT count(*) AS n FROM reddit_post p WHERE ${where}`;
      const memo = this.b.memoAll?.bind(this.b);
      const posts = memo
        ? memo<PostWithCount>(postsSql, { ...params, limit, offset })
        : (this.b.stmt(postsSql).all({ ...params, limit, offset }) as PostWithCount[]);
      const total = (
        memo ? memo<{ n: number }>(totalSql, params)[0]! : (this.b.stmt(totalSql).get(params) as { n: number })
      ).n;
      return { posts, total };
    },
    getPost: (id) => this.visiblePost(id, this.t()),
    cascade: (id, opts) => {
      const now = this.t();
      this.visiblePost(id, now);
      const limit = checkInt("limit", opts?.limit ?? 100, 1, PAGE_MAX_LIMIT);
      const offset = checkInt("offset", opts?.offset ?? 0, 0, Number.MAX_SAFE_INTEGER);
      const comments = this.b
        .stmt(
          "SELECT id, root, parent, created_utc, author, body, visible_at FROM reddit_comment" +
            " WHERE root = @id AND visible_at <= @now ORDER BY created_utc, id LIMIT @limit OFFSET @offset",
        )
        .all({ id, now, limit, offset }) as RedditCommentRow[];
      const total = (
        this.b
          .stmt("SELECT count(*) AS n FROM reddit_comment WHERE root = @id AND visible_at <= @now")
          .get({ id, now }) as {
          n: number;
        }
      ).n;
      return { comments, total };
    },
    revealed: (id) => {
      const now = this.t();
      this.visiblePost(id, now);
      const r = this.b
        .stmt(
          "SELECT descendants_24h AS d FROM reddit_reveal WHERE post = @id AND visible_at <= @now" +
            " ORDER BY visible_at DESC, rowid DESC LIMIT 1",
        )
        .get({ id, now }) as { d: number } | undefined;
      return r ? r.d : null;
    },
    arrivals: (after, until) =>
      this.b
        .stmt(
          "SELECT id, subreddit, title, visible_at FROM reddit_post WHERE visible_at > @after AND visible_at <= @until" +
            " AND visible_at <= @now ORDER BY visible_at, id",
        )
        .all({ after: checkTime("after", after), until: checkTime("until", until), now: this.t() }) as {
        id: string;
        subreddit: string;
        title: string;
        visible_at: number;
      }[],
  };

  private visiblePost(id: string, now: number): PostWithCount {
    const r = this.b
      .stmt(
        `SELECT ${POST_COLS}, ${VISIBLE_COMMENTS} AS num_comments FROM reddit_post p WHERE p.id = @id AND p.visible_at <= @now`,
      )
      .get({ id, now }) as PostWithCount | undefined;
    if (!r) throw new NotVisibleError("reddit_post", id);
    return r;
  }

  // ---------------------------------------------------------------- exchanges
  readonly exchanges: AsOfView["exchanges"] = {
    candles: (venue, symbol, from, to) => {
      const params = { venue, symbol, from: checkTime("from", from), to: checkTime("to", to), now: this.t() };
      return this.b.memoAll
        ? this.b.memoAll<CandleRow>(CANDLES_SQL, params)
        : (this.b.stmt(CANDLES_SQL).all(params) as CandleRow[]);
    },
    latest: (venue, symbol, from, to) =>
      (this.b
        .stmt(LATEST_CANDLE_SQL)
        .get({ venue, symbol, from: checkTime("from", from), to: checkTime("to", to), now: this.t() }) as
        | CandleRow
        | undefined) ?? null,
    symbols: (venue) =>
      (
        this.b
          .stmt("SELECT DISTINCT symbol FROM candle_series WHERE venue = @venue AND visible_at <= @now ORDER BY symbol")
          .all({ venue, now: this.t() }) as { symbol: string }[]
      ).map((r) => r.symbol),
    venues: () =>
      (
        this.b
          .stmt("SELECT DISTINCT venue FROM candle_series WHERE visible_at <= @now ORDER BY venue")
          .all({ now: this.t() }) as { venue: string }[]
      ).map((r) => r.venue),
  };

  // ---------------------------------------------------------------- filings
  readonly filings: AsOfView["filings"] = {
    companies: () =>
      this.b
        .stmt("SELECT cik, ticker, name, visible_at FROM company WHERE visible_at <= @now ORDER BY cik, visible_at")
        .all({ now: this.t() }) as CompanyRow[],
    submissions: (cik) =>
      this.b
        .stmt(
          "SELECT cik, accession, form, items, filed, accepted_at, report_date, visible_at FROM filing" +
            " WHERE cik = @cik AND visible_at <= @now ORDER BY accepted_at, accession",
        )
        .all({ cik, now: this.t() }) as FilingRow[],
    facts: (cik) =>
      this.b
        .stmt(
          'SELECT cik, taxonomy, concept, unit, start, "end", val, accn, fy, fp, form, filed, visible_at FROM xbrl_fact' +
            ' WHERE cik = @cik AND visible_at <= @now ORDER BY concept, "end", unit, accn, rowid',
        )
        .all({ cik, now: this.t() }) as XbrlFactRow[],
  };

  // ---------------------------------------------------------------- questions
  readonly questions: AsOfView["questions"] = {
    list: (opts) => {
      const now = this.t();
      const after = opts?.added_after;
      const sql =
        "SELECT id, title, background, criteria, open, resolve, answer_type, visible_at FROM question" +
        ` WHERE visible_at <= @now${after === undefined ? "" : " AND visible_at > @after"} ORDER BY visible_at, id`;
      return this.b
        .stmt(sql)
        .all(after === undefined ? { now } : { now, after: checkTime("added_after", after) }) as QuestionRow[];
    },
    get: (id) => {
      const r = this.b
        .stmt(
          "SELECT id, title, background, criteria, open, resolve, answer_type, visible_at FROM question" +
            " WHERE id = @id AND visible_at <= @now",
        )
        .get({ id, now: this.t() }) as QuestionRow | undefined;
      if (!r) throw new NotVisibleError("question", id);
      return r;
    },
    resolutions: (opts) => {
      const now = this.t();
      const since = opts?.since;
      const sql =
        "SELECT question, answer, resolved_at, visible_at FROM question_resolution" +
        ` WHERE visible_at <= @now${since === undefined ? "" : " AND visible_at > @since"} ORDER BY visible_at, question`;
      return this.b
        .stmt(sql)
        .all(since === undefined ? { now } : { now, since: checkTime("since", since) }) as QuestionResolutionRow[];
    },
  };

  // ---------------------------------------------------------------- broker
  readonly broker: AsOfView["broker"] = {
    events: (opts) => {
      const params: Record<string, number | string> = { now: this.t() };
      let where = "visible_at <= @now";
      if (opts?.since !== undefined) {
        where += " AND t >= @since";
        params.since = checkTime("since", opts.since);
      }
      if (opts?.kind !== undefined) {
        where += " AND kind = @kind";
        params.kind = opts.kind;
      }
      const rows = this.b
        .stmt(`SELECT id, kind, t, payload, visible_at FROM broker_event WHERE ${where} ORDER BY t, id`)
        .all(params) as (Omit<BrokerEventRow, "payload"> & { payload: string })[];
      return rows.map((r) => ({ ...r, payload: JSON.parse(r.payload) as Record<string, unknown> }));
    },
    arrivals: (after, until) => {
      const rows = this.b
        .stmt(
          "SELECT id, kind, t, payload, visible_at FROM broker_event WHERE visible_at > @after AND visible_at <= @until" +
            " AND visible_at <= @now ORDER BY visible_at, id",
        )
        .all({ after: checkTime("after", after), until: checkTime("until", until), now: this.t() }) as (Omit<
        BrokerEventRow,
        "payload"
      > & { payload: string })[];
      return rows.map((r) => ({ ...r, payload: JSON.parse(r.payload) as Record<string, unknown> }));
    },
  };

  // ---------------------------------------------------------------- events (imported event logs)
  readonly events: AsOfView["events"] = {
    list: (opts = {}) => {
      const limit = checkInt("limit", opts.limit ?? 50, 1, PAGE_MAX_LIMIT);
      const offset = checkInt("offset", opts.offset ?? 0, 0, Number.MAX_SAFE_INTEGER);
      const params: Record<string, number | string> = { now: this.t() };
      let where = "visible_at <= @now";
      if (opts.since !== undefined) {
        where += " AND t >= @since";
        params.since = checkTime("since", opts.since);
      }
      if (opts.until !== undefined) {
        where += " AND t <= @until";
        params.until = checkTime("until", opts.until);
      }
      if (opts.kind !== undefined) {
        where += " AND kind = @kind";
        params.kind = opts.kind;
      }
      const rows = this.b
        .stmt(`SELECT ${EVENT_COLS} FROM event WHERE ${where} ORDER BY t, id LIMIT @limit OFFSET @offset`)
        .all({ ...params, limit, offset }) as EventDbRow[];
      const total = (this.b.stmt(`SELECT count(*) AS n FROM event WHERE ${where}`).get(params) as { n: number }).n;
      return { events: rows.map(eventRow), total };
    },
    get: (id) => {
      const r = this.b
        .stmt(`SELECT ${EVENT_COLS} FROM event WHERE id = @id AND visible_at <= @now`)
        .get({ id, now: this.t() }) as EventDbRow | undefined;
      if (!r) throw new NotVisibleError("event", id);
      return eventRow(r);
    },
    arrivals: (after, until) =>
      this.b
        .stmt(
          "SELECT id, kind, t, visible_at FROM event WHERE visible_at > @after AND visible_at <= @until" +
            " AND visible_at <= @now ORDER BY visible_at, id",
        )
        .all({ after: checkTime("after", after), until: checkTime("until", until), now: this.t() }) as {
        id: string;
        kind: string;
        t: number;
        visible_at: number;
      }[],
  };
}

const EVENT_COLS = "id, kind, t, payload, visible_at";
type EventDbRow = Omit<EventRow, "payload"> & { payload: string };

function eventRow(r: EventDbRow): EventRow {
  return {
    id: r.id,
    kind: r.kind,
    t: r.t,
    payload: JSON.parse(r.payload) as Record<string, unknown>,
    visible_at: r.visible_at,
  };
}

type MarketDbRow = Omit<MarketRow, "outcomes"> & { outcomes: string };

function marketRow(r: MarketDbRow): MarketRow {
  return {
    id: r.id,
    question: r.question,
    description: r.description,
    outcomes: JSON.parse(r.outcomes) as string[],
    open: r.open,
    scheduled_end: r.scheduled_end,
    visible_at: r.visible_at,
  };
}

function orderDir(order: "asc" | "desc"): "ASC" | "DESC" {
  switch (order) {
    case "asc":
      return "ASC";
    case "desc":
      return "DESC";
    default: {
      const never: never = order;
      throw new RangeError(`unknown order ${JSON.stringify(never)}`);
    }
  }
}
