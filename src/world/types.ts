/**
 * Row types of every stream kind (spec/data.md). All instants are UTC epoch ms.
 * Every agent-visible row carries `visible_at`: the instant it becomes visible.
 * Truth rows live in the separate truth database and are never agent-visible.
 */

export interface NewsRow {
  id: string;
  url: string;
  domain: string;
  title: string;
  text: string;
  published_at: number;
  visible_at: number;
}

export interface MarketRow {
  id: string;
  question: string;
  description: string;
  /** JSON-serialisable list of outcome labels, e.g. ["Yes","No"] */
  outcomes: string[];
  open: number;
  scheduled_end: number;
  visible_at: number;
}

export interface MarketPriceRow {
  market: string;
  outcome: string;
  t: number;
  p: number;
  visible_at: number;
}

/** A market's close and result become known later than the market row: their own row. */
export interface MarketResolutionRow {
  market: string;
  closed_at: number;
  result: string;
  visible_at: number;
}

export interface RedditPostRow {
  id: string;
  subreddit: string;
  author: string;
  title: string;
  body: string;
  created_utc: number;
  visible_at: number;
}

export interface RedditCommentRow {
  id: string;
  root: string;
  parent: string;
  created_utc: number;
  author: string;
  body: string;
  visible_at: number;
}

/** A post's 24 h cascade size, revealed at post + 24 h. */
export interface RedditRevealRow {
  post: string;
  descendants_24h: number;
  visible_at: number;
}

export interface CandleRow {
  venue: string;
  symbol: string;
  /** interval in ms (e.g. 300000 for 5 min, 3600000 for 1 h) */
  interval_ms: number;
  open_time: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
  /** a candle is visible once completed: open_time + interval_ms */
  visible_at: number;
}

export interface FilingRow {
  cik: string;
  accession: string;
  form: string;
  /** comma-separated 8-K items, "" when none */
  items: string;
  /** filing date, YYYY-MM-DD */
  filed: string;
  /** true UTC acceptance instant */
  accepted_at: number;
  report_date: string;
  visible_at: number;
}

export interface XbrlFactRow {
  cik: string;
  taxonomy: string;
  concept: string;
  unit: string;
  start: string | null;
  end: string;
  val: number;
  accn: string;
  fy: number | null;
  fp: string | null;
  form: string;
  filed: string;
  visible_at: number;
}

export interface CompanyRow {
  cik: string;
  ticker: string;
  name: string;
  visible_at: number;
}

export interface QuestionRow {
  id: string;
  title: string;
  background: string;
  criteria: string;
  open: number;
  resolve: number;
  answer_type: string;
  visible_at: number;
}

/** A question's answer made public (it becomes a world fact at `visible_at`; truth keeps the scored answer). */
export interface QuestionResolutionRow {
  question: string;
  answer: string;
  /** when the answer was determined */
  resolved_at: number;
  visible_at: number;
}

export interface BrokerEventRow {
  id: string;
  /** order | fill | margin_call | note | position */
  kind: string;
  t: number;
  payload: Record<string, unknown>;
  visible_at: number;
}

/** One event of an imported event log (`relive data import --events`): every other source field is the payload. */
export interface EventRow {
  /** the log's own id, or an opaque keyed hash of the row's content */
  id: string;
  kind: string;
  t: number;
  payload: Record<string, unknown>;
  visible_at: number;
}

/** Truth-side rows (truth.db): never opened by agent-facing code. */
export interface BreakpointRow {
  id: string;
  market: string;
  t_start: number;
  t_end: number;
  size: number;
}
export interface AttributionRow {
  breakpoint: string;
  news_id: string;
  group_id: string;
  confidence: number;
}
export interface IncidentRow {
  venue: string;
  start: number;
  end: number;
  /** outage | stale | spike | rate_limit */
  kind: string;
  params: Record<string, unknown>;
}
export interface QuestionAnswerRow {
  question: string;
  answer: string;
  resolved_at: number;
}
/** Generic truth label (t_det of resolution-detect, gold values, ...). */
export interface LabelRow {
  kind: string;
  key: string;
  t: number | null;
  value: Record<string, unknown>;
}

export interface WorldManifest {
  name: string;
  window: { start: number; end: number };
  streams: Record<string, number>;
  sources: { path: string; sha256: string; rows: number; rejected: number }[];
  builder: string;
  builder_version: string;
  built_at: string;
  /** sha256 over the world's content-defining fields: runs record it */
  hash: string;
}
