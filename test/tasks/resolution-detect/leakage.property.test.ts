/**
 * R1 over every resolution-detect tool (and the shared news tools): at random cut times c, random
 * call sequences on the full world at now = c return exactly what they return on a copy of the world
 * with every row visible after c deleted (news, questions added later and resolution rows included),
 * byte for byte, ledger included.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WorldStore } from "../../../src/world/world-store.js";
import { checkLeakage, type Probe, timeArg } from "../../support/leakage.js";
import { synthWorldDir } from "../breakout-news/synth-cache.js";

const START = Date.parse("2026-03-01T00:00:00Z");
const END = Date.parse("2026-03-04T00:00:00Z");
const CUTS = 3;
const CALLS_PER_CUT = 500;
const H = 3_600_000;

const WORDS = ["confirms OR abandons", "official", "treaty", '"deadline passes"', "Ferreira", "storm", "the"];

function calls(newsIds: string[], questions: string[]): fc.Arbitrary<Probe> {
  const t = timeArg(START - 2 * 24 * H, END + 24 * H);
  const q = fc.constantFrom(...questions, "x");
  const news = fc.oneof(fc.constantFrom(...newsIds), fc.constant("n999999"));
  const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
  const clean = (o: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  return fc.oneof(
    fc
      .record({ added_after: opt(t), offset: opt(fc.constantFrom(0, 5, 100)) })
      .map((a) => ["list_questions", clean(a)] as Probe),
    q.map((id) => ["get_question", { question_id: id }] as Probe),
    opt(q).map((id) => ["get_marks", clean({ question_id: id })] as Probe),
    fc
      .record({ question_id: q, outcome: fc.constantFrom("Yes", "No", "Maybe"), news_id: opt(news) })
      .map((a) => ["mark_outcome", clean(a)] as Probe),
    fc
      .record({ q: fc.constantFrom(...WORDS), date_from: opt(t), date_to: opt(t), offset: opt(fc.constantFrom(0, 10)) })
      .map((a) => ["search_news", clean(a)] as Probe),
    news.map((id) => ["get_article", { news_id: id }] as Probe),
  );
}

describe("R1: resolution-detect tools never depend on rows visible after now", () => {
  const worldDir = synthWorldDir(START, END);
  const full = WorldStore.open(worldDir);
  const newsIds = (full.db.prepare("SELECT id FROM news WHERE rowid % 25 = 0").all() as { id: string }[]).map(
    (r) => r.id,
  );
  // every long-dated market (some added mid-window, some resolving inside it) and one breakout
  // market (no question); ids are opaque, so they are read from the world
  const questions = (
    full.db
      .prepare("SELECT id FROM market WHERE id LIKE 'ld-%' UNION SELECT min(id) FROM market WHERE id LIKE 'brk-%'")
      .all() as {
      id: string;
    }[]
  ).map((r) => r.id);
  full.close();
  const cuts = fc.sample(fc.integer({ min: START + 6 * H, max: END - 1 }), { numRuns: CUTS, seed: 23 });

  it(`${CALLS_PER_CUT} probes at each of ${CUTS} cuts: identical results and ledgers on the full and truncated world`, async () => {
    const probes = await checkLeakage({
      taskId: "resolution-detect",
      worldDir,
      calls: calls(newsIds, questions),
      cuts,
      callsPerCut: CALLS_PER_CUT,
      news: true,
      harness: { start: START, end: END },
    });
    expect(probes).toBe(CUTS * CALLS_PER_CUT);
  }, 900_000);
});
