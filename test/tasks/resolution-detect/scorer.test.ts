import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolutionDetectTask } from "../../../src/tasks/resolution-detect/index.js";
import { ResolutionDetectScorer } from "../../../src/tasks/resolution-detect/scorer.js";
import { TruthStore } from "../../../src/world/truth-store.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { driveTask } from "../../support/task-driver.js";
import { schedulePolicy } from "../breakout-news/schedule-policy.js";
import { buildResolutionTinyWorld, SIM_END, SIM_START, T } from "./tiny-world.js";

let dir: string;
let world: WorldStore;
let truth: TruthStore;

beforeAll(() => {
  dir = buildResolutionTinyWorld();
  world = WorldStore.open(dir);
  truth = TruthStore.open(dir);
});
afterAll(() => {
  world.close();
  truth.close();
  rmSync(dirname(dir), { recursive: true, force: true });
});

const mark = (at: string, question_id: string, outcome: string, news_id?: string) => ({
  at: T(at),
  tool: "mark_outcome",
  args: { question_id, outcome, ...(news_id ? { news_id } : {}) },
});

const MARKS = [
  mark("2026-03-02T00:00:00Z", "ld-c", "Yes"), // no t_det, resolved No in the window → wrong at its resolution
  mark("2026-03-02T00:00:00Z", "ld-d", "Yes"), // never determined → no_determination at sim_end
  mark("2026-03-02T00:00:00Z", "ld-old", "Yes"), // determined before the window: accepted, but not scored
  mark("2026-03-02T00:00:00Z", "ld-f", "Yes"), // rejected: not added yet
  mark("2026-03-02T00:00:00Z", "brk-z", "Yes"), // rejected: not a question
  mark("2026-03-02T00:00:00Z", "ld-a", "Maybe"), // rejected: not an outcome
  mark("2026-03-02T00:00:00Z", "ld-b", "No", "n-future"), // rejected: unpublished article
  mark("2026-03-02T18:00:00Z", "ld-a", "Yes", "n-a"), // 6 h late → exp(−1/8)
  mark("2026-03-02T18:00:00Z", "ld-b", "No"), // 6 h early → exp(−1/2)
  mark("2026-03-02T19:00:00Z", "ld-a", "No"), // rejected: already marked
  mark("2026-03-03T00:00:00Z", "ld-e", "No"), // wrong; resolution after the window → not_scorable
];

