/**
 * Prefix stability of the generator (README "Prefix stability") and opaque ids (README "Ids"): with
 * `future: {seed, from: T}` every row visible at or before T is byte-identical to the ordinary
 * world's (ids included), while the rows after T differ in the re-drawn streams; ids are hashes of
 * content, and a collision of two contents is an error, never a silent renumbering.
 */
import { describe, expect, it } from "vitest";
import { generateRows, type SynthWorld } from "../../src/synth/generate.js";
import { IdMinter } from "../../src/synth/ids.js";

const H = 3_600_000;
const START = Date.parse("2026-03-01T00:00:00Z");
const END = Date.parse("2026-03-04T00:00:00Z");
const CUT = START + 36 * H + 7 * 60_000 + 13_000;

type Row = { visible_at: number };
const rowsOf = (w: SynthWorld, k: keyof SynthWorld) => w[k] as unknown as Row[];
const part = (rows: Row[], before: boolean) =>
  JSON.stringify(rows.filter((r) => r.visible_at <= CUT === before).sort((a, b) => a.visible_at - b.visible_at));

describe("generateRows with a different future", () => {
  const a = generateRows({ seed: 7, start: START, end: END });
  const b = generateRows({ seed: 7, start: START, end: END, future: { seed: 8, from: CUT } });

  it("every row visible at or before T is the same; re-drawn streams differ after T", () => {
    for (const k of Object.keys(a) as (keyof SynthWorld)[]) {
      if (k === "truth") continue;
      expect(part(rowsOf(b, k), true), k).toBe(part(rowsOf(a, k), true));
    }
    for (const k of ["reddit_post", "reddit_comment", "news", "candle", "broker_event", "market_price"] as const)
      expect(part(rowsOf(b, k), false), k).not.toBe(part(rowsOf(a, k), false));
  });

  it("markets are re-drawn after T: prices, moves and their news; the past of every market is the same", () => {
    const visibleMoves = (w: SynthWorld) =>
      JSON.stringify(w.truth.breakpoint.filter((bp) => bp.t_end + 10 * 60_000 <= CUT));
    expect(visibleMoves(b)).toBe(visibleMoves(a));
    const laterMoves = (w: SynthWorld) => JSON.stringify(w.truth.breakpoint.filter((bp) => bp.t_start > CUT));
    expect(laterMoves(b)).not.toBe(laterMoves(a));
    for (const m of a.market) {
      const series = (w: SynthWorld, before: boolean) =>
        JSON.stringify(w.market_price.filter((p) => p.market === m.id && p.visible_at <= CUT === before));
      expect(series(b, true), m.id).toBe(series(a, true));
    }
    // every market's path differs somewhere after T (each step after the cut draws from the future)
    const differing = a.market.filter((m) => {
      const s = (w: SynthWorld) =>
        JSON.stringify(w.market_price.filter((p) => p.market === m.id && p.visible_at > CUT));
      return s(a) !== s(b);
    });
    expect(differing.length).toBeGreaterThanOrEqual(a.market.length - 2);
    // attributions of the re-drawn world name only its own articles
    const newsIds = new Set(b.news.map((n) => n.id));
    expect(b.truth.attribution.filter((x) => !newsIds.has(x.news_id))).toEqual([]);
  });

  it("a comment counter would not survive it: earlier posts' later comments differ", () => {
    const late = (w: SynthWorld) => w.reddit_comment.filter((c) => c.created_utc > CUT && c.root < "p~");
    const posted = new Set(a.reddit_post.filter((p) => p.created_utc <= CUT).map((p) => p.id));
    const tailA = late(a).filter((c) => posted.has(c.root)).length;
    const tailB = late(b).filter((c) => posted.has(c.root)).length;
    expect(tailA).toBeGreaterThan(100);
    expect(tailB).not.toBe(tailA);
  });

  it("refuses a future that is not different or not inside the span", () => {
    expect(() => generateRows({ seed: 7, start: START, end: END, future: { seed: 7, from: CUT } })).toThrow(
      /future.seed must differ/,
    );
    expect(() => generateRows({ seed: 7, start: START, end: END, future: { seed: 8, from: END } })).toThrow(
      /future.from must lie inside/,
    );
  });
});

describe("opaque ids", () => {
  const w = generateRows({ seed: 3, start: START, end: END });

  it("every agent-visible id is hash-shaped (no counters)", () => {
    const shapes: [string, string[], RegExp][] = [
      ["posts", w.reddit_post.map((r) => r.id), /^p[0-9a-f]{12}$/],
      ["comments", w.reddit_comment.map((r) => r.id), /^c[0-9a-f]{14}$/],
      ["news", w.news.map((r) => r.id), /^n[0-9a-f]{12}$/],
      ["markets", w.market.map((r) => r.id), /^(brk|ld)-[0-9a-f]{8}$/],
      ["questions", w.question.map((r) => r.id), /^q-[0-9a-f]{10}$/],
      ["accessions", w.filing.map((r) => r.accession), /^\d{10}-\d{2}-\d{6}$/],
      ["broker events", w.broker_event.map((r) => r.id), /^(be-[0-9a-f]{12}|bl-[0-9a-f]{8})$/],
    ];
    for (const [what, ids, re] of shapes) {
      expect(ids.length, what).toBeGreaterThan(0);
      expect(
        ids.filter((id) => !re.test(id)),
        what,
      ).toEqual([]);
      expect(new Set(ids).size, what).toBe(ids.length);
    }
  });

  it("the same content gives the same id; another seed another id; a collision throws", () => {
    const m = new IdMinter(1);
    expect(m.hex("k", ["x", 1], 8)).toBe(m.hex("k", ["x", 1], 8));
    expect(new IdMinter(2).hex("k", ["x", 1], 8)).not.toBe(m.hex("k", ["x", 1], 8));
    // one hex digit: 17 different contents must collide somewhere
    const tiny = new IdMinter(1);
    expect(() => {
      for (let i = 0; i < 17; i++) tiny.hex("k", [i], 1);
    }).toThrow(/synth id collision for k/);
  });
});
