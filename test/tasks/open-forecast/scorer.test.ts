import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { LedgerEvent } from "../../../src/ledger/events.js";
import {
  matchAnswer,
  normalizeAnswer,
  normalizeAnswerFutureSim,
} from "../../../src/tasks/open-forecast/answer-match.js";
import { checkOutcomes } from "../../../src/tasks/open-forecast/forecast-args.js";
import {
  type AnswerJudge,
  fillJudgeCache,
  JudgeCache,
  judgeKey,
} from "../../../src/tasks/open-forecast/judge-cache.js";
import { OpenForecastParams } from "../../../src/tasks/open-forecast/params.js";
import { activeEnd, dayScore, OpenForecastScorer, top1Correct } from "../../../src/tasks/open-forecast/scorer.js";
import { buildTiny, d, q, scorerCtx } from "./fixtures.js";

const H = 3_600_000;
const exact = (truth: string) => (label: string) => label === truth;

describe("open-forecast day score (tasks.md §9 anchors)", () => {
  it("{A: 0.65, B: 0.25} with truth A → 0.815; {B: 0.8} with truth A → −0.64; no forecast → 0", () => {
    expect(dayScore({ A: 0.65, B: 0.25 }, exact("A"))).toBeCloseTo(0.815, 12);
    expect(dayScore({ B: 0.8 }, exact("A"))).toBeCloseTo(-0.64, 12);
    expect(dayScore(null, exact("A"))).toBe(0);
    expect(dayScore({ A: 1 }, exact("A"))).toBe(1);
    // unassigned mass is not scored; an unnamed truth counts with p = 0
    expect(dayScore({ A: 0.5 }, exact("A"))).toBeCloseTo(0.75, 12);
    expect(dayScore({}, exact("A"))).toBe(0);
    // two labels matching the truth pool their mass
    expect(dayScore({ yes: 0.4, "Yes!": 0.5 }, (l) => normalizeAnswer(l) === "yes")).toBeCloseTo(0.99, 12);
  });

  it("top-1 accuracy needs a single highest outcome equal to the truth", () => {
    expect(top1Correct({ A: 0.6, B: 0.3 }, exact("A"))).toBe(true);
    expect(top1Correct({ A: 0.4, B: 0.4 }, exact("A"))).toBe(false);
    expect(top1Correct({ B: 0.6 }, exact("A"))).toBe(false);
    expect(top1Correct(null, exact("A"))).toBe(false);
  });

  it("answer matching: exact, then normalized (case, spaces, punctuation), then the judge cache", () => {
    expect(normalizeAnswer("  The U.S.A.!  ")).toBe("the usa");
    expect(normalizeAnswer("Emmanuel   Macron")).toBe("emmanuel macron");
    expect(matchAnswer("q", "Yes", "Yes")).toBe("exact");
    expect(matchAnswer("q", " yes. ", "Yes")).toBe("normalized");
    expect(matchAnswer("q", "No", "Yes")).toBeNull();
    expect(matchAnswer("q", "!!", "??")).toBeNull();
  });

  it("forecast rules: ≤ 5 outcomes, p in [0, 1], Σp ≤ 1, labels distinct after normalization", () => {
    const lim = { maxOutcomes: 5, maxChars: 20 };
    expect(checkOutcomes({ A: 0.5, B: 0.5 }, lim)).toEqual({ ok: true, outcomes: { A: 0.5, B: 0.5 } });
    expect(checkOutcomes({ " A ": 0.1 }, lim)).toEqual({ ok: true, outcomes: { A: 0.1 } });
    expect(checkOutcomes({ a: 0.1, b: 0.1, c: 0.1, d: 0.1, e: 0.1, f: 0.1 }, lim)).toMatchObject({
      ok: false,
      error: "6 outcomes named: at most 5 per forecast",
    });
    expect(checkOutcomes({ A: 1.2 }, lim)).toMatchObject({ ok: false, error: expect.stringContaining("[0, 1]") });
    expect(checkOutcomes({ A: -0.1 }, lim)).toMatchObject({ ok: false });
    expect(checkOutcomes({ A: 0.7, B: 0.4 }, lim)).toMatchObject({ ok: false, error: expect.stringContaining("sum") });
    expect(checkOutcomes({ A: 0.1, B: 0.2, C: 0.7 }, lim)).toMatchObject({ ok: true });
    expect(checkOutcomes({ Yes: 0.5, "yes!": 0.2 }, lim)).toMatchObject({
      ok: false,
      error: expect.stringContaining("same answer"),
    });
    expect(checkOutcomes({}, lim)).toMatchObject({ ok: false });
    expect(checkOutcomes({ "   ": 0.1 }, lim)).toMatchObject({ ok: false });
    expect(checkOutcomes({ ["x".repeat(21)]: 0.1 }, lim)).toMatchObject({ ok: false });
  });
});

