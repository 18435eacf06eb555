/**
 * SQLite DDL of a world directory: `world.db` (agent-visible streams, read through as-of views)
 * and `truth.db` (ground truth, never opened by agent-facing code).
 *
 * Every stream table carries `visible_at` (UTC epoch ms) and an index on it plus its natural lookup
 * keys, so every as-of query is an index range scan. Uniqueness constraints are created with the
 * tables (they catch duplicate ids during the build); the secondary indexes are created by
 * `WorldBuilder.finish()` after the bulk load (faster than maintaining them row by row).
 *
 * News: `news` is keyed by an integer rowid (`rid`, insertion order). `finish()` writes its time
 * index `news_order` (seq, rid, visible_at, published_at) in (visible_at, id) order, so `seq` is
 * monotone in visible_at whatever order rows arrived in, and `news_fts` is a contentless FTS5 table
 * whose rowid is `seq`. Its columns hold title and text with English stopwords removed (see
 * fts-text.ts), tokenized by porter over unicode61. Because seq is monotone in visible_at,
 * "visible at now" is the FTS rowid range `rowid <= (largest seq with visible_at <= now)`, found by
 * one step in the `news_order_visible` index.
 */

/** Stream tables and their uniqueness constraints (created with the empty database). */
export const WORLD_TABLES_DDL = `
CREATE TABLE news (
  rid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  published_at INTEGER NOT NULL,
  visible_at INTEGER NOT NULL,
  domain TEXT NOT NULL,
  url TEXT NOT NULL,
  title TEXT NOT NULL,
  text TEXT NOT NULL
);
CREATE TABLE market (
  id TEXT PRIMARY KEY,
  question TEXT NOT NULL,
  description TEXT NOT NULL,
  outcomes TEXT NOT NULL,
  open INTEGER NOT NULL,
  scheduled_end INTEGER NOT NULL,
  visible_at INTEGER NOT NULL
);
CREATE TABLE market_price (
  market TEXT NOT NULL,
  outcome TEXT NOT NULL,
  t INTEGER NOT NULL,
  p REAL NOT NULL,
  visible_at INTEGER NOT NULL
);
CREATE TABLE market_resolution (
  market TEXT NOT NULL,
  closed_at INTEGER NOT NULL,
  result TEXT NOT NULL,
  visible_at INTEGER NOT NULL
);
CREATE TABLE reddit_post (
  id TEXT PRIMARY KEY,
  subreddit TEXT NOT NULL,
  author TEXT NOT NULL,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  created_utc INTEGER NOT NULL,
  visible_at INTEGER NOT NULL
);
CREATE TABLE reddit_comment (
  id TEXT PRIMARY KEY,
  root TEXT NOT NULL,
  parent TEXT NOT NULL,
  created_utc INTEGER NOT NULL,
  author TEXT NOT NULL,
  body TEXT NOT NULL,
  visible_at INTEGER NOT NULL
);
CREATE TABLE reddit_reveal (
  post TEXT NOT NULL,
  descendants_24h INTEGER NOT NULL,
  visible_at INTEGER NOT NULL
);
CREATE TABLE candle (
  venue TEXT NOT NULL,
  symbol TEXT NOT NULL,
  interval_ms INTEGER NOT NULL,
  open_time INTEGER NOT NULL,
  o REAL NOT NULL,
  h REAL NOT NULL,
  l REAL NOT NULL,
  c REAL NOT NULL,
  v REAL NOT NULL,
  visible_at INTEGER NOT NULL,
  UNIQUE (venue, symbol, interval_ms, open_time)
);
CREATE TABLE filing (
  cik TEXT NOT NULL,
  accession TEXT NOT NULL UNIQUE,
  form TEXT NOT NULL,
  items TEXT NOT NULL,
  filed TEXT NOT NULL,
  accepted_at INTEGER NOT NULL,
  report_date TEXT NOT NULL,
  visible_at INTEGER NOT NULL
);
CREATE TABLE xbrl_fact (
  cik TEXT NOT NULL,
  taxonomy TEXT NOT NULL,
  concept TEXT NOT NULL,
  unit TEXT NOT NULL,
  start TEXT,
  "end" TEXT NOT NULL,
  val REAL NOT NULL,
  accn TEXT NOT NULL,
  fy INTEGER,
  fp TEXT,
  form TEXT NOT NULL,
  filed TEXT NOT NULL,
  visible_at INTEGER NOT NULL
);
CREATE TABLE company (
  cik TEXT NOT NULL,
  ticker TEXT NOT NULL,
  name TEXT NOT NULL,
  visible_at INTEGER NOT NULL,
  PRIMARY KEY (cik, visible_at)
);
CREATE TABLE question (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  background TEXT NOT NULL,
  criteria TEXT NOT NULL,
  open INTEGER NOT NULL,
  resolve INTEGER NOT NULL,
  answer_type TEXT NOT NULL,
  visible_at INTEGER NOT NULL
);
CREATE TABLE question_resolution (
  question TEXT PRIMARY KEY,
  answer TEXT NOT NULL,
  resolved_at INTEGER NOT NULL,
  visible_at INTEGER NOT NULL
);
CREATE TABLE broker_event (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  t INTEGER NOT NULL,
  payload TEXT NOT NULL,
  visible_at INTEGER NOT NULL
);
CREATE TABLE event (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  t INTEGER NOT NULL,
  payload TEXT NOT NULL,
  visible_at INTEGER NOT NULL
);
CREATE TABLE world_meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`;

