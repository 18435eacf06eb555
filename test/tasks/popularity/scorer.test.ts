import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOUR_MS, MINUTE_MS } from "../../../src/common/time.js";
import type { LedgerEvent } from "../../../src/ledger/events.js";
import {
  delayCredit,
  f1,
  POPULARITY_SCORER_VERSION,
  PopularityScorer,
  recallDenominator,
} from "../../../src/tasks/popularity/scorer.js";
import type { Outcome } from "../../../src/tasks/task.js";
import { TruthStore } from "../../../src/world/truth-store.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { buildTinyRedditWorld, END, START, T } from "./tiny-world.js";

let seq = 0;
const rec = (iso: string, root_id: string): LedgerEvent => ({
  seq: seq++,
  type: "commitment",
  t: T(iso),
  actor: "agent",
  tool: "recommend",
  args: { root_id },
});

describe("popularity scoring arithmetic", () => {
  it("credit falls linearly from 1 at delay 0 to 0 at 6 h and stays 0", () => {
    expect(delayCredit(0, 6)).toBe(1);
    expect(delayCredit(30 * MINUTE_MS, 6)).toBe(1 - 0.5 / 6);
    expect(delayCredit(3 * HOUR_MS, 6)).toBe(0.5);
    expect(delayCredit(6 * HOUR_MS, 6)).toBe(0);
    expect(delayCredit(9 * HOUR_MS, 6)).toBe(0);
  });

  it("the recall denominator sums min(cap, tail posts) over UTC days of creation", () => {
    const d1 = T("2026-03-01T00:00:00Z");
    const d2 = T("2026-03-02T00:00:00Z");
    const many = Array.from({ length: 14 }, (_, i) => d1 + i * HOUR_MS);
    expect(recallDenominator([...many, d2, d2 + 5], 10)).toBe(12);
    expect(recallDenominator([d2 - 1, d2], 10)).toBe(2);
    expect(recallDenominator([], 10)).toBe(0);
  });

  it("F1 is 0 when precision + recall is 0", () => {
    expect(f1(0, 0)).toBe(0);
    expect(f1(3 / 4, 23 / 60)).toBeCloseTo(69 / 136, 15);
  });
});