/**
 * A hand-worked world (window d0 → d10):
 * - qA: open d0, resolve d3, answer Yes public at d3 → active d0, d1, d2; settles d3.
 * - qB: open d1, resolve d20, answer No determined at d2, public only at d20 (after sim_end d10) →
 *   not_scorable ("answer public after window"; scorer/1 scored it on d1..d9 and settled it at sim_end).
 * - qC: no answer (label: resolved=false) → not_scorable with that reason.
 * - qD: answer determined at d12 → not_scorable ("answer determined after the window").
 * - qE: opens d12 → outside the window (ignored).
 * - qF: open-ended, answer "Emmanuel Macron", resolve d2, public d2 → active d0, d1; settles d2.
 */
function world() {
  return buildTiny({
    questions: [
      q("qA", d(0), d(3)),
      q("qB", d(1), d(20)),
      q("qC", d(0), d(5)),
      q("qD", d(0), d(5)),
      q("qE", d(12), d(15)),
      q("qF", d(0), d(2), { answer_type: "open", title: "Who will win?" }),
    ],
    resolutions: [
      { question: "qA", answer: "Yes", resolved_at: d(3), visible_at: d(3) },
      { question: "qB", answer: "No", resolved_at: d(2), visible_at: d(20) },
      { question: "qF", answer: "Emmanuel Macron", resolved_at: d(2) - H, visible_at: d(2) },
    ],
    answers: [
      { question: "qA", answer: "Yes", resolved_at: d(3) },
      { question: "qB", answer: "No", resolved_at: d(2) },
      { question: "qD", answer: "Yes", resolved_at: d(12) },
      { question: "qE", answer: "No", resolved_at: d(15) },
      { question: "qF", answer: "Emmanuel Macron", resolved_at: d(2) - H },
    ],
    labels: [{ kind: "question_unscorable", key: "qC", t: null, value: { reason: "resolved=false: x" } }],
  });
}

let seq = 0;
const commit = (t: number, question_id: string, outcomes: Record<string, number>): LedgerEvent => ({
  seq: seq++,
  t,
  type: "commitment",
  actor: "agent",
  tool: "submit_forecasts",
  args: { question_id, outcomes },
});

function score(dir: string, events: LedgerEvent[], params: Record<string, unknown> = {}) {
  const s = scorerCtx(dir, { params });
  try {
    const scorer = new OpenForecastScorer(s.ctx);
    for (const e of events) scorer.onEvent(e);
    const outcomes = scorer.settle(d(10));
    return { outcomes, report: scorer.report() };
  } finally {
    s.close();
  }
}