describe("resolution-detect scorer: hand-worked examples (tiny world)", () => {
  it("every status, its credit and its settlement time", async () => {
    const policy = schedulePolicy(MARKS);
    const r = await driveTask({
      task: resolutionDetectTask,
      world,
      truth,
      sim_start: SIM_START,
      sim_end: SIM_END,
      policy,
    });
    expect(policy.results.map((x) => (x.result.ok ? "ok" : x.result.error))).toEqual([
      "ok",
      "ok",
      "ok",
      'unknown question id: "ld-f"',
      'unknown question id: "brk-z"',
      'mark_outcome rejected: "Maybe" is not an outcome of ld-a (outcomes: Yes, No)',
      'unknown news id: "n-future"',
      "ok",
      "ok",
      "mark_outcome rejected: you already marked ld-a as Yes at 2026-03-02T18:00:00.000Z; marks are final",
      "ok",
    ]);
    expect(r.outcomes.map((o) => [new Date(o.t).toISOString(), o.key, o.status, o.credit])).toEqual([
      ["2026-03-02T18:00:00.000Z", "q:ld-a", "correct", Math.exp(-1 / 8)],
      ["2026-03-03T00:00:00.000Z", "q:ld-b", "early", Math.exp(-1 / 2)],
      ["2026-03-03T00:00:00.000Z", "q:ld-c", "wrong", 0],
      ["2026-03-05T00:00:00.000Z", "q:ld-d", "no_determination", 0],
      ["2026-03-05T00:00:00.000Z", "q:ld-g", "miss", 0],
    ]);
    expect(r.outcomes[0]!.detail).toEqual({
      kind: "claim",
      question_id: "ld-a",
      outcome: "Yes",
      news_id: "n-a",
      marked_at: "2026-03-02T18:00:00.000Z",
      t_det: "2026-03-02T12:00:00.000Z",
      delay_h: 6,
      reaction_h: 6,
    });
    expect(r.outcomes[2]!.detail).toMatchObject({ resolved_outcome: "No", resolved_at: "2026-03-03T00:00:00.000Z" });
    const sum = Math.exp(-1 / 8) + Math.exp(-1 / 2);
    expect(r.report.primary).toEqual({ name: "tc_f1", value: sum / 4, direction: "higher" });
    expect(r.report.metrics).toMatchObject({
      precision: sum / 4,
      recall: sum / 4,
      cov_f1: 0.5,
      cov_precision: 0.5,
      cov_recall: 0.5,
      delay_h_p50: 0,
      questions: 8,
      winnable: 4,
      claims: 5,
      correct: 1,
      early: 1,
      wrong: 1,
      no_determination: 1,
      miss: 1,
      claims_unsettled: 1,
      marks_rejected: 5,
      commitments_ignored: 1,
    });
    expect(r.report.metrics.delay_h_p90).toBeCloseTo(4.8, 12);
    expect(r.report.not_scorable).toEqual([
      { key: "q:ld-old", reason: "determined before the window" },
      { key: "q:ld-e", reason: "settles after window" },
    ]);
  });

  it("re-checks raw commitments: first valid claim per question only", () => {
    const s = new ResolutionDetectScorer({ sim_start: SIM_START, sim_end: SIM_END, world, truth, params: {} });
    let seq = 0;
    const commit = (at: string, args: unknown) =>
      s.onEvent({ seq: seq++, type: "commitment", t: T(at), actor: "any", tool: "mark_outcome", args });
    commit("2026-03-02T00:00:00Z", { question_id: "ld-f", outcome: "Yes" }); // not visible yet
    commit("2026-03-02T00:00:00Z", { question_id: "brk-z", outcome: "Yes" }); // not a question
    commit("2026-03-02T00:00:00Z", { question_id: "ld-a", outcome: "Maybe" }); // not an outcome
    commit("2026-03-02T00:00:00Z", { question_id: "ld-a", outcome: "Yes", news_id: "n-future" }); // unpublished
    commit("2026-03-02T00:00:00Z", { question_id: "ld-a" }); // bad args
    commit("2026-03-02T12:00:00Z", { question_id: "ld-a", outcome: "Yes" }); // valid: exactly at t_det → 1
    commit("2026-03-02T13:00:00Z", { question_id: "ld-a", outcome: "No" }); // second claim: ignored
    expect(s.settle(T("2026-03-02T11:59:59Z"))).toEqual([]);
    expect(s.settle(T("2026-03-02T12:00:00Z")).map((o) => [o.key, o.status, o.credit])).toEqual([
      ["q:ld-a", "correct", 1],
    ]);
    expect(s.settle(SIM_END).map((o) => [o.key, o.status])).toEqual([
      ["q:ld-b", "miss"],
      ["q:ld-e", "miss"],
      ["q:ld-g", "miss"],
    ]);
    expect(s.report().metrics).toMatchObject({ commitments_ignored: 6, claims: 1, precision: 1, recall: 0.25 });
  });

  it("silence → 0; a window with no determination makes tc_f1 not_scorable; decay constants are params", async () => {
    const silent = new ResolutionDetectScorer({ sim_start: SIM_START, sim_end: SIM_END, world, truth, params: {} });
    silent.settle(SIM_END);
    expect(silent.report().primary.value).toBe(0);
    const empty = new ResolutionDetectScorer({
      sim_start: SIM_START,
      sim_end: T("2026-03-02T00:00:00Z"),
      world,
      truth,
      params: {},
    });
    empty.settle(T("2026-03-02T00:00:00Z"));
    expect(empty.report().primary.value).toBeNull();
    expect(empty.report().not_scorable).toContainEqual({
      key: "tc_f1",
      reason: "no question was determined inside the window",
    });
    const r = await driveTask({
      task: resolutionDetectTask,
      world,
      truth,
      sim_start: SIM_START,
      sim_end: SIM_END,
      policy: schedulePolicy(MARKS),
      params: { late_decay_hours: 6, early_decay_hours: 3 },
    });
    expect(r.outcomes.slice(0, 2).map((o) => o.credit)).toEqual([Math.exp(-1), Math.exp(-2)]);
  });
});
