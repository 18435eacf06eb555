/**
 * R1 over every breakout-news tool (and the shared news tools): at random cut times c, random call
 * sequences on the full world at now = c return exactly what they return on a copy of the world with
 * every row visible after c deleted (news included), byte for byte, ledger included. The `self`
 * labels and the run's `observations` are checked the same way (they read only the as-of view).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BreakoutNewsParams } from "../../../src/tasks/breakout-news/params.js";
import { selfLabels } from "../../../src/tasks/breakout-news/self-labels.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { checkLeakage, type Probe, timeArg, toolHarness, truncatedCopy } from "../../support/leakage.js";
import { synthWorldDir } from "./synth-cache.js";

const START = Date.parse("2026-03-01T00:00:00Z");
const END = Date.parse("2026-03-04T00:00:00Z");
const CUTS = 3;
const CALLS_PER_CUT = 500;
const H = 3_600_000;

const WORDS = ["rate", "cut", "Carvania", "strike", "ceasefire", '"port strike"', "merger OR approval", "storm", "the"];

function calls(newsIds: string[], markets: string[]): fc.Arbitrary<Probe> {
  const t = timeArg(START - 2 * 24 * H, END + 24 * H);
  const market = fc.constantFrom(...markets, "nope");
  const news = fc.oneof(fc.constantFrom(...newsIds), fc.constant("n999999"));
  const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
  const clean = (o: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  return fc.oneof(
    fc.constant(["get_markets", {}] as Probe),
    fc
      .record({ market_id: market, start: t, end: t, grid_minutes: opt(fc.constantFrom(10, 60, 360)) })
      .map((a) => ["get_prices", clean(a)] as Probe),
    fc
      .record({ market_id: market, news_id: news, direction: fc.constantFrom("up", "down", "left") })
      .map((a) => ["notify", a] as Probe),
    fc
      .record({
        q: fc.constantFrom(...WORDS),
        date_from: opt(t),
        date_to: opt(t),
        offset: opt(fc.constantFrom(0, 10, 30)),
      })
      .map((a) => ["search_news", clean(a)] as Probe),
    news.map((id) => ["get_article", { news_id: id }] as Probe),
  );
}

describe("R1: breakout-news tools never depend on rows visible after now", () => {
  const worldDir = synthWorldDir(START, END);
  const full = WorldStore.open(worldDir);
  const newsIds = (full.db.prepare("SELECT id FROM news WHERE rowid % 25 = 0").all() as { id: string }[]).map(
    (r) => r.id,
  );
  // breakout markets and a few long-dated ones (ids are opaque: read them from the world)
  const markets = (
    full.db.prepare("SELECT id FROM market WHERE id LIKE 'brk-%' OR rowid % 5 = 0 ORDER BY id").all() as {
      id: string;
    }[]
  ).map((r) => r.id);
  full.close();
  const cuts = fc.sample(fc.integer({ min: START + 6 * H, max: END - 1 }), { numRuns: CUTS, seed: 11 });

  it(`${CALLS_PER_CUT} probes at each of ${CUTS} cuts: identical results and ledgers on the full and truncated world`, async () => {
    const probes = await checkLeakage({
      taskId: "breakout-news",
      worldDir,
      calls: calls(newsIds, markets),
      cuts,
      callsPerCut: CALLS_PER_CUT,
      news: true,
      harness: { start: START, end: END },
    });
    expect(probes).toBe(CUTS * CALLS_PER_CUT);
  }, 900_000);

  it("self labels at a cut are the same on the full and the truncated world", () => {
    const p = BreakoutNewsParams.parse({ self_hold_minutes: 30, window_hours: 6 });
    for (const [i, cut] of cuts.entries()) {
      const claims = fc
        .sample(
          fc.record({
            market: fc.constantFrom(...markets.filter((m) => m.startsWith("brk-"))),
            t: fc.integer({ min: START, max: cut }),
            direction: fc.constantFrom("up" as const, "down" as const),
          }),
          { numRuns: 40, seed: 50 + i },
        )
        .map((c) => ({ ...c, news_id: newsIds[0] as string, actor: "agent" }));
      const cutDir = truncatedCopy(worldDir, cut, { news: true });
      const a = WorldStore.open(worldDir);
      const b = WorldStore.open(cutDir);
      try {
        const la = selfLabels(
          a.at(() => cut),
          claims,
          p,
          null,
        );
        const lb = selfLabels(
          b.at(() => cut),
          claims,
          p,
          null,
        );
        expect(JSON.stringify(lb)).toBe(JSON.stringify(la));
        expect(la.length).toBeGreaterThan(0);
      } finally {
        a.close();
        b.close();
      }
    }
  });

  it("observations up to a cut are the same on the full and the truncated world, none after the cut", () => {
    for (const cut of cuts) {
      const cutDir = truncatedCopy(worldDir, cut, { news: true });
      const a = toolHarness("breakout-news", worldDir, cut, { start: START, end: END });
      const b = toolHarness("breakout-news", cutDir, cut, { start: START, end: END });
      try {
        const oa = a.run.observations(cut - 6 * H, END);
        expect(JSON.stringify(b.run.observations(cut - 6 * H, END))).toBe(JSON.stringify(oa));
        expect(oa.filter((o) => o.kind === "news").length).toBeGreaterThan(0);
        for (const o of oa) expect(o.t).toBeLessThanOrEqual(cut);
      } finally {
        a.close();
        b.close();
      }
    }
  });
});