describe("OpenForecastScorer on a hand-worked world", () => {
  const dir = world();
  const mid = [
    commit(d(0) + H, "qA", { Yes: 0.65, No: 0.25 }),
    commit(d(1) + 2 * H, "qA", { No: 0.8 }),
    commit(d(0) + 3 * H, "qF", { "emmanuel macron!": 0.6, "Marine Le Pen": 0.3 }),
    // ignored: after qA resolved, before qE opens, sum > 1, unknown question, malformed
    commit(d(3), "qA", { Yes: 1 }),
    commit(d(1), "qE", { Yes: 1 }),
    commit(d(1), "qB", { Yes: 0.9, No: 0.9 }),
    commit(d(1), "nope", { Yes: 1 }),
    {
      seq: seq++,
      t: d(1),
      type: "commitment",
      actor: "agent",
      tool: "submit_forecasts",
      args: { question_id: 3 },
    } as LedgerEvent,
  ];

  it("settles each question when its answer is public (sim_end when later), with the mean daily score", () => {
    const { outcomes, report } = score(dir, mid);
    expect(outcomes.map((o) => [o.key, new Date(o.t).toISOString().slice(0, 10), o.status])).toEqual([
      ["q:qF", "2026-03-03", "forecast"],
      ["q:qA", "2026-03-04", "forecast"],
    ]);
    const byKey = Object.fromEntries(outcomes.map((o) => [o.key, o]));
    expect(byKey["q:qA"]!.credit).toBeCloseTo((0.815 - 0.64 - 0.64) / 3, 12);
    expect(byKey["q:qA"]!.detail).toMatchObject({
      active_days: 3,
      day0_score: expect.closeTo(0.815, 12),
      top1_correct: false,
    });
    expect(byKey["q:qF"]!.credit).toBeCloseTo(0.75, 12);
    expect(byKey["q:qF"]!.detail).toMatchObject({ match: "normalized", top1_correct: true, answer: "Emmanuel Macron" });

    expect(report.primary).toEqual({
      name: "tw_score",
      value: expect.closeTo(100 * ((0.815 - 1.28) / 3 + 0.75), 9),
      direction: "higher",
    });
    expect(report.metrics.accuracy).toBe(1 / 2);
    expect(report.metrics.bss_day0).toBeCloseTo((0.815 + 0.75) / 2, 12);
    expect(report.metrics.bss_final).toBeCloseTo((-0.64 + 0.75) / 2, 12);
    expect(report.metrics).toMatchObject({
      questions_scored: 2,
      questions_forecast: 2,
      forecasts_accepted: 3,
      forecasts_ignored: 5,
      judge_pending: null,
    });
    expect(report.not_scorable).toEqual([
      { key: "q:qB", reason: "answer public after window" },
      { key: "q:qC", reason: "resolved=false: x" },
      { key: "q:qD", reason: "answer determined after the window" },
    ]);
  });

  it("silent scores 0; putting 1 on every answer scores 100 per question", () => {
    expect(score(dir, []).report.primary.value).toBe(0);
    const perfect = [
      commit(d(0), "qA", { Yes: 1 }),
      commit(d(1), "qB", { No: 1 }),
      commit(d(0), "qF", { "Emmanuel Macron": 1 }),
    ];
    const r = score(dir, perfect).report;
    expect(r.primary.value).toBe(200);
    expect(r.metrics).toMatchObject({ accuracy: 1, bss_day0: 1, bss_final: 1 });
  });

  it("a forecast standing at a day's end counts for that day only from then on", () => {
    // qA forecast submitted on day 2 only: days 0 and 1 score 0
    const r = score(dir, [commit(d(2) + 23 * H, "qA", { Yes: 1 })]);
    expect(r.outcomes.find((o) => o.key === "q:qA")!.credit).toBeCloseTo(1 / 3, 12);
    // a submission at exactly 00:00 of day 1 belongs to day 1 (not day 0)
    const r2 = score(dir, [commit(d(1), "qA", { Yes: 1 })]);
    expect(r2.outcomes.find((o) => o.key === "q:qA")!.credit).toBeCloseTo(2 / 3, 12);
  });

  it("the judge is read through its persistent cache (a fake judge fills it once)", async () => {
    const cachePath = join(mkdtempSync(join(tmpdir(), "relive-judge-")), "judge.json");
    const events = [commit(d(0), "qF", { "President Macron": 0.6 })];
    const before = score(dir, events, { judge_cache: cachePath }).report;
    expect(before.metrics.judge_pending).toBe(1);
    const qF = before; // unjudged: the truth is unnamed → 1 − (1 + 0.36)
    expect(qF.primary.value).toBeCloseTo(100 * -0.36, 9);

    let calls = 0;
    const judge: AnswerJudge = {
      id: "fake-judge",
      async judge(items) {
        calls++;
        return items.map((it) => it.answer.toLowerCase().includes("macron"));
      },
    };
    const cache = JudgeCache.open(cachePath);
    const item = {
      question: { id: "qF", title: "Who will win?", criteria: "" },
      truth: "Emmanuel Macron",
      answer: "President Macron",
    };
    expect(await fillJudgeCache(cache, judge, [item, item])).toBe(1);
    expect(await fillJudgeCache(JudgeCache.open(cachePath), judge, [item])).toBe(0);
    expect(calls).toBe(1);
    const file = JSON.parse(readFileSync(cachePath, "utf8"));
    expect(file.entries[judgeKey("qF", "Emmanuel Macron", "President Macron")]).toEqual({
      equivalent: true,
      judge: "fake-judge",
    });

    const after = score(dir, events, { judge_cache: cachePath }).report;
    expect(after.metrics).toMatchObject({ judge_pending: 0, judge_matches: 1 });
    expect(after.primary.value).toBeCloseTo(100 * 0.84, 9);
    // without the cache the judge is off
    expect(score(dir, events).report.primary.value).toBeCloseTo(-36, 9);
  });
});

