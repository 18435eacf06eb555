import { z } from "zod";
const STREAM_KINDS = [
  "news",
  "market",
  "market_price",
  "market_resolution",
  "reddit_post",
  "reddit_comment",
  "reddit_reveal",
  "candle",
  "filing",
  "xbrl_fact",
  "company",
  "question",
  "question_resolution",
  "broker_event",
  "event"
];
const TRUTH_KINDS = ["breakpoint", "attribution", "incident", "question_answer", "label"];
const instant = z.number().int();
const num = z.number();
const str = z.string();
const id = z.string().min(1);
const json = z.record(z.string(), z.unknown());
const STREAM_ROW_SCHEMAS = {
  news: z.object({
    id,
    url: str,
    domain: str,
    title: str,
    text: str,
    published_at: instant,
    visible_at: instant
  }),
  market: z.object({
    id,
    question: str,
    description: str,
    outcomes: z.array(str),
    open: instant,
    scheduled_end: instant,
    visible_at: instant
  }),
  market_price: z.object({ market: id, outcome: str, t: instant, p: num, visible_at: instant }),
  market_resolution: z.object({ market: id, closed_at: instant, result: str, visible_at: instant }),
  reddit_post: z.object({
    id,
    subreddit: str,
    author: str,
    title: str,
    body: str,
    created_utc: instant,
    visible_at: instant
  }),
  reddit_comment: z.object({
    id,
    root: id,
    parent: id,
    created_utc: instant,
    author: str,
    body: str,
    visible_at: instant
  }),
  reddit_reveal: z.object({ post: id, descendants_24h: z.number().int().nonnegative(), visible_at: instant }),
  candle: z.object({
    venue: id,
    symbol: id,
    interval_ms: z.number().int().positive(),
    open_time: instant,
    o: num,
    h: num,
    l: num,
    c: num,
    v: num,
    visible_at: instant
  }),
  filing: z.object({
    cik: id,
    accession: id,
    form: str,
    items: str,
    filed: str,
    accepted_at: instant,
    report_date: str,
    visible_at: instant
  }),
  xbrl_fact: z.object({
    cik: id,
    taxonomy: str,
    concept: str,
    unit: str,
    start: str.nullable(),
    end: str,
    val: num,
    accn: str,
    fy: z.number().int().nullable(),
    fp: str.nullable(),
    form: str,
    filed: str,
    visible_at: instant
  }),
  company: z.object({ cik: id, ticker: str, name: str, visible_at: instant }),
  question: z.object({
    id,
    title: str,
    background: str,
    criteria: str,
    open: instant,
    resolve: instant,
    answer_type: str,
    visible_at: instant
  }),
  question_resolution: z.object({ question: id, answer: str, resolved_at: instant, visible_at: instant }),
  broker_event: z.object({ id, kind: str, t: instant, payload: json, visible_at: instant }),
  event: z.object({ id, kind: z.string().min(1), t: instant, payload: json, visible_at: instant })
};
const TRUTH_ROW_SCHEMAS = {
  breakpoint: z.object({ id, market: id, t_start: instant, t_end: instant, size: num }),
  attribution: z.object({ breakpoint: id, news_id: id, group_id: str, confidence: num }),
  incident: z.object({ venue: id, start: instant, end: instant, kind: str, params: json }),
  question_answer: z.object({ question: id, answer: str, resolved_at: instant }),
  label: z.object({ kind: id, key: str, t: instant.nullable(), value: json })
};
export {
  STREAM_KINDS,
  STREAM_ROW_SCHEMAS,
  TRUTH_KINDS,
  TRUTH_ROW_SCHEMAS
};
//# sourceMappingURL=row-schemas.js.map
