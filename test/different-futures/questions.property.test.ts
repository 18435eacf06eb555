/**
 * Different futures for the synthetic question generator (issue 17, the revenue-question leak): a
 * question's text, threshold and dates must come only from what is public at its open. So the
 * generator, given the markets and filings of a world re-drawn after a cut T (its own, nothing of
 * the ordinary world), must ask byte-identical questions up to T. The old revenue questions failed
 * this: their threshold was the filing's own future revenue × (1 ± 0.5–4%) and their resolve date
 * the day after its future acceptance.
 *
 * Runs the generator directly (markets, filings and questions only, milliseconds per world) over
 * several seeds and cuts of a 28-day window, and checks the comparison is not vacuous: revenue
 * questions are among those compared, and answers differ between the worlds.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRng } from "../../src/common/random.js";
import { generateFilings } from "../../src/synth/filings.js";
import { futureSplit } from "../../src/synth/future.js";
import { HISTORY_MS } from "../../src/synth/generate.js";
import { IdMinter } from "../../src/synth/ids.js";
import { generateMarkets } from "../../src/synth/markets.js";
import { generateQuestions, type QuestionStreams } from "../../src/synth/questions.js";

const D = 86_400_000;
const START = Date.parse("2026-03-01T00:00:00Z");
const END = START + 28 * D;

/** the questions of seed `seed`, with the markets and filings of `future` (or the ordinary world) */
function questionsOf(seed: number, future: { seed: number; from: number } | null): QuestionStreams {
  const root = createRng(seed);
  const from = START - HISTORY_MS;
  const ids = new IdMinter(seed);
  const f = future ? { rng: createRng(future.seed).split("future"), from: future.from } : null;
  const markets = generateMarkets(root.split("markets"), from, START, END, ids, futureSplit(f, "markets"));
  const filings = generateFilings(root.split("filings"), from, START, END, ids, futureSplit(f, "filings"));
  return generateQuestions(root.split("questions"), markets.plans, filings, START, END, ids);
}

const visibleBy = (q: QuestionStreams, t: number) => JSON.stringify(q.questions.filter((x) => x.visible_at <= t));

describe("different futures: synthetic questions are asked from what is public at their open", () => {
  it("two worlds that agree up to T ask the same questions up to T (seeds × cuts)", () => {
    let revenue = 0;
    let answersDiffer = 0;
    let compared = 0;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 2 * D, max: 24 * D }), (seed, offset) => {
        const cut = START + offset;
        const a = questionsOf(seed, null);
        const b = questionsOf(seed, { seed: seed + 50_000, from: cut });
        expect(visibleBy(b, cut), `seed ${seed}, cut ${new Date(cut).toISOString()}`).toBe(visibleBy(a, cut));
        const asked = a.questions.filter((q) => q.visible_at <= cut);
        compared += asked.length;
        revenue += asked.filter((q) => a.kinds.get(q.id) === "revenue").length;
        const ans = new Map(b.answers.map((x) => [x.question, x.answer]));
        answersDiffer += a.answers.filter((x) => ans.has(x.question) && ans.get(x.question) !== x.answer).length;
      }),
      { numRuns: 24, seed: 17 },
    );
    expect(compared).toBeGreaterThan(24 * 10);
    expect(revenue, "revenue questions were compared").toBeGreaterThan(24);
    expect(answersDiffer, "the futures differ: some answers change").toBeGreaterThan(0);
  });

  it("a revenue question resolves at 00:00 UTC of its scheduled release day, before its 8-K and press release", () => {
    for (const seed of [1, 2, 3]) {
      const root = createRng(seed);
      const ids = new IdMinter(seed);
      const filings = generateFilings(root.split("filings"), START - HISTORY_MS, START, END, ids);
      const markets = generateMarkets(root.split("markets"), START - HISTORY_MS, START, END, ids);
      const q = generateQuestions(root.split("questions"), markets.plans, filings, START, END, ids);
      const revenue = q.questions.filter((x) => q.kinds.get(x.id) === "revenue");
      expect(revenue.length).toBeGreaterThan(3);
      const releases = filings.filings.filter((f) => f.form === "8-K").map((f) => f.accepted_at);
      for (const x of revenue) {
        expect(x.resolve % D, x.title).toBe(0);
        expect(x.resolve, x.title).toBeGreaterThan(x.open);
        // the 8-K of that day (the first revenue figure in public) comes after the resolve time
        const release = releases.find((t) => t >= x.resolve && t < x.resolve + D);
        expect(release, `${x.title}: a release on the resolve day`).toBeDefined();
        const press = filings.news.find((n) => n.published_at >= x.resolve && n.published_at < x.resolve + D);
        if (press) expect(press.published_at).toBeGreaterThan(x.resolve);
      }
    }
  });
});