/**
 * The window rules of tasks.md §9 on a second hand-worked world (window d0 → d10):
 * - qM: a market-style question, resolve d20 (scheduled close), resolved early at d3 and public
 *   at d4 → active days [d0, d3) = d0, d1, d2 (scorer/1: d0..d3, up to the public answer); settles d4.
 * - qN: open d2, resolve d5, public exactly at sim_end d10 → active d2, d3, d4; settles d10.
 * - qP: open d1, resolve d4, no public row, answer determined d4 → public counts as d4; active d1..d3.
 * - qR: open d0, resolve d6, answer determined d6, public d11 → "answer public after window".
 */
describe("open-forecast window rules: [open, resolution date), answer public inside the window", () => {
  const dir = buildTiny({
    questions: [q("qM", d(0), d(20)), q("qN", d(2), d(5)), q("qP", d(1), d(4)), q("qR", d(0), d(6))],
    resolutions: [
      { question: "qM", answer: "Yes", resolved_at: d(3), visible_at: d(4) },
      { question: "qN", answer: "No", resolved_at: d(5), visible_at: d(10) },
      { question: "qR", answer: "Yes", resolved_at: d(6), visible_at: d(11) },
    ],
    answers: [
      { question: "qM", answer: "Yes", resolved_at: d(3) },
      { question: "qN", answer: "No", resolved_at: d(5) },
      { question: "qP", answer: "Yes", resolved_at: d(4) },
      { question: "qR", answer: "Yes", resolved_at: d(6) },
    ],
  });

  it("activeEnd: resolve, or the early resolution date the public answer states", () => {
    expect(activeEnd({ resolve: d(20) }, { resolved_at: d(3), visible_at: d(4) })).toBe(d(3));
    expect(activeEnd({ resolve: d(5) }, { resolved_at: d(5), visible_at: d(10) })).toBe(d(5));
    // public after resolve (synthetic long-dated questions): the scheduled resolve date stands
    expect(activeEnd({ resolve: d(5) }, { resolved_at: d(2), visible_at: d(5) })).toBe(d(5));
    expect(activeEnd({ resolve: d(4) }, null)).toBe(d(4));
  });

  it("active days, settlement times and not_scorable, worked by hand", () => {
    // qM: {Yes: 0.7, No: 0.3} from d0: each day 1 − (0.09 + 0.09) = 0.82; a forecast on d3 counts for no day
    const events = [
      commit(d(0) + H, "qM", { Yes: 0.7, No: 0.3 }),
      commit(d(3) + H, "qM", { Yes: 0.1, No: 0.9 }),
      // qN: {No: 0.5} from d3: day d2 → 0, d3 and d4 → 1 − 0.25 = 0.75 → mean 0.5
      commit(d(3), "qN", { No: 0.5 }),
      // qP: {Yes: 1} on d2: d1 → 0, d2 and d3 → 1 → mean 2/3
      commit(d(2), "qP", { Yes: 1 }),
      commit(d(1), "qR", { Yes: 1 }),
    ];
    const { outcomes, report } = score(dir, events);
    expect(
      outcomes.map((o) => [
        o.key,
        new Date(o.t).toISOString().slice(0, 10),
        o.detail.active_days,
        o.detail.first_day,
        o.detail.last_day,
      ]),
    ).toEqual([
      ["q:qM", "2026-03-05", 3, "2026-03-01", "2026-03-03"],
      ["q:qP", "2026-03-05", 3, "2026-03-02", "2026-03-04"],
      ["q:qN", "2026-03-11", 3, "2026-03-03", "2026-03-05"],
    ]);
    const credit = Object.fromEntries(outcomes.map((o) => [o.key, o.credit]));
    expect(credit["q:qM"]).toBeCloseTo(0.82, 12);
    expect(credit["q:qN"]).toBeCloseTo(0.5, 12);
    expect(credit["q:qP"]).toBeCloseTo(2 / 3, 12);
    expect(report.primary.value).toBeCloseTo(100 * (0.82 + 0.5 + 2 / 3), 9);
    expect(report.metrics.questions_scored).toBe(3);
    expect(report.not_scorable).toEqual([{ key: "q:qR", reason: "answer public after window" }]);
  });
});

