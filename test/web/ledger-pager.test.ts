import { appendFileSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readLedgerPage } from "../../src/web/ledger-pager.js";
import { LineIndexCache, lineAtTime, offsetOfLine } from "../../src/web/line-index.js";
import { ITEMS_CAP, TimelineCache } from "../../src/web/timeline.js";
import { type BigRun, writeBigRun } from "./big-run.js";

interface Ev {
  seq: number;
  type: string;
  t: number;
  actor?: string;
}

/** The whole ledger parsed (fine for these small fixtures; the dashboard never does this). */
function bruteForce(path: string): { events: Ev[]; offsets: number[] } {
  const buf = readFileSync(path);
  const events: Ev[] = [];
  const offsets: number[] = [];
  let s = 0;
  for (let i = 0; i < buf.length; i++)
    if (buf[i] === 10) {
      offsets.push(s);
      events.push(JSON.parse(buf.toString("utf8", s, i)));
      s = i + 1;
    }
  return { events, offsets };
}

const seqs = (rows: { seq: number }[]) => rows.map((r) => r.seq);
const range = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i);

let big: BigRun;
let path: string;
let ref: { events: Ev[]; offsets: number[] };

const parent = mkdtempSync(join(tmpdir(), "relive-web-pager-"));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

beforeAll(() => {
  big = writeBigRun(parent, { events: 25_000, days: 3 });
  path = join(big.runDir, "ledger.jsonl");
  ref = bruteForce(path);
});

describe("sparse line index", () => {
  it("indexes every 1,000th line and finds any line's offset", async () => {
    const cache = new LineIndexCache({ timed: true });
    await cache.with(path, async (index, fh) => {
      expect(index.lines).toBe(25_000);
      expect(index.offsets).toHaveLength(25);
      expect(index.offsets).toEqual(range(0, 25).map((k) => ref.offsets[k * 1000]));
      expect(index.times).toEqual(range(0, 25).map((k) => big.timeAt(k * 1000)));
      for (const line of [0, 1, 999, 1000, 1001, 12_345, 24_999])
        expect(await offsetOfLine(index, fh, line)).toBe(ref.offsets[line]);
      await expect(offsetOfLine(index, fh, 25_001)).rejects.toThrow(/outside 0..25000/);
    });
  });

  it("jumps to the first line at or after a simulated time", async () => {
    const cache = new LineIndexCache({ timed: true });
    const firstAtOrAfter = (at: number) => {
      const i = ref.events.findIndex((e) => e.t >= at);
      return i === -1 ? ref.events.length : i;
    };
    await cache.with(path, async (index, fh) => {
      const probes = [
        big.simStart - 1,
        big.simStart,
        big.simStart + 1,
        big.simStart + 36 * 3_600_000 + 17,
        ref.events[7_000]!.t,
        ref.events[7_000]!.t + 1,
        big.simEnd - 1,
        big.simEnd,
        big.simEnd + 1,
      ];
      for (const at of probes) expect(await lineAtTime(index, fh, at)).toBe(firstAtOrAfter(at));
    });
  });
});