/**
 * The first part of `WORLD_INDEXES_DDL`: news_visible and the news time index `news_order` (filled),
 * which `finish()` commits before the rest so the news-vector workers can start reading it.
 */
export const NEWS_ORDER_DDL = `
CREATE INDEX news_visible ON news (visible_at);

-- The time index of news: one narrow row per article in (visible_at, id) order, so seq is
-- monotone in visible_at. seq is the rowid of news_fts.
CREATE TABLE news_order (
  seq INTEGER PRIMARY KEY,
  rid INTEGER NOT NULL UNIQUE,
  visible_at INTEGER NOT NULL,
  published_at INTEGER NOT NULL
);
INSERT INTO news_order (rid, visible_at, published_at)
  SELECT rid, visible_at, published_at FROM news ORDER BY visible_at, id;
`;

/** The rest of `WORLD_INDEXES_DDL`: every other secondary index and derived table. */
export const WORLD_LATER_INDEXES_DDL = `
CREATE INDEX news_order_visible ON news_order (visible_at);
CREATE INDEX news_order_published ON news_order (published_at, visible_at);
CREATE INDEX market_visible ON market (visible_at);
CREATE INDEX market_price_key ON market_price (market, t, visible_at);
CREATE INDEX market_price_outcome ON market_price (market, outcome, t);
CREATE INDEX market_price_visible ON market_price (visible_at);
CREATE INDEX market_resolution_market ON market_resolution (market, visible_at);
CREATE INDEX market_resolution_visible ON market_resolution (visible_at);
CREATE INDEX reddit_post_visible ON reddit_post (visible_at);
CREATE INDEX reddit_post_created ON reddit_post (created_utc, visible_at);
CREATE INDEX reddit_post_subreddit ON reddit_post (subreddit, created_utc);
CREATE INDEX reddit_comment_root ON reddit_comment (root, visible_at);
CREATE INDEX reddit_comment_root_created ON reddit_comment (root, created_utc);
CREATE INDEX reddit_comment_visible ON reddit_comment (visible_at);
CREATE INDEX reddit_reveal_post ON reddit_reveal (post, visible_at);
CREATE INDEX reddit_reveal_visible ON reddit_reveal (visible_at);
CREATE INDEX candle_visible ON candle (visible_at);
CREATE INDEX candle_time ON candle (venue, symbol, open_time);
CREATE INDEX filing_cik ON filing (cik, accepted_at);
CREATE INDEX filing_visible ON filing (visible_at);
CREATE INDEX xbrl_fact_cik ON xbrl_fact (cik, concept, "end");
CREATE INDEX xbrl_fact_accn ON xbrl_fact (accn);
CREATE INDEX xbrl_fact_visible ON xbrl_fact (visible_at);
CREATE INDEX company_visible ON company (visible_at);
CREATE INDEX question_visible ON question (visible_at);
CREATE INDEX question_open ON question (open);
CREATE INDEX question_resolution_visible ON question_resolution (visible_at);
CREATE INDEX broker_event_t ON broker_event (t, visible_at);
CREATE INDEX broker_event_kind ON broker_event (kind, t);
CREATE INDEX broker_event_visible ON broker_event (visible_at);
CREATE INDEX event_t ON event (t, visible_at);
CREATE INDEX event_kind ON event (kind, t);
CREATE INDEX event_visible ON event (visible_at, id);

-- One row per candle series; visible_at is the series' first candle's visible_at, so
-- venues()/symbols() are index lookups instead of DISTINCT scans over every candle.
CREATE TABLE candle_series (
  venue TEXT NOT NULL,
  symbol TEXT NOT NULL,
  interval_ms INTEGER NOT NULL,
  visible_at INTEGER NOT NULL,
  PRIMARY KEY (venue, symbol, interval_ms)
);
INSERT INTO candle_series (venue, symbol, interval_ms, visible_at)
  SELECT venue, symbol, interval_ms, min(visible_at) FROM candle GROUP BY venue, symbol, interval_ms;
CREATE INDEX candle_series_visible ON candle_series (visible_at);
`;

