import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LedgerEvent } from "../../../src/ledger/events.js";
import {
  FORECAST_PORTFOLIO_SCORER_VERSION,
  ForecastPortfolioScorer,
} from "../../../src/tasks/forecast-portfolio/scorer.js";
import type { Outcome } from "../../../src/tasks/task.js";
import { TruthStore } from "../../../src/world/truth-store.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { buildTinyMarketWorld, END, START, T } from "./tiny-world.js";

let seq = 0;
const submit = (iso: string, question_id: string, forecast: Record<string, number>, news_id?: string): LedgerEvent => ({
  seq: seq++,
  type: "commitment",
  t: T(iso),
  actor: "agent",
  tool: "submit_forecast",
  args: { question_id, forecast, ...(news_id ? { news_id } : {}) },
});

describe("forecast-portfolio scorer on the hand-worked world", () => {
  let world: WorldStore;
  let truth: TruthStore;
  beforeAll(() => {
    const dir = buildTinyMarketWorld();
    world = WorldStore.open(dir);
    truth = TruthStore.open(dir);
  });
  afterAll(() => {
    world.close();
    truth.close();
  });
  const scorer = (end = END, params: unknown = {}) =>
    new ForecastPortfolioScorer({ sim_start: START, sim_end: end, world, truth, params });
  function runAll(s: ForecastPortfolioScorer, events: LedgerEvent[], end = END): Outcome[] {
    const out: Outcome[] = [];
    for (const e of events) {
      out.push(...s.settle(e.t));
      s.onEvent(e);
    }
    out.push(...s.settle(end));
    return out;
  }

  it("the scored set: clean resolutions with t_res inside the run; the rest not scorable with reasons", () => {
    const s = scorer();
    expect(
      s
        .questions()
        .map((q) => [
          q.market.id,
          q.result,
          new Date(q.activation).toISOString(),
          new Date(q.t_res).toISOString(),
          new Date(q.settle_at).toISOString(),
        ]),
    ).toEqual([
      ["ld-a", "Yes", "2026-03-01T00:00:00.000Z", "2026-03-02T12:00:00.000Z", "2026-03-02T12:00:00.000Z"],
      ["ld-g", "Yes", "2026-03-01T00:00:00.000Z", "2026-03-02T06:00:00.000Z", "2026-03-02T18:00:00.000Z"],
      ["ld-b", "No", "2026-03-01T06:00:00.000Z", "2026-03-03T00:00:00.000Z", "2026-03-03T00:00:00.000Z"],
    ]);
    expect(s.report().not_scorable).toEqual([
      { key: "question:ld-c", reason: "settles after window" },
      { key: "question:ld-d", reason: 'unclean resolution (result "Invalid")' },
      { key: "question:ld-e", reason: "settles after window" },
      { key: "question:ld-h", reason: "settles after window" },
    ]);
    expect(FORECAST_PORTFOLIO_SCORER_VERSION).toBe("forecast-portfolio-scorer/1");
  });

  it("silent = the uniform anchor: TA 0.5 everywhere, bss = 1 − 0.5 / (4/9) = −0.125; the market anchor is exact", () => {
    const s = scorer();
    const out = runAll(s, []);
    expect(out.map((o) => [o.key, o.status, o.credit, new Date(o.t).toISOString()])).toEqual([
      ["question:ld-a", "default", 0.5, "2026-03-02T12:00:00.000Z"],
      ["question:ld-g", "default", 0.5, "2026-03-02T18:00:00.000Z"],
      ["question:ld-b", "default", 0.5, "2026-03-03T00:00:00.000Z"],
    ]);
    const r = s.report();
    expect(r.primary).toEqual({ name: "bss", value: -0.125, direction: "higher" });
    expect(r.metrics.base_rate).toBeCloseTo(2 / 3, 15);
    expect(r.metrics.bs_ref).toBeCloseTo(4 / 9, 15);
    expect(r.metrics.anchor_uniform_bss).toBe(-0.125);
    // market anchor: ld-a (0.68·24 h + 0.92·12 h) / 36 h = 0.76; ld-b (0.5·24 h + 0.92·18 h) / 42 h = 0.68; ld-g no price: 0.5
    expect(r.metrics.anchor_market_ta_bss).toBeCloseTo((0.76 + 0.68 + 0.5) / 3, 12);
    expect(r.metrics.anchor_market_bss).toBeCloseTo(0.205, 12);
    expect(r.metrics).toMatchObject({ questions_scored: 3, questions_forecast: 0, coverage: 0, final_bss: -0.125 });
  });

  it("hand-worked forecasts integrate exactly: bss −0.489, ta_bss 1.0146667/3, final_bss −0.4925", () => {
    const s = scorer();
    const out = runAll(
      s,
      [
        submit("2026-03-01T06:00:00Z", "ld-g", { No: 0.7 }), // truth Yes: 1 − 0.7² − 1² = −0.49 for 24 h
        submit("2026-03-01T12:00:00Z", "ld-a", { Yes: 0.8, No: 0.2 }, "n1"), // 0.92 for 12 h
        submit("2026-03-02T00:00:00Z", "ld-a", { yes: 1 }), // case-insensitive label; 1 for 12 h
        submit("2026-03-02T10:00:00Z", "ld-g", { Yes: 1 }), // after t_res (06:00), before the result is public: no effect
        submit("2026-03-02T13:00:00Z", "ld-a", { Yes: 0 }), // after the resolution is public: ignored
        submit("2026-03-01T03:00:00Z", "ld-b", { No: 1 }), // before ld-b opened: ignored
        submit("2026-03-01T04:00:00Z", "ld-c", { Yes: 0.7, No: 0.4 }), // Σp > 1: ignored
        submit("2026-03-01T05:00:00Z", "brk-x", { Yes: 1 }), // not a question: ignored
        submit("2026-03-01T05:30:00Z", "ld-c", { Yes: 0.5 }, "n2"), // cites an unpublished article: ignored
      ].sort((a, b) => a.t - b.t),
    );
    // ld-a: (0.5·12 + 0.92·12 + 1·12) / 36; ld-g: (0.5·6 − 0.49·24) / 30 = −0.292; ld-b: 0.5
    expect(out.map((o) => [o.key, o.status])).toEqual([
      ["question:ld-a", "forecast"],
      ["question:ld-g", "forecast"],
      ["question:ld-b", "default"],
    ]);
    expect(out[0]!.credit).toBeCloseTo(29.04 / 36, 14);
    expect(out[1]!.credit).toBeCloseTo(-0.292, 14);
    const r = s.report();
    expect(r.primary.value).toBeCloseTo(-0.489, 12);
    expect(r.metrics.ta_bss).toBeCloseTo((29.04 / 36 + 0.5 - 0.292) / 3, 12);
    expect(r.metrics.final_ta_bss).toBeCloseTo((1 + 0.5 - 0.49) / 3, 12);
    expect(r.metrics.final_bss).toBeCloseTo(-0.4925, 12);
    expect(r.metrics).toMatchObject({ forecasts_accepted: 4, commitments_ignored: 5, questions_forecast: 2 });
    expect(r.metrics.coverage).toBeCloseTo((24 + 24) / (36 + 30 + 42), 12);
    // the feedback payload: own score decomposition
    expect(out[0]!.detail).toMatchObject({
      question_id: "ld-a",
      result: "Yes",
      final_forecast: { Yes: 1 },
      final_is_default: false,
      final_bss: 1,
      submissions: 2,
      decomposition: { default_uniform: { hours: 12, mean_bss: 0.5 }, own_forecasts: { hours: 24 } },
    });
    const d = out[0]!.detail as { decomposition: { own_forecasts: { mean_bss: number } }; daily: unknown[] };
    expect(d.decomposition.own_forecasts.mean_bss).toBeCloseTo(0.96, 14);
    expect(d.daily).toEqual([
      { day: "2026-03-01", hours: 24, mean_bss: expect.closeTo(0.71, 14) },
      { day: "2026-03-02", hours: 12, mean_bss: 1 },
    ]);
    expect(out[1]!.detail).toMatchObject({ submissions: 1, final_forecast: { No: 0.7 }, time_avg_brier: 1.292 });
  });

  it("BS_ref = 0 (every scored question resolved alike) and an empty scored set are not scorable, never 0", () => {
    const onlyA = new ForecastPortfolioScorer({
      sim_start: START,
      sim_end: T("2026-03-02T13:00:00Z"),
      world,
      truth,
      params: {},
    });
    runAll(onlyA, [], T("2026-03-02T13:00:00Z"));
    const r = onlyA.report();
    expect(r.metrics.questions_scored).toBe(1);
    expect(r.primary.value).toBeNull();
    expect(r.metrics.ta_bss).toBe(0.5);
    expect(r.not_scorable).toContainEqual({
      key: "bss",
      reason: "every scored question resolved the same way (BS_ref = 0)",
    });
    const none = scorer(T("2026-03-01T12:00:00Z"));
    expect(none.report().primary.value).toBeNull();
    expect(none.report().not_scorable).toContainEqual({
      key: "bss",
      reason: "no question resolves cleanly inside the window",
    });
  });

  it('market_prefix selects the questions: "brk-" scores nothing here', () => {
    const s = scorer(END, { market_prefix: "brk-" });
    expect(s.questions()).toEqual([]);
    expect(s.report().not_scorable).toEqual([
      { key: "question:brk-x", reason: "settles after window" },
      { key: "bss", reason: "no question resolves cleanly inside the window" },
    ]);
  });
});