describe("ledger pages", () => {
  const indexes = new LineIndexCache({ timed: true });

  it("pages exactly: first, next, middle, previous, last", async () => {
    const first = await readLedgerPage(indexes, path, { limit: 100 });
    expect(first.total).toBe(25_000);
    expect(seqs(first.rows)).toEqual(range(0, 100));
    expect(first.rows[0]!.type).toBe("run_start");
    expect(first.rows.every((r) => r.error === null)).toBe(true);
    expect([first.prev, first.next]).toEqual([null, 100]);

    const next = await readLedgerPage(indexes, path, { cursor: first.next!, limit: 100 });
    expect(seqs(next.rows)).toEqual(range(100, 200));
    expect([next.prev, next.next]).toEqual([100, 200]);

    const mid = await readLedgerPage(indexes, path, { cursor: 12_345, limit: 7 });
    expect(mid.rows.map((r) => r.event)).toEqual(ref.events.slice(12_345, 12_352));

    const prev = await readLedgerPage(indexes, path, { before: 150, limit: 100 });
    expect(seqs(prev.rows)).toEqual(range(50, 150));
    expect([prev.prev, prev.next]).toEqual([50, 150]);

    const last = await readLedgerPage(indexes, path, { before: 25_000, limit: 100 });
    expect(seqs(last.rows)).toEqual(range(24_900, 25_000));
    expect(last.rows.at(-1)!.type).toBe("run_end");
    expect([last.prev, last.next]).toEqual([24_900, null]);

    const tail = await readLedgerPage(indexes, path, { cursor: 24_990, limit: 100 });
    expect(seqs(tail.rows)).toEqual(range(24_990, 25_000));
    expect(tail.next).toBeNull();
    const beyond = await readLedgerPage(indexes, path, { cursor: 99_999, limit: 10 });
    expect([beyond.rows.length, beyond.prev, beyond.next]).toEqual([0, 25_000, null]);
  });

  it("filters by type and actor page by page, forward and backward, with cursors", async () => {
    const outcomes = ref.events.filter((e) => e.type === "outcome").map((e) => e.seq);
    expect(outcomes.length).toBe(big.counts.outcome);
    const walked: number[] = [];
    let cursor: number | null = 0;
    while (cursor !== null) {
      const p = await readLedgerPage(indexes, path, { cursor, limit: 20, types: ["outcome"] });
      expect(p.rows.every((r) => r.type === "outcome")).toBe(true);
      walked.push(...seqs(p.rows));
      cursor = p.next;
    }
    expect(walked).toEqual(outcomes);

    const back: number[] = [];
    let before: number | null = 25_000;
    while (before !== null) {
      const p = await readLedgerPage(indexes, path, { before, limit: 20, types: ["outcome"] });
      back.unshift(...seqs(p.rows));
      before = p.prev;
    }
    expect(back).toEqual(outcomes);

    const two = await readLedgerPage(indexes, path, { cursor: 5_000, limit: 15, types: ["commitment", "daily_brief"] });
    expect(seqs(two.rows)).toEqual(
      ref.events
        .filter((e) => e.seq >= 5_000 && (e.type === "commitment" || e.type === "daily_brief"))
        .slice(0, 15)
        .map((e) => e.seq),
    );
    expect(two.next).toBe(two.rows.at(-1)!.seq + 1);

    const agentWakes = await readLedgerPage(indexes, path, { cursor: 0, limit: 5, types: ["wake"], actor: "agent" });
    expect(seqs(agentWakes.rows)).toEqual(
      ref.events
        .filter((e) => e.type === "wake")
        .slice(0, 5)
        .map((e) => e.seq),
    );
    const nobody = await readLedgerPage(indexes, path, { cursor: 0, limit: 5, actor: "nobody" });
    expect([nobody.rows.length, nobody.next, nobody.partial]).toEqual([0, null, false]);
  });

  it("serves pages near the start before the index exists, then indexes in the background", async () => {
    const fresh = new LineIndexCache({ timed: true });
    const first = await readLedgerPage(fresh, path, { limit: 50 });
    expect(first.indexed).toBe(false);
    expect([first.total, first.prev, first.next]).toEqual([25_000, null, 50]);
    expect(seqs(first.rows)).toEqual(range(0, 50));
    expect(fresh.has(path)).toBe(true);
    const other = new LineIndexCache({ timed: true });
    const filtered = await readLedgerPage(other, path, { cursor: 3_000, limit: 4, types: ["daily_brief", "run_end"] });
    expect(filtered.indexed).toBe(false);
    expect(seqs(filtered.rows)).toEqual(
      ref.events.filter((e) => e.seq >= 3_000 && (e.type === "daily_brief" || e.type === "run_end")).map((e) => e.seq),
    );
    expect(filtered.next).toBeNull();
    const again = await readLedgerPage(fresh, path, { cursor: 50, limit: 50 });
    expect(again.indexed).toBe(true);
    expect(seqs(again.rows)).toEqual(range(50, 100));
    const deep = await readLedgerPage(new LineIndexCache({ timed: true }), path, { cursor: 20_000, limit: 2 });
    expect([deep.indexed, ...seqs(deep.rows)]).toEqual([true, 20_000, 20_001]);
  });

  it("stops a sparse filter at its scan budget and continues from the cursor it returns", async () => {
    const p1 = await readLedgerPage(indexes, path, { cursor: 0, limit: 5, types: ["run_end"] }, 900_000);
    expect(p1.partial).toBe(true);
    expect(p1.rows).toEqual([]);
    expect(p1.next).toBe(p1.scanned[1]);
    let cursor = p1.next;
    let found: number[] = [];
    for (let i = 0; i < 100 && cursor !== null && found.length === 0; i++) {
      const p = await readLedgerPage(indexes, path, { cursor, limit: 5, types: ["run_end"] }, 900_000);
      found = seqs(p.rows);
      cursor = p.next;
    }
    expect(found).toEqual([24_999]);
  });

  it("starts a page at a simulated time, with or without a filter", async () => {
    const at = big.simStart + 30 * 3_600_000;
    const first = ref.events.findIndex((e) => e.t >= at);
    const p = await readLedgerPage(indexes, path, { at, limit: 3 });
    expect(p.at_line).toBe(first);
    expect(seqs(p.rows)).toEqual([first, first + 1, first + 2]);
    const f = await readLedgerPage(indexes, path, { at, limit: 2, types: ["outcome"] });
    expect(seqs(f.rows)).toEqual(
      ref.events
        .filter((e) => e.seq >= first && e.type === "outcome")
        .slice(0, 2)
        .map((e) => e.seq),
    );
  });

  it("the page before line 0 is empty, with or without a filter", async () => {
    for (const types of [[], ["outcome"]]) {
      const p = await readLedgerPage(indexes, path, { before: 0, limit: 1, types } as Parameters<
        typeof readLedgerPage
      >[2]);
      expect(p.rows).toEqual([]);
      expect(p.prev).toBeNull();
    }
  });

  it("matches a whole-file read for random pages and filters (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 25_100 }),
        fc.integer({ min: 1, max: 300 }),
        fc.boolean(),
        fc.subarray(["wake", "commitment", "outcome", "daily_brief", "note"], { minLength: 0, maxLength: 3 }),
        async (pos, limit, backward, types) => {
          const req = backward ? { before: pos, limit, types } : { cursor: pos, limit, types };
          const p = await readLedgerPage(indexes, path, req as Parameters<typeof readLedgerPage>[2]);
          const match = (e: Ev) => types.length === 0 || types.includes(e.type);
          const pool = ref.events.filter(match);
          const want = backward
            ? pool.filter((e) => e.seq < pos).slice(-limit)
            : pool.filter((e) => e.seq >= pos).slice(0, limit);
          expect(seqs(p.rows)).toEqual(want.map((e) => e.seq));
          expect(p.rows.map((r) => r.event)).toEqual(want);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("a growing, torn or replaced ledger", () => {
  it("ignores a torn last line, extends the index when lines are appended and rebuilds a replaced file", async () => {
    const dir = mkdtempSync(join(parent, "torn-"));
    const run = writeBigRun(dir, { events: 2_500, days: 1, torn: true });
    const p = join(run.runDir, "ledger.jsonl");
    const indexes = new LineIndexCache({ timed: true });
    const last = await readLedgerPage(indexes, p, { before: Number.MAX_SAFE_INTEGER, limit: 3 });
    expect(last.total).toBe(2_500);
    expect(seqs(last.rows)).toEqual([2_497, 2_498, 2_499]);
    expect(last.rows.at(-1)!.type).toBe("run_end");

    // the torn line is completed, and one more appended: both become visible
    appendFileSync(
      p,
      `ent","reason":"sleep"}\n{"seq":2501,"type":"note","t":${run.simEnd},"kind":"x","message":"y"}\n`,
    );
    const grown = await readLedgerPage(indexes, p, { cursor: 2_499, limit: 10 });
    expect(grown.total).toBe(2_502);
    expect(grown.rows.map((r) => [r.seq, r.type, r.error])).toEqual([
      [2_499, "run_end", null],
      [2_500, "wake", null],
      [2_501, "note", null],
    ]);
    const agent = await readLedgerPage(indexes, p, { before: 2_502, limit: 1, types: ["wake"], actor: "agent" });
    expect(seqs(agent.rows)).toEqual([2_500]);

    // a file put in its place (another inode) is indexed again from scratch
    const other = join(dir, "other.jsonl");
    writeFileSync(other, `${readFileSync(p, "utf8").split("\n").slice(0, 10).join("\n")}\nnot json\n`);
    renameSync(other, p);
    const replaced = await readLedgerPage(indexes, p, { cursor: 8, limit: 10 });
    expect(replaced.total).toBe(11);
    expect(replaced.rows.map((r) => [r.seq, r.error])).toEqual([
      [8, null],
      [9, null],
      [10, "not valid JSON"],
    ]);
    const typed = await readLedgerPage(indexes, p, { cursor: 0, limit: 100, types: ["wake"] });
    expect(typed.rows.every((r) => r.type === "wake")).toBe(true);
  });

  it("flags a line whose seq is out of order or that is not a ledger event", async () => {
    const dir = mkdtempSync(join(parent, "bad-"));
    const p = join(dir, "ledger.jsonl");
    writeFileSync(
      p,
      [
        '{"seq":0,"type":"wake","t":1,"actor":"a","reason":"start"}',
        '{"seq":5,"type":"wake","t":2,"actor":"a","reason":"start"}',
        '{"seq":2,"type":"wake","t":3,"actor":"a","reason":"bogus"}',
        "",
      ].join("\n"),
    );
    const page = await readLedgerPage(new LineIndexCache({ timed: true }), p, { limit: 10 });
    expect(page.rows.map((r) => r.error)).toEqual([
      null,
      "seq 5 out of order (line 1)",
      expect.stringMatching(/^reason: /),
    ]);
  });
});

describe("timeline", () => {
  it("counts, spend and marks from one streaming pass; lanes over the cap are downsampled to bins", async () => {
    const tl = await new TimelineCache().get(path);
    expect(tl.events).toBe(25_000);
    expect(tl.counts).toEqual(big.counts);
    expect([tl.sim_start, tl.sim_end]).toEqual([big.simStart, big.simEnd]);
    expect(tl.bin_ms).toBe(5 * 60_000); // 3 days in ≤ 1,000 bins: 864 of 5 minutes
    expect(tl.bins).toHaveLength(864);
    expect(tl.spend.total_usd).toBeCloseTo(big.spentUsd, 9);
    expect(tl.bins.at(-1)!.spend_usd).toBeCloseTo(big.spentUsd, 9);
    expect(tl.bins.reduce((a, b) => a + b.wakes, 0)).toBe(big.counts.wake);
    expect(big.counts.wake).toBeGreaterThan(ITEMS_CAP);
    expect(tl.wakes.items).toBeNull();
    expect(tl.wakes.by_reason).toEqual({
      trigger: ref.events.filter((e) => e.type === "wake" && (e as { reason?: string }).reason === "trigger").length,
      sleep: ref.events.filter((e) => e.type === "wake" && (e as { reason?: string }).reason === "sleep").length,
    });
    expect(tl.commitments.items?.map((c) => c.seq)).toEqual(
      ref.events.filter((e) => e.type === "commitment").map((e) => e.seq),
    );
    const outs = ref.events.filter((e) => e.type === "outcome") as (Ev & { credit: number; status: string })[];
    expect(tl.outcomes.items?.map((o) => [o.seq, o.status, o.credit])).toEqual(
      outs.map((o) => [o.seq, o.status, o.credit]),
    );
    expect(tl.outcomes.credit_sum).toBeCloseTo(
      outs.reduce((a, o) => a + o.credit, 0),
      9,
    );
    expect(tl.briefs.map((b) => b.day)).toEqual([1, 2, 3]);
  });

  it("extends a cached timeline when the ledger grows", async () => {
    const dir = mkdtempSync(join(parent, "grow-"));
    const run = writeBigRun(dir, { events: 3_000, days: 1 });
    const p = join(run.runDir, "ledger.jsonl");
    const cache = new TimelineCache();
    const before = await cache.get(p);
    const fh = await open(p, "a");
    await fh.write(
      `{"seq":3000,"type":"outcome","t":${run.simEnd},"key":"k","status":"late","credit":null,"detail":{}}\n`,
    );
    await fh.close();
    const after = await cache.get(p);
    expect(after.events).toBe(before.events + 1);
    expect(after.outcomes.count).toBe(before.outcomes.count + 1);
    expect(after.outcomes.by_status.late).toBe(1);
    expect(after.outcomes.items?.at(-1)).toEqual({ seq: 3000, t: run.simEnd, key: "k", status: "late", credit: null });
  });
});
