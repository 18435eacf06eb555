/**
 * Outcome memory (issue 13 §2): the daily learn step at 00:30 drains released outcomes into
 * memory/records.jsonl and renders a deterministic block of at most 5,000 tokens; a 28-day run gives
 * the same records and blocks twice; outcomes drain by `released_at`, never by settlement time.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { countTokens } from "../../src/agent/token-counter.js";
import { DAY_MS, HOUR_MS, isoInstant, utcDay } from "../../src/common/time.js";
import { renderOutcomeBlock, rowRanges } from "../../src/learning/outcome-block.js";
import { OutcomeDrain, type OutcomeRecord } from "../../src/learning/outcome-records.js";
import type { LedgerEvent } from "../../src/ledger/events.js";
import { readLedger } from "../../src/ledger/ledger-reader.js";
import { ConfigError } from "../../src/run/config.js";
import { run } from "../run/helpers.js";

const readRecords = (dir: string): OutcomeRecord[] =>
  readFileSync(join(dir, "memory", "records.jsonl"), "utf8")
    .trim()
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as OutcomeRecord);

const D0 = utcDay("2026-03-01");
const outcome = (t: number, key: string, status: string, credit: number | null, released_at = t): LedgerEvent =>
  ({ seq: 0, type: "outcome", t, key, status, credit, released_at, detail: { why: status } }) as LedgerEvent;

describe("outcome drain", () => {
  it("releases by released_at (not the settlement time), in release order, with the ledger row and the agent's action", () => {
    const events: LedgerEvent[] = [
      {
        seq: 0,
        type: "commitment",
        t: D0 + HOUR_MS,
        actor: "agent",
        tool: "claim",
        args: { market_id: "m1" },
      } as LedgerEvent,
      outcome(D0 + 2 * HOUR_MS, "claim:m1@x", "hit", 1, D0 + 3 * DAY_MS),
      outcome(D0 + 3 * HOUR_MS, "bp:b7", "miss", 0),
    ];
    const drain = new OutcomeDrain((o) => ({ key: o.key, status: o.status, credit: o.credit, ...o.detail }));
    for (const [i, e] of events.entries()) drain.observe({ ...e, seq: i });
    const day1 = drain.drain(D0 + DAY_MS);
    expect(day1.map((r) => r.outcome.key)).toEqual(["bp:b7"]);
    expect(day1[0]).toEqual({
      t: isoInstant(D0 + 3 * HOUR_MS),
      src: "ledger:3",
      outcome: { key: "bp:b7", status: "miss", credit: 0 },
      action: null,
      note: '{"why":"miss"}',
    });
    // settled on day 0, released on day 3: not before
    expect(drain.drain(D0 + 2 * DAY_MS)).toEqual([]);
    const day3 = drain.drain(D0 + 3 * DAY_MS);
    expect(day3).toHaveLength(1);
    expect(day3[0]!.t).toBe(isoInstant(D0 + 3 * DAY_MS));
    expect(day3[0]!.src).toBe("ledger:2");
    expect(day3[0]!.action).toBe(`claim {"market_id":"m1"} at ${isoInstant(D0 + HOUR_MS)}`);
    expect(drain.drain(D0 + 9 * DAY_MS)).toEqual([]);
  });

  it("skips outcomes whose oracle payload the task omits", () => {
    const drain = new OutcomeDrain((o) => (o.status === "miss" ? null : { key: o.key }));
    drain.observe({ ...outcome(D0, "q:a", "miss", 0), seq: 0 });
    drain.observe({ ...outcome(D0, "q:b", "hit", 1), seq: 1 });
    expect(drain.drain(D0 + DAY_MS).map((r) => r.outcome.key)).toEqual(["q:b"]);
  });
});

describe("outcome block", () => {
  const many = (n: number): OutcomeRecord[] =>
    Array.from({ length: n }, (_, i) => ({
      t: isoInstant(D0 + i * HOUR_MS),
      src: `ledger:${10 + i}`,
      outcome: {
        key: i % 3 === 0 ? `post:p${i % 40}` : `claim:M${i % 7}@${isoInstant(D0 + i * HOUR_MS)}`,
        status: i % 5 === 0 ? "hit" : i % 5 === 1 ? "false_alarm" : "miss",
        credit: i % 5 === 0 ? 1 : 0,
      },
      action: i % 2 ? `claim {"market_id":"M${i % 7}"} at ${isoInstant(D0 + i * HOUR_MS)}` : null,
      note: JSON.stringify({ detail: "x".repeat(i % 50), rank: i }),
    }));

  it("stays within 5,000 tokens with counts, tables, early and newest rows in full, folded repeats and an elision line", () => {
    const rs = many(3000);
    const text = renderOutcomeBlock(rs, "2026-06-01T00:30:00.000Z");
    expect(countTokens(text)).toBeLessThanOrEqual(5000);
    expect(text).toContain("3000 outcomes released so far");
    expect(text).toContain("Counts: miss 1800, false_alarm 600, hit 600; mean credit 0.200.");
    expect(text).toContain("By kind: kind | n | statuses | mean credit");
    expect(text).toContain("claim | 2000 | miss 1200, false_alarm 400, hit 400 | 0.200");
    expect(text).toContain("Entities with repeated outcomes");
    // the earliest rows are kept in full (evidence from the start), and the newest
    for (const row of ["r1 [ledger:10]", "r2 [ledger:11]", "r3 [ledger:12]", "r3000 [ledger:3009]"])
      expect(text).toContain(row);
    expect(text).toMatch(/older outcomes not shown: /);
    expect(renderOutcomeBlock(rs, "2026-06-01T00:30:00.000Z")).toBe(text);
    // a smaller cap is honoured too
    expect(countTokens(renderOutcomeBlock(rs, "x", 1200))).toBeLessThanOrEqual(1200);
  });

  it("folds runs of the same kind, status and credit into one line citing its rows", () => {
    const rs: OutcomeRecord[] = Array.from({ length: 30 }, (_, i) => ({
      t: isoInstant(D0 + i * HOUR_MS),
      src: `ledger:${i + 1}`,
      outcome: { key: `q:x${i}`, status: i < 25 ? "miss" : "hit", credit: i < 25 ? 0 : 1 },
      action: null,
      note: "",
    }));
    const text = renderOutcomeBlock(rs, "now");
    // full: r1–r3 (earliest), r25 and r30 (one per kind × status, newest of each), r23–r30 (newest 8); the rest fold
    expect(text).toContain("r4–r22 ×19 q:* miss 0.000");
    expect(rowRanges([1, 2, 3, 7, 9, 10])).toBe("r1–r3, r7, r9–r10");
  });
});

describe("outcome memory in a run", () => {
  it("is refused at config time under the blind condition", async () => {
    await expect(
      run({
        task: "open-forecast",
        episode: "synth-7d",
        feedback: "none",
        agent: { model: "scripted:base-rate-news", memory: "outcome" },
      }),
    ).rejects.toThrow(ConfigError);
    await expect(
      run({
        task: "open-forecast",
        episode: "synth-7d",
        feedback: "none",
        agent: { model: "scripted:base-rate-news", memory: "outcome" },
      }),
    ).rejects.toThrow(/feedback: none/);
  });

  it("a 28-day run: one learn step a day, records drained by release, blocks within the cap, identical on a second run", async () => {
    const cfg = {
      task: "open-forecast",
      episode: "synth-28d",
      feedback: "oracle",
      agent: { model: "scripted:base-rate-news", memory: "outcome" },
    } as const;
    const a = await run(cfg);
    const b = await run(cfg);
    expect(b.runDir).not.toBe(a.runDir);
    const ledger = readLedger(join(a.runDir, "ledger.jsonl"));
    const learn = ledger.filter((e) => e.type === "note" && e.kind === "learn") as Extract<
      LedgerEvent,
      { type: "note" }
    >[];
    expect(learn.map((e) => isoInstant(e.t))).toEqual(
      Array.from({ length: 28 }, (_, i) => isoInstant(utcDay("2026-03-01") + i * DAY_MS + 30 * 60_000)),
    );
    const records = readRecords(a.runDir);
    // every outcome released before the last learn step, each exactly once, in release order
    const lastLearn = learn.at(-1)!.t;
    const released = ledger.flatMap((e, i) =>
      e.type === "outcome" && (e.released_at ?? e.t) <= lastLearn ? [{ line: i + 1, at: e.released_at ?? e.t }] : [],
    );
    expect(records.length).toBeGreaterThan(20);
    expect(records.map((r) => r.src).sort()).toEqual(released.map((x) => `ledger:${x.line}`).sort());
    for (let i = 1; i < records.length; i++) expect(records[i]!.t >= records[i - 1]!.t).toBe(true);
    for (const e of learn) {
      const tokens = Number(/block (\d+) tokens/.exec(e.message)![1]);
      expect(tokens).toBeGreaterThan(0);
      expect(tokens).toBeLessThanOrEqual(5000);
    }
    expect(readFileSync(join(b.runDir, "memory", "records.jsonl"), "utf8")).toBe(
      readFileSync(join(a.runDir, "memory", "records.jsonl"), "utf8"),
    );
    const final = renderOutcomeBlock(records, isoInstant(lastLearn));
    expect(countTokens(final)).toBe(Number(/block (\d+) tokens/.exec(learn.at(-1)!.message)![1]));
    expect(b.results.performance).toEqual(a.results.performance);
  }, 600_000);
});
