import { NotVisibleError } from "./as-of-view.js";
import { hybridSearch } from "./hybrid-search.js";
import { topK } from "./news-top-k.js";
import {
  compileSearchQuery,
  SearchQueryError,
  unusableQueryError
} from "./search-query.js";
import { makeSnippet } from "./snippet.js";
const INDEX_MAX_K = 1e3;
const NEWS_COLS = "id, url, domain, title, text, published_at, visible_at";
const POST_COLS = "p.id, p.subreddit, p.author, p.title, p.body, p.created_utc, p.visible_at";
const VISIBLE_COMMENTS = "(SELECT count(*) FROM reddit_comment c WHERE c.root = p.id AND c.visible_at <= @now)";
const BM25 = "bm25(news_fts, 2.0, 1.0)";
const SEARCH_MAX_LIMIT = 100;
const PAGE_MAX_LIMIT = 1e3;
function checkInt(name, v, min, max) {
  if (!Number.isInteger(v) || v < min || v > max) {
    throw new RangeError(`${name} must be an integer in [${min}, ${max}], got ${String(v)}`);
  }
  return v;
}
function checkTime(name, v) {
  if (typeof v !== "number" || !Number.isFinite(v)) throw new RangeError(`${name} must be a finite epoch-ms number`);
  return v;
}
function isFtsError(e) {
  return e instanceof Error && /^fts5:|malformed MATCH/i.test(e.message);
}
class SqliteAsOfView {
  b;
  clock;
  stats;
  constructor(backend, now, opts = {}) {
    this.b = backend;
    this.clock = now;
    this.stats = opts.search ?? "global";
    switch (this.stats) {
      case "global":
        break;
      case "strict":
        if (!this.b.newsIndex?.()) {
          throw new Error(
            "search: strict needs the world's news index (news_postings), which this world lacks: rebuild the world"
          );
        }
        break;
      default: {
        const never = this.stats;
        throw new RangeError(`unknown search statistics ${JSON.stringify(never)}: use "global" or "strict"`);
      }
    }
  }
  now() {
    return this.clock();
  }
  t() {
    return checkTime("now", this.clock());
  }
  // ---------------------------------------------------------------- news
  news = {
    search: (q, opts) => this.search(q, opts ?? {}),
    hybridSearch: (q, opts) => {
      const now = this.t();
      return hybridSearch(this.b, (qq, o) => this.rankBm25(now, qq, o), now, q, opts ?? {});
    },
    get: (id) => {
      const row = this.b.stmt(`SELECT ${NEWS_COLS} FROM news WHERE id = @id AND visible_at <= @now`).get({
        id,
        now: this.t()
      });
      if (!row) throw new NotVisibleError("news", id);
      return row;
    },
    count: (opts) => {
      const now = this.t();
      const to = opts?.to === void 0 ? now : Math.min(checkTime("to", opts.to), now);
      const from = opts?.from === void 0 ? null : checkTime("from", opts.from);
      const sql = "SELECT count(*) AS n FROM news_order WHERE visible_at <= @now AND published_at <= @to" + (from === null ? "" : " AND published_at >= @from");
      const r = this.b.stmt(sql).get(from === null ? { now, to } : { now, to, from });
      return r.n;
    },
    arrivals: (after, until) => {
      return this.b.stmt(
        "SELECT n.id, n.title, n.published_at, n.visible_at FROM news_order o JOIN news n ON n.rid = o.rid WHERE o.visible_at > @after AND o.visible_at <= @until AND o.visible_at <= @now ORDER BY o.visible_at, n.id"
      ).all({ after: checkTime("after", after), until: checkTime("until", until), now: this.t() });
    }
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
  searchSql(exact, hasFrom) {
    const hi = "(SELECT seq FROM news_order WHERE visible_at <= min(@now, @hiVis) ORDER BY visible_at DESC, seq DESC LIMIT 1)";
    const lo = "(SELECT seq FROM news_order WHERE visible_at >= @loVis ORDER BY visible_at, seq LIMIT 1)";
    if (exact) {
      return `SELECT rowid AS seq, ${BM25} AS score FROM news_fts WHERE news_fts MATCH @q AND rowid <= ${hi}${hasFrom ? ` AND rowid >= ${lo}` : ""} ORDER BY score, seq LIMIT @limit OFFSET @offset`;
    }
    return `SELECT f.rowid AS seq, ${BM25} AS score FROM news_fts f CROSS JOIN news_order o ON o.seq = f.rowid WHERE news_fts MATCH @q AND f.rowid <= ${hi}${hasFrom ? ` AND f.rowid >= ${lo}` : ""} AND o.visible_at <= @now AND o.published_at <= @to${hasFrom ? " AND o.published_at >= @from" : ""} ORDER BY score, seq LIMIT @limit OFFSET @offset`;
  }
  search(q, opts) {
    const now = this.t();
    const { ranked, to, terms } = this.rankBm25(now, q, opts);
    const byId = this.b.stmt(
      "SELECT n.id, n.title, n.domain, n.published_at, n.text FROM news_order o JOIN news n ON n.rid = o.rid WHERE o.seq = @seq AND n.visible_at <= @now"
    );
    const hits = [];
    for (const r of ranked) {
      const row = byId.get({ seq: r.seq, now });
      if (!row) continue;
      hits.push({
        id: row.id,
        title: row.title,
        domain: row.domain,
        published_at: row.published_at,
        snippet: makeSnippet(row.text, terms)
      });
    }
    return { hits, capped_to: to };
  }
  /** BM25 ranking only (news_order seqs, best first), with the as-of bound in the query; see `searchSql`. */
  rankBm25(now, q, opts) {
    const limit = checkInt("limit", opts.limit ?? 10, 1, SEARCH_MAX_LIMIT);
    const offset = checkInt("offset", opts.offset ?? 0, 0, Number.MAX_SAFE_INTEGER);
    const to = opts.to === void 0 ? now : Math.min(checkTime("to", opts.to), now);
    const from = opts.from === void 0 ? null : checkTime("from", opts.from);
    const compiled = compileSearchQuery(q);
    const exact = this.b.newsLagPubOverVis === 0 && this.b.newsLagVisOverPub === 0;
    const stmt = this.b.stmt(this.searchSql(exact, from !== null));
    const params = {
      now,
      limit,
      offset,
      hiVis: exact ? to : to + this.b.newsLagVisOverPub
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
        `search query ${JSON.stringify(q)}: strict search ranks single words joined by AND or by OR (at most ${INDEX_MAX_K} results deep); quoted phrases, NOT and parentheses need the default search statistics`
      );
    }
    const run = (expr) => stmt.all({ ...params, q: expr });
    let ranked = null;
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
   * Ranks a flat query (words joined by AND, or by OR; or the sanitized OR retry) with the relive
   * index, exactly as the FTS5 statement of `searchSql` would (same bounds, same bm25 order, same
   * ties) but without scoring every match; null when the index cannot take the query (no index,
   * a word FTS5 splits into a phrase, a page deeper than INDEX_MAX_K) and FTS5 must rank it.
   */
  rankWithIndex(compiled, now, to, from, offset, limit) {
    const index = this.b.newsIndex?.() ?? null;
    if (index === null || offset + limit > INDEX_MAX_K) return null;
    const flat = compiled.primary !== null ? compiled.flat : compiled.fallback !== null ? { op: "OR", words: compiled.terms } : null;
    if (flat === null) return null;
    const terms = [];
    for (const w of flat.words) {
      const t = index.queryTerm(w);
      if (t === null) return null;
      terms.push(t);
    }
    const exact = this.b.newsLagPubOverVis === 0 && this.b.newsLagVisOverPub === 0;
    const hiVis = exact ? to : to + this.b.newsLagVisOverPub;
    const bounds = this.b.stmt(
      "SELECT (SELECT seq FROM news_order WHERE visible_at <= min(@now, @hiVis) ORDER BY visible_at DESC, seq DESC LIMIT 1) AS hi, (SELECT seq FROM news_order WHERE visible_at <= @now ORDER BY visible_at DESC, seq DESC LIMIT 1) AS hiNow, (SELECT seq FROM news_order WHERE visible_at >= @loVis ORDER BY visible_at, seq LIMIT 1) AS lo"
    ).get({
      now,
      hiVis,
      loVis: from === null ? Number.MIN_SAFE_INTEGER : exact ? from : from - this.b.newsLagPubOverVis
    });
    if (bounds.hi === null || bounds.lo === null || bounds.hiNow === null) return [];
    let accept;
    if (!exact) {
      const pub = this.b.newsPublished?.();
      if (pub === void 0) return null;
      const hiNow = bounds.hiNow;
      const lo = from ?? Number.NEGATIVE_INFINITY;
      accept = (seq) => seq <= hiNow && pub[seq - 1] <= to && pub[seq - 1] >= lo;
    }
    const ranked = topK(index, {
      terms,
      op: flat.op,
      lo: bounds.lo,
      hi: bounds.hi,
      k: offset + limit,
      ...accept === void 0 ? {} : { accept },
      stats: this.stats === "strict" ? { kind: "asOf", asOf: bounds.hiNow } : { kind: "global" }
    });
    return ranked.slice(offset);
  }
  // ---------------------------------------------------------------- markets
  markets = {
    list: () => this.b.stmt("SELECT * FROM market WHERE visible_at <= @now ORDER BY open, id").all({ now: this.t() }).map(marketRow),
    get: (id) => {
      const r = this.b.stmt("SELECT * FROM market WHERE id = @id AND visible_at <= @now").get({ id, now: this.t() });
      if (!r) throw new NotVisibleError("market", id);
      return marketRow(r);
    },
    prices: (market, start, end) => this.b.stmt(
      "SELECT market, outcome, t, p, visible_at FROM market_price WHERE market = @market AND t >= @start AND t <= @end AND visible_at <= @now ORDER BY t, outcome, visible_at, rowid"
    ).all({
      market,
      start: checkTime("start", start),
      end: checkTime("end", end),
      now: this.t()
    }),
    lastPrice: (market, t) => this.b.stmt(
      "SELECT market, outcome, t, p, visible_at FROM ( SELECT market, outcome, t, p, visible_at, row_number() OVER (PARTITION BY outcome ORDER BY t DESC, visible_at DESC, rowid DESC) AS rn FROM market_price WHERE market = @market AND t <= @t AND visible_at <= @now) WHERE rn = 1 ORDER BY outcome"
    ).all({ market, t: checkTime("t", t), now: this.t() }),
    resolutions: () => this.b.stmt(
      "SELECT market, closed_at, result, visible_at FROM market_resolution WHERE visible_at <= @now ORDER BY closed_at, market, rowid"
    ).all({ now: this.t() })
  };
  // ---------------------------------------------------------------- reddit
  reddit = {
    listPosts: (opts) => {
      const now = this.t();
      const sort = opts.sort ?? "new";
      const order = opts.order ?? "desc";
      const limit = checkInt("limit", opts.limit ?? 50, 1, PAGE_MAX_LIMIT);
      const offset = checkInt("offset", opts.offset ?? 0, 0, Number.MAX_SAFE_INTEGER);
      const params = { now };
      let where = "p.visible_at <= @now";
      if (opts.since !== void 0) {
        where += " AND p.created_utc >= @since";
        params.since = checkTime("since", opts.since);
      }
      if (opts.until !== void 0) {
        where += " AND p.created_utc <= @until";
        params.until = checkTime("until", opts.until);
      }
      if (opts.subreddit !== void 0) {
        where += " AND p.subreddit = @subreddit";
        params.subreddit = opts.subreddit;
      }
      const dir = orderDir(order);
      let orderBy;
      switch (sort) {
        case "new":
          orderBy = `p.created_utc ${dir}, p.id ${dir}`;
          break;
        case "comments":
          orderBy = `num_comments ${dir}, p.created_utc DESC, p.id ASC`;
          break;
        default: {
          const never = sort;
          throw new RangeError(`unknown sort ${JSON.stringify(never)}`);
        }
      }
      const posts = this.b.stmt(
        `SELECT ${POST_COLS}, ${VISIBLE_COMMENTS} AS num_comments FROM reddit_post p WHERE ${where} ORDER BY ${orderBy} LIMIT @limit OFFSET @offset`
      ).all({ ...params, limit, offset });
      const total = this.b.stmt(`SELECT count(*) AS n FROM reddit_post p WHERE ${where}`).get(params).n;
      return { posts, total };
    },
    getPost: (id) => this.visiblePost(id, this.t()),
    cascade: (id, opts) => {
      const now = this.t();
      this.visiblePost(id, now);
      const limit = checkInt("limit", opts?.limit ?? 100, 1, PAGE_MAX_LIMIT);
      const offset = checkInt("offset", opts?.offset ?? 0, 0, Number.MAX_SAFE_INTEGER);
      const comments = this.b.stmt(
        "SELECT id, root, parent, created_utc, author, body, visible_at FROM reddit_comment WHERE root = @id AND visible_at <= @now ORDER BY created_utc, id LIMIT @limit OFFSET @offset"
      ).all({ id, now, limit, offset });
      const total = this.b.stmt("SELECT count(*) AS n FROM reddit_comment WHERE root = @id AND visible_at <= @now").get({ id, now }).n;
      return { comments, total };
    },
    revealed: (id) => {
      const now = this.t();
      this.visiblePost(id, now);
      const r = this.b.stmt(
        "SELECT descendants_24h AS d FROM reddit_reveal WHERE post = @id AND visible_at <= @now ORDER BY visible_at DESC, rowid DESC LIMIT 1"
      ).get({ id, now });
      return r ? r.d : null;
    }
  };
  visiblePost(id, now) {
    const r = this.b.stmt(
      `SELECT ${POST_COLS}, ${VISIBLE_COMMENTS} AS num_comments FROM reddit_post p WHERE p.id = @id AND p.visible_at <= @now`
    ).get({ id, now });
    if (!r) throw new NotVisibleError("reddit_post", id);
    return r;
  }
  // ---------------------------------------------------------------- exchanges
  exchanges = {
    candles: (venue, symbol, from, to) => this.b.stmt(
      "SELECT venue, symbol, interval_ms, open_time, o, h, l, c, v, visible_at FROM candle WHERE venue = @venue AND symbol = @symbol AND open_time >= @from AND open_time <= @to AND visible_at <= @now ORDER BY open_time, interval_ms"
    ).all({ venue, symbol, from: checkTime("from", from), to: checkTime("to", to), now: this.t() }),
    symbols: (venue) => this.b.stmt("SELECT DISTINCT symbol FROM candle_series WHERE venue = @venue AND visible_at <= @now ORDER BY symbol").all({ venue, now: this.t() }).map((r) => r.symbol),
    venues: () => this.b.stmt("SELECT DISTINCT venue FROM candle_series WHERE visible_at <= @now ORDER BY venue").all({ now: this.t() }).map((r) => r.venue)
  };
  // ---------------------------------------------------------------- filings
  filings = {
    companies: () => this.b.stmt("SELECT cik, ticker, name, visible_at FROM company WHERE visible_at <= @now ORDER BY cik").all({ now: this.t() }),
    submissions: (cik) => this.b.stmt(
      "SELECT cik, accession, form, items, filed, accepted_at, report_date, visible_at FROM filing WHERE cik = @cik AND visible_at <= @now ORDER BY accepted_at, accession"
    ).all({ cik, now: this.t() }),
    facts: (cik) => this.b.stmt(
      'SELECT cik, taxonomy, concept, unit, start, "end", val, accn, fy, fp, form, filed, visible_at FROM xbrl_fact WHERE cik = @cik AND visible_at <= @now ORDER BY concept, "end", unit, accn, rowid'
    ).all({ cik, now: this.t() })
  };
  // ---------------------------------------------------------------- questions
  questions = {
    list: (opts) => {
      const now = this.t();
      const after = opts?.added_after;
      const sql = `SELECT id, title, background, criteria, open, resolve, answer_type, visible_at FROM question WHERE visible_at <= @now${after === void 0 ? "" : " AND visible_at > @after"} ORDER BY visible_at, id`;
      return this.b.stmt(sql).all(after === void 0 ? { now } : { now, after: checkTime("added_after", after) });
    },
    get: (id) => {
      const r = this.b.stmt(
        "SELECT id, title, background, criteria, open, resolve, answer_type, visible_at FROM question WHERE id = @id AND visible_at <= @now"
      ).get({ id, now: this.t() });
      if (!r) throw new NotVisibleError("question", id);
      return r;
    },
    resolutions: (opts) => {
      const now = this.t();
      const since = opts?.since;
      const sql = `SELECT question, answer, resolved_at, visible_at FROM question_resolution WHERE visible_at <= @now${since === void 0 ? "" : " AND visible_at > @since"} ORDER BY visible_at, question`;
      return this.b.stmt(sql).all(since === void 0 ? { now } : { now, since: checkTime("since", since) });
    }
  };
  // ---------------------------------------------------------------- broker
  broker = {
    events: (opts) => {
      const params = { now: this.t() };
      let where = "visible_at <= @now";
      if (opts?.since !== void 0) {
        where += " AND t >= @since";
        params.since = checkTime("since", opts.since);
      }
      if (opts?.kind !== void 0) {
        where += " AND kind = @kind";
        params.kind = opts.kind;
      }
      const rows = this.b.stmt(`SELECT id, kind, t, payload, visible_at FROM broker_event WHERE ${where} ORDER BY t, id`).all(params);
      return rows.map((r) => ({ ...r, payload: JSON.parse(r.payload) }));
    }
  };
  // ---------------------------------------------------------------- events (imported event logs)
  events = {
    list: (opts = {}) => {
      const limit = checkInt("limit", opts.limit ?? 50, 1, PAGE_MAX_LIMIT);
      const offset = checkInt("offset", opts.offset ?? 0, 0, Number.MAX_SAFE_INTEGER);
      const params = { now: this.t() };
      let where = "visible_at <= @now";
      if (opts.since !== void 0) {
        where += " AND t >= @since";
        params.since = checkTime("since", opts.since);
      }
      if (opts.until !== void 0) {
        where += " AND t <= @until";
        params.until = checkTime("until", opts.until);
      }
      if (opts.kind !== void 0) {
        where += " AND kind = @kind";
        params.kind = opts.kind;
      }
      const rows = this.b.stmt(`SELECT ${EVENT_COLS} FROM event WHERE ${where} ORDER BY t, id LIMIT @limit OFFSET @offset`).all({ ...params, limit, offset });
      const total = this.b.stmt(`SELECT count(*) AS n FROM event WHERE ${where}`).get(params).n;
      return { events: rows.map(eventRow), total };
    },
    get: (id) => {
      const r = this.b.stmt(`SELECT ${EVENT_COLS} FROM event WHERE id = @id AND visible_at <= @now`).get({ id, now: this.t() });
      if (!r) throw new NotVisibleError("event", id);
      return eventRow(r);
    },
    arrivals: (after, until) => this.b.stmt(
      "SELECT id, kind, t, visible_at FROM event WHERE visible_at > @after AND visible_at <= @until AND visible_at <= @now ORDER BY visible_at, id"
    ).all({ after: checkTime("after", after), until: checkTime("until", until), now: this.t() })
  };
}
const EVENT_COLS = "id, kind, t, payload, visible_at";
function eventRow(r) {
  return {
    id: r.id,
    kind: r.kind,
    t: r.t,
    payload: JSON.parse(r.payload),
    visible_at: r.visible_at
  };
}
function marketRow(r) {
  return {
    id: r.id,
    question: r.question,
    description: r.description,
    outcomes: JSON.parse(r.outcomes),
    open: r.open,
    scheduled_end: r.scheduled_end,
    visible_at: r.visible_at
  };
}
function orderDir(order) {
  switch (order) {
    case "asc":
      return "ASC";
    case "desc":
      return "DESC";
    default: {
      const never = order;
      throw new RangeError(`unknown order ${JSON.stringify(never)}`);
    }
  }
}
export {
  SqliteAsOfView
};
//# sourceMappingURL=sqlite-as-of-view.js.map
