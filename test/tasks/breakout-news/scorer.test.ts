import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { breakoutNewsTask } from "../../../src/tasks/breakout-news/index.js";
import { BreakoutNewsScorer } from "../../../src/tasks/breakout-news/scorer.js";
import { TruthStore } from "../../../src/world/truth-store.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { driveTask } from "../../support/task-driver.js";
import { schedulePolicy } from "./schedule-policy.js";
import { buildBreakoutTinyWorld, SIM_END, SIM_START, T } from "./tiny-world.js";

let dir: string;
let world: WorldStore;
let truth: TruthStore;

beforeAll(() => {
  dir = buildBreakoutTinyWorld();
  world = WorldStore.open(dir);
  truth = TruthStore.open(dir);
});
afterAll(() => {
  world.close();
  truth.close();
  rmSync(dirname(dir), { recursive: true, force: true });
});

const notify = (at: string, market_id: string, news_id: string, direction: string) => ({
  at: T(at),
  tool: "notify",
  args: { market_id, news_id, direction },
});

/** The hand-worked claims of tiny-world.ts: every status, the excusal, the equal-time rule, a late claim. */
const CLAIMS = [
  notify("2026-03-01T02:00:00Z", "brk-b", "n-neutral", "up"), // B1 is down → wrong_direction, excused (B1 missed)
  notify("2026-03-01T03:00:00Z", "brk-b", "n-neutral", "down"), // rejected: c_b1 pending
  notify("2026-03-01T03:00:00Z", "ld-x", "n-neutral", "up"), // rejected: not monitored
  notify("2026-03-01T03:00:00Z", "brk-late", "n-neutral", "up"), // rejected: not yet visible
  notify("2026-03-01T03:00:00Z", "brk-a", "n-late", "up"), // rejected: unpublished article
  notify("2026-03-01T03:00:00Z", "brk-a", "n-neutral", "sideways"), // rejected: bad direction
  notify("2026-03-01T08:00:00Z", "brk-a", "n-g1", "up"), // covers A1 citing gold: 1 − 2/6
  notify("2026-03-02T00:00:00Z", "brk-c", "n-neutral", "up"), // covers C1 at exactly τ + W: covered_timing
  notify("2026-03-02T04:00:00Z", "brk-b", "n-neutral", "down"), // nothing in its window: false_alarm
  notify("2026-03-02T10:00:00Z", "brk-a", "n-neutral", "down"), // covers A2 without gold: covered_timing
  notify("2026-03-03T06:00:00Z", "brk-c", "n-gc2", "down"), // τ = C2's t_start: no cover; cites C2's gold → stale
  notify("2026-03-03T13:00:00Z", "brk-a", "n-g1", "up"), // cites A1's gold after A1 → stale
  notify("2026-03-04T06:00:00Z", "brk-b", "n-neutral", "up"), // window ends after sim_end → not_scorable
];

