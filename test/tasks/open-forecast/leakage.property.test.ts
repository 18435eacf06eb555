/**
 * R1 for every open-forecast tool (test/support/leakage.ts): at random cut times, each tool on the
 * full synthetic world returns exactly what it returns on a copy with every row visible after the cut
 * deleted (news and news_order included, `news: true`; the FTS index and the news vectors are kept,
 * so a search that is not bounded inside its query would fail). Covers questions released later,
 * answers made public later, crowd prices, hybrid search and articles.
 */
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ensureSynthWorld } from "../../../src/synth/synth-world.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { CACHE_DIR } from "../../run/helpers.js";
import { checkLeakage, type Probe } from "../../support/leakage.js";

const START = Date.parse("2026-03-01T00:00:00Z");
const END = Date.parse("2026-03-04T00:00:00Z");
const DAY = 86_400_000;

function calls(questionIds: string[], newsIds: string[]): fc.Arbitrary<Probe> {
  const qid = fc.oneof(fc.constantFrom(...questionIds), fc.constantFrom("q-9999", "zz"));
  const nid = fc.oneof(fc.constantFrom(...newsIds), fc.constant("n999999"));
  const date = fc
    .integer({ min: START - 3 * DAY, max: END + 2 * DAY })
    .chain((t) => fc.constantFrom(new Date(t).toISOString().slice(0, 10), new Date(t).toISOString()));
  const words = fc.array(
    fc.constantFrom("bank", "rates", "storm", "revenue", "talks", "treaty", '"central bank"', "OR", "zzz"),
    {
      minLength: 1,
      maxLength: 4,
    },
  );
  const outcomes = fc.dictionary(
    fc.constantFrom("Yes", "No", "yes", "Maybe", "A", "B", "C"),
    fc.oneof(fc.constantFrom(0, 0.25, 0.5, 1), fc.double({ min: -0.2, max: 1.2, noNaN: true })),
    { maxKeys: 6 },
  );
  const undef = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
  const clean = (o: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  return fc.oneof(
    fc
      .record({
        status: undef(fc.constantFrom("open", "closed", "resolved", "all")),
        offset: undef(fc.integer({ min: 0, max: 30 })),
      })
      .map((a) => ["list_questions", clean(a)] as Probe),
    qid.map((id) => ["get_question", { id }] as Probe),
    fc.record({ question_id: qid, outcomes }).map((a) => ["submit_forecasts", a] as Probe),
    undef(qid).map((id) => ["get_forecasts", clean({ question_id: id })] as Probe),
    fc
      .record({ query: words.map((w) => w.join(" ")), from_date: undef(date), to_date: undef(date) })
      .map((a) => ["search_news", clean(a)] as Probe),
    nid.map((id) => ["read_article", { id }] as Probe),
  );
}

describe("R1: open-forecast tools never depend on rows visible after now", () => {
  it("500 probes at each of 3 cuts give identical results and ledgers on the full and the truncated world", async () => {
    const worldDir = ensureSynthWorld(join(CACHE_DIR, "synth"), { seed: 1, start: START, end: END });
    const w = WorldStore.open(worldDir);
    const questionIds = (w.db.prepare("SELECT id FROM question ORDER BY id").all() as { id: string }[]).map(
      (r) => r.id,
    );
    const newsIds = (
      w.db.prepare("SELECT id FROM news WHERE published_at >= ? AND rowid % 7 = 0 ORDER BY id").all(START - DAY) as {
        id: string;
      }[]
    ).map((r) => r.id);
    const resolutions = (w.db.prepare("SELECT count(*) AS n FROM question_resolution").get() as { n: number }).n;
    w.close();
    expect(questionIds.length).toBeGreaterThan(3);
    expect(resolutions).toBeGreaterThan(0);
    // cuts inside the window, one right at a midnight (when questions open and answers become public)
    const cuts = [START + DAY, START + DAY + 13 * 3_600_000 + 17, END - 1];
    const probes = await checkLeakage({
      taskId: "open-forecast",
      worldDir,
      calls: calls(questionIds, newsIds),
      cuts,
      callsPerCut: 500,
      news: true,
      harness: { start: START, end: END },
    });
    expect(probes).toBe(1500);
  });
});