/** Secondary indexes, derived tables and the FTS index, created by `finish()` after the bulk load. */
export const WORLD_INDEXES_DDL = NEWS_ORDER_DDL + WORLD_LATER_INDEXES_DDL;

/**
 * Contentless FTS5 table over news: rowid = news_order.seq; columns are stopword-free title and text.
 * Built in one pass in seq order with a 64 MiB pending-term buffer and no incremental merging, then
 * merged once by 'optimize' (one segment: fastest queries).
 */
export const NEWS_FTS_DDL = `
CREATE VIRTUAL TABLE news_fts USING fts5(
  title, body,
  content='',
  tokenize='porter unicode61 remove_diacritics 2'
);
INSERT INTO news_fts (news_fts, rank) VALUES ('hashsize', 67108864);
INSERT INTO news_fts (news_fts, rank) VALUES ('automerge', 0);
`;

/** Ground-truth tables (truth.db). Truth rows are never agent-visible and carry no visible_at. */
export const TRUTH_DDL = `
CREATE TABLE breakpoint (
  id TEXT PRIMARY KEY,
  market TEXT NOT NULL,
  t_start INTEGER NOT NULL,
  t_end INTEGER NOT NULL,
  size REAL NOT NULL
);
CREATE INDEX breakpoint_market ON breakpoint (market, t_start);
CREATE TABLE attribution (
  breakpoint TEXT NOT NULL,
  news_id TEXT NOT NULL,
  group_id TEXT NOT NULL,
  confidence REAL NOT NULL
);
CREATE INDEX attribution_breakpoint ON attribution (breakpoint, news_id);
CREATE INDEX attribution_news ON attribution (news_id);
CREATE TABLE incident (
  venue TEXT NOT NULL,
  start INTEGER NOT NULL,
  "end" INTEGER NOT NULL,
  kind TEXT NOT NULL,
  params TEXT NOT NULL
);
CREATE INDEX incident_venue ON incident (venue, start);
CREATE TABLE question_answer (
  question TEXT PRIMARY KEY,
  answer TEXT NOT NULL,
  resolved_at INTEGER NOT NULL
);
CREATE TABLE label (
  kind TEXT NOT NULL,
  key TEXT NOT NULL,
  t INTEGER,
  value TEXT NOT NULL
);
CREATE INDEX label_kind ON label (kind, key);
`;

/** world_meta keys written by finish(). */
export const META_NEWS_LAG_PUB_OVER_VIS = "news_max_published_minus_visible";
export const META_NEWS_LAG_VIS_OVER_PUB = "news_max_visible_minus_published";
