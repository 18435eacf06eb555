import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LabelRow, MarketResolutionRow, MarketRow, NewsRow } from "../../../src/world/types.js";
import { WorldBuilder } from "../../../src/world/world-builder.js";

export const T = (iso: string) => Date.parse(iso);
export const SIM_START = T("2026-03-01T00:00:00Z");
export const SIM_END = T("2026-03-05T00:00:00Z");

/**
 * The hand-worked resolution-detect world (UTC, window 03-01 → 03-04):
 * - ld-a: t_det 03-02 12:00 Yes, resolved Yes 12:20;   ld-b: t_det 03-03 00:00 No, resolved 03-04;
 * - ld-c: no t_det, resolved No 03-03 00:00;            ld-d: never determined nor resolved;
 * - ld-e: t_det 03-04 12:00 Yes, resolved 03-06 (after the window);
 * - ld-f: added 03-03 00:00;  ld-g: t_det 03-03 06:00 Yes, resolved 07:00;
 * - ld-old: t_det 02-27 (before the window);  brk-z: a market that is not a question.
 * Articles: n-a (03-02 11:00), n-future (03-04 00:00).
 */
const ids = ["ld-a", "ld-b", "ld-c", "ld-d", "ld-e", "ld-f", "ld-g", "ld-old", "brk-z"];
export const MARKETS: MarketRow[] = ids.map((id) => ({
  id,
  question: `Will the ${id} thing happen by June 1, 2026?`,
  description: `Resolves Yes if the ${id} thing happens by June 1, 2026.`,
  outcomes: ["Yes", "No"],
  open: T("2026-01-01T00:00:00Z"),
  scheduled_end: T("2026-06-01T00:00:00Z"),
  visible_at: id === "ld-f" ? T("2026-03-03T00:00:00Z") : T("2026-01-01T00:00:00Z"),
}));

const res = (market: string, at: string, result: string): MarketResolutionRow => ({
  market,
  closed_at: T(at),
  result,
  visible_at: T(at),
});
export const RESOLUTIONS: MarketResolutionRow[] = [
  res("ld-a", "2026-03-02T12:20:00Z", "Yes"),
  res("ld-b", "2026-03-04T00:00:00Z", "No"),
  res("ld-c", "2026-03-03T00:00:00Z", "No"),
  res("ld-e", "2026-03-06T00:00:00Z", "Yes"),
  res("ld-g", "2026-03-03T07:00:00Z", "Yes"),
  res("ld-old", "2026-02-27T01:00:00Z", "Yes"),
];

const det = (key: string, at: string, outcome: string): LabelRow => ({
  kind: "t_det",
  key,
  t: T(at),
  value: { outcome },
});
export const LABELS: LabelRow[] = [
  det("ld-a", "2026-03-02T12:00:00Z", "Yes"),
  det("ld-b", "2026-03-03T00:00:00Z", "No"),
  det("ld-e", "2026-03-04T12:00:00Z", "Yes"),
  det("ld-g", "2026-03-03T06:00:00Z", "Yes"),
  det("ld-old", "2026-02-27T00:00:00Z", "Yes"),
];

const article = (id: string, at: string): NewsRow => ({
  id,
  url: `https://news.example/${id}`,
  domain: "news.example",
  title: `Article ${id}`,
  text: `Body of ${id}.`,
  published_at: T(at),
  visible_at: T(at),
});
export const NEWS: NewsRow[] = [article("n-a", "2026-03-02T11:00:00Z"), article("n-future", "2026-03-04T00:00:00Z")];

export function buildResolutionTinyWorld(): string {
  const dir = join(mkdtempSync(join(tmpdir(), "relive-rd-")), "world");
  const b = WorldBuilder.create(dir, {
    name: "resolution-detect-tiny",
    window: { start: T("2026-02-26T00:00:00Z"), end: SIM_END },
    builder: "test/resolution-detect",
    builder_version: "1",
  });
  b.insert("market", MARKETS);
  b.insert("market_resolution", RESOLUTIONS);
  b.insert("news", NEWS);
  b.insertTruth("label", LABELS);
  b.finish();
  return dir;
}
