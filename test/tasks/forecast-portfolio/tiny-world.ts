import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MINUTE_MS } from "../../../src/common/time.js";
import type { MarketPriceRow, MarketResolutionRow, MarketRow, NewsRow } from "../../../src/world/types.js";
import { WorldBuilder } from "../../../src/world/world-builder.js";

export const T = (iso: string) => Date.parse(iso);
/** the run window of the hand-worked tests: 03-01 → 03-03 */
export const START = T("2026-03-01T00:00:00Z");
export const END = T("2026-03-04T00:00:00Z");

const market = (id: string, open: string, end: string, outcomes = ["Yes", "No"]): MarketRow => ({
  id,
  question: `Will event ${id} happen by ${end.slice(0, 10)}?`,
  description: `Resolves Yes if event ${id} happens.`,
  outcomes,
  open: T(open),
  scheduled_end: T(end),
  visible_at: T(open),
});

/**
 * The hand-worked forecast-portfolio world (UTC):
 * - `ld-a` open 02-01, resolves Yes at 03-02 12:00 (visible then); `ld-b` opens mid-run 03-01 06:00,
 *   resolves No at its scheduled end 03-03 00:00; `ld-g` open 02-01, closes Yes at 03-02 06:00 but the
 *   result is published only at 03-02 18:00;
 * - not scored: `ld-c` (never resolves), `ld-d` (resolves "Invalid" 03-02), `ld-e` (resolves 03-04 06:00,
 *   after the window), `ld-old` (resolved 02-20), `ld-f` (opens 03-05), `ld-h` (scheduled end 03-02, no
 *   result); not questions: `brk-x` (another prefix), `ld-multi` (three outcomes);
 * - prices (scorer-side): ld-a Yes 0.6 visible 02-28 00:00, 0.8 visible 03-02 00:00; ld-b Yes 0.5 visible
 *   03-01 06:00, 0.2 visible 03-02 06:00 (each emitted 10 min before it is visible);
 * - news: `n1` 03-01 01:00, `n2` 03-03 00:00.
 * Scored: ld-a (36 h, Yes), ld-b (42 h, No), ld-g (30 h, Yes): base rate 2/3, BS_ref = 4/9.
 */
export const MARKETS: MarketRow[] = [
  market("ld-a", "2026-02-01T00:00:00Z", "2026-06-01T00:00:00Z"),
  market("ld-b", "2026-03-01T06:00:00Z", "2026-03-03T00:00:00Z"),
  market("ld-c", "2026-02-01T00:00:00Z", "2026-06-01T00:00:00Z"),
  market("ld-d", "2026-02-01T00:00:00Z", "2026-06-01T00:00:00Z"),
  market("ld-e", "2026-02-01T00:00:00Z", "2026-06-01T00:00:00Z"),
  market("ld-f", "2026-03-05T00:00:00Z", "2026-06-01T00:00:00Z"),
  market("ld-g", "2026-02-01T00:00:00Z", "2026-06-01T00:00:00Z"),
  market("ld-h", "2026-02-01T00:00:00Z", "2026-03-02T00:00:00Z"),
  market("ld-old", "2026-01-01T00:00:00Z", "2026-06-01T00:00:00Z"),
  market("brk-x", "2026-02-01T00:00:00Z", "2026-06-01T00:00:00Z"),
  market("ld-multi", "2026-02-01T00:00:00Z", "2026-06-01T00:00:00Z", ["A", "B", "C"]),
];

const res = (m: string, closed: string, result: string, visible = closed): MarketResolutionRow => ({
  market: m,
  closed_at: T(closed),
  result,
  visible_at: T(visible),
});

export const RESOLUTIONS: MarketResolutionRow[] = [
  res("ld-a", "2026-03-02T12:00:00Z", "Yes"),
  res("ld-b", "2026-03-03T00:00:00Z", "No"),
  res("ld-g", "2026-03-02T06:00:00Z", "Yes", "2026-03-02T18:00:00Z"),
  res("ld-d", "2026-03-02T00:00:00Z", "Invalid"),
  res("ld-e", "2026-03-04T06:00:00Z", "Yes"),
  res("ld-old", "2026-02-20T00:00:00Z", "Yes"),
];

const price = (m: string, visible: string, yes: number): MarketPriceRow[] => {
  const v = T(visible);
  return [
    { market: m, outcome: "Yes", t: v - 10 * MINUTE_MS, p: yes, visible_at: v },
    { market: m, outcome: "No", t: v - 10 * MINUTE_MS, p: Math.round((1 - yes) * 1000) / 1000, visible_at: v },
  ];
};

export const PRICES: MarketPriceRow[] = [
  ...price("ld-a", "2026-02-28T00:00:00Z", 0.6),
  ...price("ld-a", "2026-03-02T00:00:00Z", 0.8),
  ...price("ld-b", "2026-03-01T06:00:00Z", 0.5),
  ...price("ld-b", "2026-03-02T06:00:00Z", 0.2),
];

const article = (id: string, at: string, title: string): NewsRow => ({
  id,
  url: `https://news.example/${id}`,
  domain: "news.example",
  title,
  text: `${title}. More text about the event.`,
  published_at: T(at),
  visible_at: T(at),
});

export const NEWS: NewsRow[] = [
  article("n1", "2026-03-01T01:00:00Z", "Event ld-a looks likely"),
  article("n2", "2026-03-03T00:00:00Z", "Event ld-b is off"),
];

export function buildTinyMarketWorld(): string {
  const dir = join(mkdtempSync(join(tmpdir(), "relive-fp-")), "world");
  const b = WorldBuilder.create(dir, {
    name: "forecast-portfolio-tiny",
    window: { start: T("2026-02-01T00:00:00Z"), end: T("2026-03-06T00:00:00Z") },
    builder: "test/forecast-portfolio",
    builder_version: "1",
  });
  b.insert("market", MARKETS);
  b.insert("market_resolution", RESOLUTIONS);
  b.insert("market_price", PRICES);
  b.insert("news", NEWS);
  b.finish();
  return dir;
}