describe("breakout-news scorer: hand-worked examples (tiny world)", () => {
  it("settles every status in event order with the spec's credits", async () => {
    const policy = schedulePolicy(CLAIMS);
    const r = await driveTask({ task: breakoutNewsTask, world, truth, sim_start: SIM_START, sim_end: SIM_END, policy });
    expect(policy.results.map((x) => (x.result.ok ? "ok" : x.result.error))).toEqual([
      "ok",
      "notify rejected: a claim on brk-b is already pending (up, made 2026-03-01T02:00:00.000Z, pending until 2026-03-02T02:00:00.000Z)",
      "market ld-x is not monitored in this task (see get_markets)",
      'unknown market id: "brk-late"',
      'unknown news id: "n-late"',
      expect.stringMatching(/^invalid arguments for notify: .*direction/),
      "ok",
      "ok",
      "ok",
      "ok",
      "ok",
      "ok",
      "ok",
    ]);
    expect(r.outcomes.map((o) => [new Date(o.t).toISOString(), o.key, o.status, o.credit])).toEqual([
      ["2026-03-01T10:00:00.000Z", "bp:B1", "miss", 0],
      ["2026-03-01T12:00:00.000Z", "bp:A1", "covered_news", 1 - 2 / 6],
      ["2026-03-02T02:00:00.000Z", "claim:brk-b@2026-03-01T02:00:00.000Z", "wrong_direction", 0],
      ["2026-03-02T12:00:00.000Z", "bp:A2", "covered_timing", 0.7],
      ["2026-03-03T00:00:00.000Z", "bp:C1", "covered_timing", 0.7],
      ["2026-03-03T04:00:00.000Z", "claim:brk-b@2026-03-02T04:00:00.000Z", "false_alarm", 0],
      ["2026-03-03T06:00:00.000Z", "bp:C2", "miss", 0],
      ["2026-03-03T12:00:00.000Z", "bp:A3", "miss", 0],
      ["2026-03-04T06:00:00.000Z", "claim:brk-c@2026-03-03T06:00:00.000Z", "stale", 0],
      ["2026-03-04T12:00:00.000Z", "bp:C3", "miss", 0],
      ["2026-03-04T13:00:00.000Z", "claim:brk-a@2026-03-03T13:00:00.000Z", "stale", 0],
    ]);
    const detail = (key: string) => r.outcomes.find((o) => o.key === key)!.detail;
    expect(detail("claim:brk-b@2026-03-01T02:00:00.000Z")).toMatchObject({
      opposite_breakpoint: "B1",
      excused: true,
    });
    expect(detail("claim:brk-c@2026-03-03T06:00:00.000Z")).toMatchObject({ stale_of: "C2" });
    expect(detail("claim:brk-a@2026-03-03T13:00:00.000Z")).toMatchObject({ stale_of: "A1" });
    // feedback payload of closed breakpoints: gold groups when winnable, else the reason
    expect(detail("bp:A1")).toEqual({
      kind: "breakpoint",
      market: "brk-a",
      breakpoint: "A1",
      direction: "up",
      size: 0.1,
      t_start: "2026-03-01T12:00:00.000Z",
      winnable: true,
      reaction_h: 2,
      gold_groups: [
        { group: "A1-g1", articles: [{ news_id: "n-g1", published_at: "2026-03-01T06:00:00.000Z", confidence: 0.8 }] },
      ],
      claim: {
        key: "claim:brk-a@2026-03-01T08:00:00.000Z",
        claimed_at: "2026-03-01T08:00:00.000Z",
        news_id: "n-g1",
        direction: "up",
        status: "covered_news",
        lead_h: 4,
        news_delay_h: 2,
      },
    });
    // gold window [t_start − W, t_start): an article published exactly 24 h before is gold
    expect(detail("bp:C1")).toMatchObject({ winnable: true, gold_groups: [{ group: "C1-g1" }] });
    expect(detail("bp:B1")).toMatchObject({ winnable: false, reason: "no attributed article", claim: null });
    expect(detail("bp:A3")).toMatchObject({ winnable: false, reason: "no attribution with confidence ≥ 0.6" });
    expect(detail("bp:C3")).toMatchObject({
      winnable: false,
      reason: "no attributed article with confidence ≥ 0.6 published in [t_start − 24 h, t_start)",
    });

    // precision = 3 covering / (3 covering + 4 expired − 1 excused); coverage 3 of 7; tc over the 4 winnable
    const rep = r.report;
    const precision = 3 / 6;
    const covRecall = 3 / 7;
    const tcRecall = (1 - 2 / 6 + 0.7 + 0.7 + 0) / 4;
    expect(rep.primary).toEqual({
      name: "cov_f1",
      value: (2 * precision * covRecall) / (precision + covRecall),
      direction: "higher",
    });
    expect(rep.metrics).toMatchObject({
      precision,
      cov_recall: covRecall,
      tc_recall: tcRecall,
      tc_f1: (2 * precision * tcRecall) / (precision + tcRecall),
      direction_acc: 0.75,
      lead_h_p50: 4,
      lead_h_p90: 20,
      news_delay_h_p50: 2,
      news_delay_h_p90: 2,
      breakpoints: 7,
      winnable: 4,
      covered_news: 1,
      covered_timing: 2,
      miss: 4,
      claims: 8,
      stale: 2,
      wrong_direction: 1,
      wrong_direction_excused: 1,
      false_alarm: 1,
      claims_unsettled: 1,
      notify_rejected: 5,
      commitments_ignored: 0,
      "brk-a.cov_recall": 2 / 3,
      "brk-a.precision": 2 / 3,
      "brk-b.precision": 0,
      "brk-b.cov_recall": 0,
      "brk-late.cov_f1": null,
    });
    expect(rep.primary.value).toBeCloseTo(6 / 13, 15);
    expect(rep.not_scorable).toEqual([{ key: "claim:brk-b@2026-03-04T06:00:00.000Z", reason: "settles after window" }]);
  });

  it("re-checks raw commitments: invalid ones are ignored, never scored", () => {
    const s = new BreakoutNewsScorer({ sim_start: SIM_START, sim_end: SIM_END, world, truth, params: {} });
    let seq = 0;
    const commit = (at: string, args: unknown) =>
      s.onEvent({ seq: seq++, type: "commitment", t: T(at), actor: "x", tool: "notify", args });
    commit("2026-03-01T03:00:00Z", { market_id: "ld-x", news_id: "n-neutral", direction: "up" }); // not monitored
    commit("2026-03-01T03:00:00Z", { market_id: "brk-late", news_id: "n-neutral", direction: "up" }); // not visible
    commit("2026-03-01T03:00:00Z", { market_id: "brk-a", news_id: "n-late", direction: "up" }); // unpublished
    commit("2026-03-01T03:00:00Z", { market_id: "brk-a", news_id: "nope", direction: "up" }); // unknown article
    commit("2026-03-01T03:00:00Z", { market_id: "brk-a", news_id: "n-neutral", direction: "flat" }); // bad args
    commit("2026-03-01T08:00:00Z", { market_id: "brk-a", news_id: "n-g1", direction: "up" }); // valid (any actor)
    commit("2026-03-01T09:00:00Z", { market_id: "brk-a", news_id: "n-g1", direction: "up" }); // pending: ignored
    commit("2026-03-02T08:00:00Z", { market_id: "brk-a", news_id: "n-neutral", direction: "down" }); // τ' + W = τ: valid
    expect(s.settle(SIM_END).map((o) => [o.key, o.status])).toEqual([
      ["bp:B1", "miss"],
      ["bp:A1", "covered_news"],
      ["bp:A2", "covered_timing"],
      ["bp:C1", "miss"],
      ["bp:C2", "miss"],
      ["bp:A3", "miss"],
      ["bp:C3", "miss"],
    ]);
    expect(s.report().metrics).toMatchObject({ commitments_ignored: 6, claims: 2, precision: 1 });
  });

  it("silence: cov_f1 0; a window without breakpoints makes the F1s not_scorable, never 0", () => {
    const silent = new BreakoutNewsScorer({ sim_start: SIM_START, sim_end: SIM_END, world, truth, params: {} });
    silent.settle(SIM_END);
    expect(silent.report().primary.value).toBe(0);
    const empty = new BreakoutNewsScorer({
      sim_start: T("2026-02-28T00:00:00Z"),
      sim_end: T("2026-03-01T00:00:00Z"),
      world,
      truth,
      params: {},
    });
    empty.settle(T("2026-03-01T00:00:00Z"));
    const rep = empty.report();
    expect(rep.primary.value).toBeNull();
    expect(rep.metrics.tc_f1).toBeNull();
    expect(rep.not_scorable).toEqual([
      { key: "cov_f1", reason: "no breakpoint closed in the window" },
      { key: "tc_f1", reason: "no winnable breakpoint closed in the window" },
    ]);
  });

  it("task params move W, the gold threshold and the timing credit", async () => {
    const policy = schedulePolicy(CLAIMS.filter((c) => c.tool === "notify"));
    const r = await driveTask({
      task: breakoutNewsTask,
      world,
      truth,
      sim_start: SIM_START,
      sim_end: SIM_END,
      policy,
      params: { gold_min_confidence: 0.95, timing_credit: 0.5 },
    });
    // nothing is gold at 0.95: A1 is now a timing cover; no breakpoint is winnable → tc_f1 not_scorable
    expect(r.outcomes.find((o) => o.key === "bp:A1")).toMatchObject({ status: "covered_timing", credit: 0.5 });
    expect(r.report.metrics.winnable).toBe(0);
    expect(r.report.metrics.tc_f1).toBeNull();
  });
});
