/**
 * R1 for every forecast-portfolio tool (list_questions, get_question, get_forecasts, submit_forecast,
 * search_news, get_article): at random cut times, on the full synthetic world and on a copy with
 * every row visible after the cut deleted (news rows included), random call sequences give
 * byte-identical results, rejection texts, prices and ledgers (test/support/leakage.ts). In
 * particular a question's resolution, a question not open yet, and an article not yet published leave
 * no trace before their time.
 */
import { mkdirSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ensureSynthWorld } from "../../../src/synth/synth-world.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { checkLeakage, type Probe, timeArg } from "../../support/leakage.js";
import { testSynthCache } from "../../support/shared-synth-cache.js";

const START = Date.parse("2026-03-01T00:00:00Z");
const END = Date.parse("2026-03-08T00:00:00Z");
const CUTS = 3;
const CALLS_PER_CUT = 400;

describe("R1: forecast-portfolio tools leak nothing visible after now", () => {
  it(`${CALLS_PER_CUT} probes at each of ${CUTS} cuts give identical results on the full and the truncated world`, async () => {
    const cache = testSynthCache();
    mkdirSync(cache, { recursive: true });
    const worldDir = ensureSynthWorld(cache, { seed: 1, start: START, end: END });
    const full = WorldStore.open(worldDir);
    // cuts spread over the window, one just before a resolution becomes public
    const res = full.db.prepare("SELECT closed_at FROM market_resolution ORDER BY closed_at LIMIT 1").get() as {
      closed_at: number;
    };
    const cuts = [
      ...fc.sample(fc.integer({ min: START, max: END - 1 }), { numRuns: CUTS - 1, seed: 21 }),
      res.closed_at - 1,
    ];
    const newsIds = new Set<string>();
    for (const cut of cuts)
      for (const r of full.db
        .prepare("SELECT id FROM news WHERE published_at BETWEEN ? AND ? ORDER BY published_at LIMIT 80")
        .all(cut - 2 * 3_600_000, cut + 2 * 3_600_000) as { id: string }[])
        newsIds.add(r.id);
    // every market (ids are opaque: read from the world) and ids that are no question
    const marketIds = (full.db.prepare("SELECT id FROM market ORDER BY id").all() as { id: string }[]).map((r) => r.id);
    full.close();
    const qid = fc.oneof(fc.constantFrom(...marketIds), fc.constantFrom("ld-99", "x"));
    const newsId = fc.oneof(fc.constantFrom(...newsIds), fc.string({ maxLength: 6 }));
    const forecast = fc.oneof(
      fc.double({ min: 0, max: 1, noNaN: true }).map((p) => ({ Yes: p, No: 1 - p })),
      fc.dictionary(fc.constantFrom("Yes", "No", "yes", "Maybe"), fc.double({ min: -0.5, max: 1.5, noNaN: true })),
    );
    const words = fc.constantFrom(
      "Tidewell offshore wind",
      '"Ostmark senate"',
      "confirms OR abandons",
      "deadline",
      "fab production",
      "(Tessaly OR Kestria) AND tunnel",
      "zzzq",
      '"unbalanced',
    );
    const calls: fc.Arbitrary<Probe> = fc.oneof(
      fc
        .record(
          {
            status: fc.option(fc.constantFrom("open", "closed", "resolved", "all"), { nil: undefined }),
            added_after: fc.option(timeArg(START - 86_400_000, END), { nil: undefined }),
          },
          { requiredKeys: [] },
        )
        .map((a) => ["list_questions", a] as Probe),
      qid.map((id) => ["get_question", { question_id: id }] as Probe),
      fc.option(qid, { nil: undefined }).map((id) => ["get_forecasts", id ? { question_id: id } : {}] as Probe),
      {
        arbitrary: fc
          .tuple(qid, forecast, fc.option(newsId, { nil: undefined }))
          .map(
            ([id, f, n]) =>
              ["submit_forecast", { question_id: id, forecast: f, ...(n ? { news_id: n } : {}) }] as Probe,
          ),
        weight: 3,
      },
      fc
        .record(
          {
            q: words,
            date_from: fc.option(timeArg(START - 10 * 86_400_000, END), { nil: undefined }),
            date_to: fc.option(timeArg(START - 86_400_000, END), { nil: undefined }),
            offset: fc.option(fc.constantFrom(0, 10, 20), { nil: undefined }),
          },
          { requiredKeys: ["q"] },
        )
        .map((a) => ["search_news", a] as Probe),
      newsId.map((id) => ["get_article", { news_id: id }] as Probe),
    );
    const probes = await checkLeakage({
      taskId: "forecast-portfolio",
      worldDir,
      calls,
      cuts,
      callsPerCut: CALLS_PER_CUT,
      news: true,
      harness: { start: START, end: END },
    });
    expect(probes).toBe(CUTS * CALLS_PER_CUT);
  }, 900_000);
});
