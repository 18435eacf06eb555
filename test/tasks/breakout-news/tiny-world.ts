import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MINUTE_MS } from "../../../src/common/time.js";
import type { AttributionRow, BreakpointRow, MarketPriceRow, MarketRow, NewsRow } from "../../../src/world/types.js";
import { WorldBuilder } from "../../../src/world/world-builder.js";

export const T = (iso: string) => Date.parse(iso);
export const SIM_START = T("2026-03-01T00:00:00Z");
export const SIM_END = T("2026-03-05T00:00:00Z");

/**
 * The hand-worked breakout-news world (all UTC, window 03-01 → 03-04):
 * - brk-a: A1 up 03-01 12:00 (gold g1, conf 0.8, published 06:00); A2 down 03-02 12:00 (gold g2,
 *   02:00); A3 up 03-03 12:00 (only a 0.5-confidence attribution: not winnable).
 * - brk-b: B1 down 03-01 10:00 (no attribution).
 * - brk-c: C1 up 03-03 00:00 (gold gc1 published exactly t_start − 24 h); C2 down 03-03 06:00
 *   (gold gc2, 01:00); C3 up 03-04 12:00 (a 0.65 attribution published after t_start only).
 * - brk-late: monitored, visible from 03-03 00:00. ld-x: a market the task does not monitor.
 * Articles: n-g1, n-g2, n-gb, n-gc1, n-gc2, n-gc3, n-weak, n-neutral (03-01 01:00), n-late (03-03 09:00).
 * brk-a Yes prices: 0.40 from 02-28, 0.50 at 03-01 12:00, 0.52 at 16:00, 0.42 at 03-02 12:00,
 * 0.52 at 12:30 (each visible 10 minutes after its time).
 */
export const MARKETS: MarketRow[] = ["brk-a", "brk-b", "brk-c", "brk-late", "ld-x"].map((id) => ({
  id,
  question: `Will the ${id} event happen by June 1, 2026?`,
  description: `Market ${id}.`,
  outcomes: ["Yes", "No"],
  open: T("2026-01-01T00:00:00Z"),
  scheduled_end: T("2026-06-01T00:00:00Z"),
  visible_at: id === "brk-late" ? T("2026-03-03T00:00:00Z") : T("2026-01-01T00:00:00Z"),
}));

const article = (id: string, at: string, title = `Article ${id}`): NewsRow => ({
  id,
  url: `https://news.example/${id}`,
  domain: "news.example",
  title,
  text: `${title}. Body of ${id} about markets.`,
  published_at: T(at),
  visible_at: T(at),
});

export const NEWS: NewsRow[] = [
  article("n-neutral", "2026-03-01T01:00:00Z", "Neutral market chatter"),
  article("n-g1", "2026-03-01T06:00:00Z"),
  article("n-gb", "2026-03-01T05:00:00Z"),
  article("n-g2", "2026-03-02T02:00:00Z"),
  article("n-gc1", "2026-03-02T00:00:00Z"),
  article("n-gc2", "2026-03-03T01:00:00Z"),
  article("n-gc3", "2026-03-04T13:00:00Z"),
  article("n-weak", "2026-03-03T02:00:00Z"),
  article("n-late", "2026-03-03T09:00:00Z"),
];

export const BREAKPOINTS: BreakpointRow[] = [
  { id: "A1", market: "brk-a", t_start: T("2026-03-01T12:00:00Z"), t_end: T("2026-03-01T13:00:00Z"), size: 0.1 },
  { id: "A2", market: "brk-a", t_start: T("2026-03-02T12:00:00Z"), t_end: T("2026-03-02T13:00:00Z"), size: -0.1 },
  { id: "A3", market: "brk-a", t_start: T("2026-03-03T12:00:00Z"), t_end: T("2026-03-03T13:00:00Z"), size: 0.2 },
  { id: "B1", market: "brk-b", t_start: T("2026-03-01T10:00:00Z"), t_end: T("2026-03-01T11:00:00Z"), size: -0.2 },
  { id: "C1", market: "brk-c", t_start: T("2026-03-03T00:00:00Z"), t_end: T("2026-03-03T01:00:00Z"), size: 0.15 },
  { id: "C2", market: "brk-c", t_start: T("2026-03-03T06:00:00Z"), t_end: T("2026-03-03T07:00:00Z"), size: -0.15 },
  { id: "C3", market: "brk-c", t_start: T("2026-03-04T12:00:00Z"), t_end: T("2026-03-04T13:00:00Z"), size: 0.15 },
];

export const ATTRIBUTIONS: AttributionRow[] = [
  { breakpoint: "A1", news_id: "n-g1", group_id: "A1-g1", confidence: 0.8 },
  { breakpoint: "A2", news_id: "n-g2", group_id: "A2-g1", confidence: 0.9 },
  { breakpoint: "A3", news_id: "n-weak", group_id: "A3-g1", confidence: 0.5 },
  { breakpoint: "C1", news_id: "n-gc1", group_id: "C1-g1", confidence: 0.7 },
  { breakpoint: "C2", news_id: "n-gc2", group_id: "C2-g1", confidence: 0.9 },
  { breakpoint: "C3", news_id: "n-gc3", group_id: "C3-gR", confidence: 0.65 },
];

const yes: [string, number][] = [
  ["2026-02-28T00:00:00Z", 0.4],
  ["2026-03-01T12:00:00Z", 0.5],
  ["2026-03-01T16:00:00Z", 0.52],
  ["2026-03-02T12:00:00Z", 0.42],
  ["2026-03-02T12:30:00Z", 0.52],
];

export const PRICES: MarketPriceRow[] = yes.flatMap(([at, p]) => [
  { market: "brk-a", outcome: "Yes", t: T(at), p, visible_at: T(at) + 10 * MINUTE_MS },
  {
    market: "brk-a",
    outcome: "No",
    t: T(at),
    p: Math.round((1 - p) * 1000) / 1000,
    visible_at: T(at) + 10 * MINUTE_MS,
  },
]);

export function buildBreakoutTinyWorld(): string {
  const dir = join(mkdtempSync(join(tmpdir(), "relive-bn-")), "world");
  const b = WorldBuilder.create(dir, {
    name: "breakout-news-tiny",
    window: { start: T("2026-02-28T00:00:00Z"), end: SIM_END },
    builder: "test/breakout-news",
    builder_version: "1",
  });
  b.insert("market", MARKETS);
  b.insert("market_price", PRICES);
  b.insert("news", NEWS);
  b.insertTruth("breakpoint", BREAKPOINTS);
  b.insertTruth("attribution", ATTRIBUTIONS);
  b.finish();
  return dir;
}