describe("answer matching option: relive's normalization (default) or FutureSim's", () => {
  const dir = world();
  it("FutureSim's keeps punctuation: a label relive matches by normalization is no match there (hand-worked)", () => {
    const events = [commit(d(0) + 3 * H, "qF", { "emmanuel macron!": 0.6, "Marine Le Pen": 0.3 })];
    const qF = (params: Record<string, unknown>) => score(dir, events, params).outcomes.find((o) => o.key === "q:qF")!;
    // relive: "emmanuel macron!" matches "Emmanuel Macron" → 1 − ((0.6 − 1)² + 0.3²) = 0.75 on both active days
    expect(qF({}).credit).toBeCloseTo(0.75, 12);
    expect(qF({ answer_match: "relive" })).toEqual(qF({}));
    // futuresim: "emmanuelmacron!" ≠ "emmanuelmacron" → the truth is unnamed: 1 − (0.6² + 0.3² + 1²) = −0.45
    const fs = qF({ answer_match: "futuresim" });
    expect(fs.credit).toBeCloseTo(-0.45, 12);
    expect(fs.detail).toMatchObject({ match: null });
    // case and spaces are ignored by both: "EMMANUEL  MACRON" → 1 − (0.6 − 1)² = 0.84
    const spaced = [commit(d(0) + 3 * H, "qF", { "EMMANUEL  MACRON": 0.6 })];
    for (const answer_match of ["relive", "futuresim"]) {
      const o = score(dir, spaced, { answer_match }).outcomes.find((x) => x.key === "q:qF")!;
      expect(o.credit).toBeCloseTo(0.84, 12);
      expect(o.detail).toMatchObject({ match: "normalized" });
    }
  });

  it("normalizes by lowercase and removed spaces only; forecast labels are told apart the same way", () => {
    expect(normalizeAnswerFutureSim("  The U.S.A.!  ")).toBe("theu.s.a.!");
    expect(normalizeAnswerFutureSim("Emmanuel \t Macron")).toBe("emmanuelmacron");
    expect(matchAnswer("q", " yes. ", "Yes", null, "futuresim")).toBeNull();
    expect(matchAnswer("q", " YES ", "Yes", null, "futuresim")).toBe("normalized");
    expect(matchAnswer("q", "New York", "newyork", null, "futuresim")).toBe("normalized");
    expect(matchAnswer("q", "New York", "newyork")).toBeNull();
    const lim = { maxOutcomes: 5, maxChars: 20, match: "futuresim" as const };
    expect(checkOutcomes({ Yes: 0.5, "yes!": 0.2 }, lim)).toEqual({ ok: true, outcomes: { Yes: 0.5, "yes!": 0.2 } });
    expect(checkOutcomes({ "New York": 0.5, newyork: 0.2 }, lim)).toEqual({
      ok: false,
      error: 'outcomes "New York" and "newyork" name the same answer (case and spaces are ignored)',
    });
    expect(() => OpenForecastParams.parse({ answer_match: "loose" })).toThrow();
  });
});
