import { rmSync } from "node:fs";
import { dirname } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LedgerEvent } from "../../../src/ledger/events.js";
import { DailyDigestScorer } from "../../../src/tasks/daily-digest/scorer.js";
import { TruthStore } from "../../../src/world/truth-store.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { buildTinyWorld, T } from "./tiny-world.js";

const SIM_START = T("2026-03-01T00:00:00Z");
const SIM_END = T("2026-03-04T00:00:00Z");
const HITS = Array.from({ length: 10 }, (_, i) => `h${i}`);
const D = Array.from({ length: 10 }, (_, i) => `d${i}`);

let dir: string;
let world: WorldStore;
let truth: TruthStore;

beforeAll(() => {
  dir = buildTinyWorld();
  world = WorldStore.open(dir);
  truth = TruthStore.open(dir);
});
afterAll(() => {
  world.close();
  truth.close();
  rmSync(dirname(dir), { recursive: true, force: true });
});

function scorer(params: unknown = {}) {
  return new DailyDigestScorer({ sim_start: SIM_START, sim_end: SIM_END, world, truth, params });
}

let seq = 0;
const digest = (t: string, ids: unknown): LedgerEvent => ({
  seq: seq++,
  type: "commitment",
  t: T(t),
  actor: "agent",
  tool: "digest",
  args: { root_ids: ids },
});
const llmRejected = (t: string): LedgerEvent => ({
  seq: seq++,
  type: "llm_rejected",
  t: T(t),
  actor: "agent",
  reason: "llm cap",
});

/** Feeds events, settles at sim_end, returns the report and all outcomes. */
function run(events: LedgerEvent[], params: unknown = {}) {
  const s = scorer(params);
  for (const e of events) s.onEvent(e);
  const outcomes = s.settle(SIM_END);
  return { report: s.report(), outcomes };
}

/** credit of day 03-02 for one digest delivered at 12:30 */
function day2(ids: string[]) {
  const { outcomes } = run([digest("2026-03-02T12:30:00Z", ids)]);
  return outcomes.find((o) => o.key === "day:2026-03-02")!;
}