describe("popularity scorer on the hand-worked world", () => {
  let world: WorldStore;
  let truth: TruthStore;
  beforeAll(() => {
    const dir = buildTinyRedditWorld();
    world = WorldStore.open(dir);
    truth = TruthStore.open(dir);
  });
  afterAll(() => {
    world.close();
    truth.close();
  });
  const scorer = (params: unknown = {}, end = END) =>
    new PopularityScorer({ sim_start: START, sim_end: end, world, truth, params });

  function runAll(s: PopularityScorer, events: LedgerEvent[], end = END): Outcome[] {
    const out: Outcome[] = [];
    for (const e of events) {
      out.push(...s.settle(e.t));
      s.onEvent(e);
    }
    out.push(...s.settle(end));
    return out;
  }

  it("silent: every in-scope tail post is a miss at its reveal; tw_f1 0", () => {
    const s = scorer();
    const out = runAll(s, []);
    expect(out.map((o) => [o.key, o.status, o.credit, new Date(o.t).toISOString()])).toEqual([
      ["post:a1", "miss", 0, "2026-03-02T01:00:00.000Z"],
      ["post:a2", "miss", 0, "2026-03-02T02:00:00.000Z"],
      ["post:a4", "miss", 0, "2026-03-02T04:00:00.000Z"],
      ["post:b1", "miss", 0, "2026-03-03T10:00:00.000Z"],
      ["post:late", "miss", 0, "2026-03-04T00:00:00.000Z"],
    ]);
    const r = s.report();
    expect(r.primary).toEqual({ name: "tw_f1", value: 0, direction: "higher" });
    expect(r.metrics).toMatchObject({ precision: 0, recall: 0, recall_denominator: 5, tail_posts: 5, misses: 5 });
    expect(r.not_scorable).toEqual([]);
    expect(POPULARITY_SCORER_VERSION).toBe("popularity-scorer/1");
  });

  it("hand-worked mix: precision 3/4, recall (11/12 + 0 + 1)/5, F1 69/136; invalid commitments ignored", () => {
    const s = scorer();
    const events = [
      rec("2026-03-01T00:10:00Z", "pre"), // created before the run start: ignored
      rec("2026-03-01T01:30:00Z", "a1"), // tail, delay 0.5 h: credit 11/12
      rec("2026-03-01T02:00:00Z", "a1"), // second time: ignored
      rec("2026-03-01T02:30:00Z", "ghost"), // not a post: ignored
      rec("2026-03-01T04:00:00Z", "a3"), // 49 comments within 24 h: false alarm
      rec("2026-03-01T10:00:00Z", "a4"), // tail at exactly 50, delay 6 h: hit with credit 0
      rec("2026-03-02T02:00:00Z", "a2"), // at its reveal: ignored (a2 is a miss)
      rec("2026-03-02T10:00:00Z", "b1"), // delay 0: credit 1
      rec("2026-03-03T06:00:00Z", "after"), // reveals after sim_end: not scorable
      rec("2026-03-03T07:00:00Z", "b2"), // not a post
    ];
    const out = runAll(s, events);
    expect(out.map((o) => [o.key, o.status, o.credit])).toEqual([
      ["post:a1", "hit", 1 - 0.5 / 6],
      ["post:a2", "miss", 0],
      ["post:a3", "false_alarm", 0],
      ["post:a4", "hit", 0],
      ["post:b1", "hit", 1],
      ["post:late", "miss", 0],
    ]);
    expect(out[0]!.detail).toEqual({
      post_id: "a1",
      subreddit: "gamma",
      created_utc: T("2026-03-01T01:00:00Z"),
      revealed_at: T("2026-03-02T01:00:00Z"),
      cascade: 60,
      tail: true,
      recommended_at: T("2026-03-01T01:30:00Z"),
      delay_hours: 0.5,
      reaction_h: 0.5,
      comments_at: { "1h": 59, "6h": 60, "24h": 60 },
    });
    expect(out[2]!.detail).toMatchObject({ cascade: 49, tail: false, comments_at: { "1h": 49, "24h": 49 } });
    const r = s.report();
    expect(r.metrics.precision).toBe(0.75);
    expect(r.metrics.recall).toBeCloseTo(23 / 60, 15);
    expect(r.primary.value).toBeCloseTo(69 / 136, 15);
    expect(r.metrics).toMatchObject({
      hits: 3,
      false_alarms: 1,
      misses: 2,
      recommendations_settled: 4,
      recall_denominator: 5,
      cov_recall: 3 / 5,
      commitments_ignored: 5,
      median_delay_hours: 0.5,
    });
    expect(r.metrics.mean_delay_hours).toBeCloseTo(6.5 / 3, 12);
    expect(r.not_scorable).toEqual([{ key: "post:after", reason: "settles after window" }]);
  });

  it("the rolling cap: an 11th recommendation within 24 h is ignored by the scorer too", () => {
    const s = scorer();
    const events = Array.from({ length: 11 }, (_, i) =>
      rec(`2026-03-02T00:${String(20 + i).padStart(2, "0")}:00Z`, `q${i}`),
    );
    runAll(s, events);
    expect(s.report().metrics).toMatchObject({ commitments_ignored: 1, false_alarms: 10 });
  });

  it("no tail post in scope → tw_f1 not scorable (null), never 0", () => {
    const s = new PopularityScorer({
      sim_start: T("2026-03-03T06:00:00Z"),
      sim_end: T("2026-03-04T08:00:00Z"),
      world,
      truth,
      params: {},
    });
    runAll(s, [], T("2026-03-04T08:00:00Z"));
    const r = s.report();
    expect(r.primary.value).toBeNull();
    expect(r.not_scorable).toEqual([
      { key: "tw_f1", reason: "no tail post was created in the scored part of the window" },
    ]);
    expect(r.metrics.precision).toBe(0);
  });

  it("a task parameter moves the threshold: tail_threshold 55 drops a4 from the tail", () => {
    const s = scorer({ tail_threshold: 55 });
    runAll(s, []);
    expect(s.report().metrics).toMatchObject({ tail_posts: 4, recall_denominator: 4 });
  });

  it("reportAt(end) after one pass equals a fresh scorer over [start, end), a post created exactly at end − 24 h included", () => {
    const events = [
      rec("2026-03-01T01:30:00Z", "a1"),
      rec("2026-03-01T04:00:00Z", "a3"),
      rec("2026-03-02T10:00:00Z", "b1"),
      rec("2026-03-03T00:30:00Z", "late"), // created 03-03 00:00: in scope for end = 03-04 00:00 exactly
    ];
    const ends = [T("2026-03-02T00:00:00Z"), T("2026-03-02T04:00:00Z"), T("2026-03-03T00:00:00Z"), END];
    const one = scorer();
    let i = 0;
    for (const end of ends) {
      for (; i < events.length && events[i]!.t < end; i++) {
        one.settle(events[i]!.t);
        one.onEvent(events[i]!);
      }
      one.settle(end);
      const fresh = scorer({}, end);
      runAll(
        fresh,
        events.filter((e) => e.t < end),
        end,
      );
      expect(one.reportAt(end)).toEqual(fresh.report());
    }
    expect(one.reportAt(END).metrics).toMatchObject({ tail_posts: 5, hits: 3 });
  });
});
