/**
 * Synthetic questions carry no answer in their form (issue 17 item 5): over 200 seeds, no question
 * feature an agent can see before the answer — its kind, whether its text names a date inside the
 * window, its id — predicts the outcome (two-sided Fisher's exact test, p > 0.01 each), and ids are
 * opaque (no counter, no gaps, no order), so no id sequence reveals how many questions come later.
 * Uses the cheap question-only entry point (markets and filings, no reddit/news/candles per seed).
 */
import { describe, expect, it } from "vitest";
import { fisherExact } from "../../src/report/stats/fisher-exact.js";
import { generateQuestionSet } from "../../src/synth/generate.js";
import { QUESTION_KINDS, type QuestionKind } from "../../src/synth/questions.js";

const START = Date.parse("2026-03-01T00:00:00Z");
const END = Date.parse("2026-03-15T00:00:00Z");
const SEEDS = 200;
const MONTH_DATE =
  /(January|February|March|April|May|June|July|August|September|October|November|December) (\d{1,2}), (\d{4})/g;

interface Obs {
  seed: number;
  id: string;
  open: number;
  kind: QuestionKind;
  datedInWindow: boolean;
  yes: boolean;
}

function observations(): Obs[] {
  const out: Obs[] = [];
  for (let seed = 1; seed <= SEEDS; seed++) {
    const set = generateQuestionSet({ seed, start: START, end: END });
    const answer = new Map(set.answers.map((a) => [a.question, a.answer]));
    for (const q of set.questions) {
      const dates = [...q.title.matchAll(MONTH_DATE)].map((m) => Date.parse(`${m[1]} ${m[2]}, ${m[3]} UTC`));
      out.push({
        seed,
        id: q.id,
        open: q.open,
        kind: set.kinds.get(q.id) as QuestionKind,
        datedInWindow: dates.some((t) => t >= START && t < END),
        yes: answer.get(q.id) === "Yes",
      });
    }
  }
  return out;
}

/** two-sided Fisher p of feature × outcome */
function pOf(obs: readonly Obs[], feature: (o: Obs) => boolean): number {
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  for (const o of obs) {
    if (feature(o)) o.yes ? a++ : b++;
    else o.yes ? c++ : d++;
  }
  return fisherExact(a, b, c, d);
}

describe("synthetic questions: no visible feature predicts the answer", () => {
  const obs = observations();

  it(`${SEEDS} seeds give a few thousand questions of every kind, answers of both signs`, () => {
    expect(obs.length).toBeGreaterThan(SEEDS * 10);
    for (const k of QUESTION_KINDS) expect(obs.filter((o) => o.kind === k).length).toBeGreaterThan(SEEDS);
    const yes = obs.filter((o) => o.yes).length / obs.length;
    expect(yes).toBeGreaterThan(0.45);
    expect(yes).toBeLessThan(0.55);
  });

  it("kind, a date inside the window in the text, and the id do not predict the outcome (Fisher p > 0.01)", () => {
    const features: [string, (o: Obs) => boolean][] = [
      ...QUESTION_KINDS.map((k) => [`kind = ${k}`, (o: Obs) => o.kind === k] as [string, (o: Obs) => boolean]),
      ["text names a date inside the window", (o) => o.datedInWindow],
      ["id's first hex digit < 8", (o) => Number.parseInt(o.id.charAt(2), 16) < 8],
      ["id's last hex digit is even", (o) => Number.parseInt(o.id.charAt(o.id.length - 1), 16) % 2 === 0],
    ];
    const ps = Object.fromEntries(features.map(([name, f]) => [name, pOf(obs, f)]));
    for (const [name, p] of Object.entries(ps)) expect(p, `${name}: p = ${p}`).toBeGreaterThan(0.01);
    // the features are not degenerate (each splits the questions)
    for (const [name, f] of features) {
      const n = obs.filter(f).length;
      expect(n, name).toBeGreaterThan(obs.length * 0.1);
      expect(n, name).toBeLessThan(obs.length * 0.9);
    }
  });

  it("ids are opaque: hash-shaped, unique, and unordered against open time (no counter, no gaps)", () => {
    expect(obs.every((o) => /^q-[0-9a-f]{10}$/.test(o.id))).toBe(true);
    expect(new Set(obs.map((o) => o.id)).size).toBe(obs.length);
    // of two questions of one seed opening on different days, the later one has the larger id
    // about half the time (with a counter: always)
    let rises = 0;
    let pairs = 0;
    for (let seed = 1; seed <= SEEDS; seed++) {
      const mine = obs.filter((o) => o.seed === seed);
      for (const x of mine)
        for (const y of mine) {
          if (x.open >= y.open) continue;
          pairs++;
          if (y.id > x.id) rises++;
        }
    }
    expect(pairs).toBeGreaterThan(SEEDS * 50);
    expect(rises / pairs).toBeGreaterThan(0.48);
    expect(rises / pairs).toBeLessThan(0.52);
  });
});