describe("daily-digest scorer on the hand-worked world", () => {
  it("7 hits of 10; a day without digest is 0; the last day settles after the window", () => {
    const { report, outcomes } = run([digest("2026-03-02T12:30:00Z", [...HITS.slice(0, 7), "below", "old", "fresh"])]);
    expect(outcomes.map((o) => [o.key, o.t, o.status, o.credit])).toEqual([
      ["day:2026-03-01", T("2026-03-02T12:00:00Z"), "missed", 0],
      ["day:2026-03-02", T("2026-03-03T12:00:00Z"), "delivered", 0.7],
    ]);
    expect(outcomes[1]!.detail).toMatchObject({
      hits: 7,
      ids: [...HITS.slice(0, 7), "below", "old", "fresh"],
      hit_ids: HITS.slice(0, 7),
      delivered_at: T("2026-03-02T12:30:00Z"),
      counted: true,
    });
    expect(outcomes[1]!.detail.verdicts).toContainEqual({
      id: "below",
      hit: false,
      reason: "below_threshold",
      cascade_24h: 49,
    });
    expect(report.primary).toEqual({ name: "digest_acc", value: 0.35, direction: "higher" });
    expect(report.metrics).toMatchObject({
      digest_acc: 0.35,
      digest_acc_raw: 0.35,
      window_survived: 1,
      days_scored: 2,
      days_delivered: 1,
      days_missed: 1,
      mean_hits: 7,
    });
    expect(report.not_scorable).toEqual([{ key: "day:2026-03-03", reason: "settles after window" }]);
  });

  it("duplicates count once and ids beyond the first 10 distinct are ignored", () => {
    // first 10 distinct: h0 h1 below old fresh h2 h3 h4 h5 h6 → 7 hits; h7..h9 come after and are ignored
    const o = day2(["h0", "h0", "h1", "below", "h1", "old", "fresh", "h2", "h3", "h4", "h5", "h6", "h7", "h8", "h9"]);
    expect(o.credit).toBe(0.7);
    expect(o.detail.ids).toEqual(["h0", "h1", "below", "old", "fresh", "h2", "h3", "h4", "h5", "h6"]);
  });

  it("all ten hits → 1; fewer than ten ids still divide by ten", () => {
    expect(day2(HITS).credit).toBe(1);
    expect(day2(["h0", "h0", "h0"]).credit).toBe(0.1);
  });

  it("candidate window is [a − 24 h, a): created 1 ms before it or exactly at a is no hit", () => {
    const o = day2(["old", "fresh", "h0"]);
    expect(o.detail.verdicts).toEqual([
      { id: "old", hit: false, reason: "outside_candidate_window", created_utc: T("2026-03-01T11:59:59.999Z") },
      { id: "fresh", hit: false, reason: "outside_candidate_window", created_utc: T("2026-03-02T12:00:00Z") },
      { id: "h0", hit: true, cascade_24h: 50 },
    ]);
    // a hit of another day is not a hit today
    expect(day2(D).credit).toBe(0);
  });

  it("the 24 h cascade counts comments created before post + 24 h only", () => {
    const o = day2(["exact", "below", "nope"]);
    expect(o.detail.verdicts).toEqual([
      { id: "exact", hit: true, cascade_24h: 50 },
      { id: "below", hit: false, reason: "below_threshold", cascade_24h: 49 },
      { id: "nope", hit: false, reason: "not_a_post" },
    ]);
    expect(o.credit).toBe(0.1);
  });

  it("scores two days: (1.0 + 0.7) / 2", () => {
    const { report } = run([
      digest("2026-03-01T12:59:59.999Z", D),
      digest("2026-03-02T12:00:00Z", [...HITS.slice(0, 7), "a", "b", "c"]),
    ]);
    expect(report.primary.value).toBeCloseTo(0.85, 12);
    expect(report.metrics.mean_hits).toBe(8.5);
  });

  it("ignores commitments outside a window, second digests and malformed payloads", () => {
    const { report, outcomes } = run([
      digest("2026-03-01T13:00:00Z", D),
      digest("2026-03-02T12:10:00Z", HITS.slice(0, 3)),
      digest("2026-03-02T12:20:00Z", HITS),
      digest("2026-03-02T12:21:00Z", "h1"),
    ]);
    expect(outcomes.map((o) => o.credit)).toEqual([0, 0.3]);
    expect(report.metrics.commitments_ignored).toBe(3);
    expect(report.metrics.days_delivered).toBe(1);
  });

  it("budget-exhaustion rule: only days whose window opened before the first llm_rejected count", () => {
    const events = (rej: string) => [
      digest("2026-03-01T12:30:00Z", D),
      llmRejected(rej),
      llmRejected("2026-03-03T00:00:00Z"),
      digest("2026-03-02T12:30:00Z", [...HITS.slice(0, 7), "x", "y", "z"]),
    ];
    // rejected exactly at the 03-02 opening: that window did not open before it
    const at = run(events("2026-03-02T12:00:00Z"));
    expect(at.report.primary.value).toBe(1);
    expect(at.report.metrics.digest_acc_raw).toBeCloseTo(0.85, 12);
    expect(at.report.metrics.window_survived).toBe(0.5);
    expect(at.report.metrics.days_counted).toBe(1);
    expect(at.outcomes.map((o) => o.detail.counted)).toEqual([true, false]);
    // one ms later the 03-02 window had opened before it
    const after = run(events("2026-03-02T12:00:00.001Z"));
    expect(after.report.primary.value).toBeCloseTo(0.85, 12);
    expect(after.report.metrics.window_survived).toBe(1);
  });

  it("budget exhausted before the first window: digest_acc is not_scorable, raw still reported", () => {
    const { report } = run([llmRejected("2026-03-01T06:00:00Z"), digest("2026-03-02T12:30:00Z", HITS)]);
    expect(report.primary.value).toBeNull();
    expect(report.metrics.digest_acc_raw).toBe(0.5);
    expect(report.metrics.window_survived).toBe(0);
    expect(report.not_scorable).toContainEqual({
      key: "digest_acc",
      reason: "budget exhausted before the first delivery window opened",
    });
  });

  it("a window with no settling day is not_scorable, never 0", () => {
    const s = new DailyDigestScorer({
      sim_start: T("2026-03-03T00:00:00Z"),
      sim_end: SIM_END,
      world,
      truth,
      params: {},
    });
    s.onEvent(digest("2026-03-03T12:30:00Z", ["fresh"]));
    expect(s.settle(SIM_END)).toEqual([]);
    const r = s.report();
    expect(r.primary.value).toBeNull();
    expect(r.metrics.digest_acc_raw).toBeNull();
    expect(r.not_scorable).toEqual([
      { key: "day:2026-03-03", reason: "settles after window" },
      { key: "digest_acc", reason: "no day settles inside the window" },
    ]);
  });

  it("settle emits each day once, at its settlement time, in order", () => {
    const s = scorer();
    s.onEvent(digest("2026-03-01T12:30:00Z", D));
    expect(s.settle(T("2026-03-02T11:59:59.999Z"))).toEqual([]);
    expect(s.settle(T("2026-03-02T12:00:00Z")).map((o) => [o.key, o.credit])).toEqual([["day:2026-03-01", 1]]);
    expect(s.settle(T("2026-03-02T12:00:00Z"))).toEqual([]);
    s.onEvent(digest("2026-03-02T12:30:00Z", ["h9"]));
    expect(s.settle(SIM_END).map((o) => [o.key, o.t, o.credit])).toEqual([
      ["day:2026-03-02", T("2026-03-03T12:00:00Z"), 0.1],
    ]);
  });

  it("task params change the threshold and size", () => {
    const { outcomes } = run([digest("2026-03-02T12:30:00Z", ["h9", "h5", "exact"])], {
      hit_threshold: 55,
      digest_size: 5,
    });
    expect(outcomes[1]!.credit).toBe(0.4);
  });

  it("property: credit = hits among the first 10 distinct ids / 10; later ids never change it", () => {
    const hitSet = new Set([...HITS, "exact"]);
    const pool = [...HITS, ...D, "below", "exact", "old", "fresh", "nope"];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pool), { minLength: 1, maxLength: 30 }),
        fc.array(fc.constantFrom(...pool), { maxLength: 20 }),
        (ids, tail) => {
          const first10 = [...new Set(ids)].slice(0, 10);
          const expected = first10.filter((id) => hitSet.has(id)).length / 10;
          expect(day2(ids).credit).toBe(expected);
          if (new Set(ids).size >= 10) expect(day2([...ids, ...tail].slice(0, 50)).credit).toBe(expected);
        },
      ),
      { numRuns: 60 },
    );
  });
});
