import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { BROKER_PARAMS } from "../../src/synth/broker.js";
import { CANDLE_SYMBOLS, CANDLE_VENUES } from "../../src/synth/candles.js";
import { assertDigestCandidates, digestCandidateCounts } from "../../src/synth/digest-check.js";
import { edgarFilingDate } from "../../src/synth/filings.js";
import { GENERATOR_VERSION, generateRows, HISTORY_MS, type SynthWorld } from "../../src/synth/generate.js";
import { BREAKOUT_MARKET_PREFIX } from "../../src/synth/markets.js";

const H = 3_600_000;
const D = 86_400_000;
const START = Date.parse("2026-03-01T00:00:00Z");
const END = Date.parse("2026-03-06T00:00:00Z"); // 5-day window

function streamDigests(x: SynthWorld): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(x)) {
    const h = createHash("sha256");
    for (const row of (Array.isArray(v) ? v : Object.values(v).flat()) as unknown[]) h.update(JSON.stringify(row));
    out[k] = h.digest("hex");
  }
  return out;
}

/** rows failing a predicate (first 3), so one expect covers a whole stream */
function bad<T>(rows: readonly T[], ok: (r: T) => boolean): T[] {
  const out: T[] = [];
  for (const r of rows) if (!ok(r) && out.push(r) >= 3) break;
  return out;
}

let w: SynthWorld;
beforeAll(() => {
  w = generateRows({ seed: 42, start: START, end: END });
});

describe("generateRows: determinism", () => {
  it("same seed and window give identical rows; another seed differs in every stream", () => {
    const base = streamDigests(w);
    expect(streamDigests(generateRows({ seed: 42, start: START, end: END }))).toEqual(base);
    const other = streamDigests(generateRows({ seed: 43, start: START, end: END }));
    for (const k of [
      "news",
      "market_price",
      "reddit_comment",
      "candle",
      "filing",
      "broker_event",
      "question",
      "truth",
    ]) {
      expect(other[k]).not.toBe(base[k]);
    }
  });

  it("has a version string and rejects an empty window", () => {
    expect(GENERATOR_VERSION).toMatch(/^v\d+$/);
    expect(() => generateRows({ seed: 1, start: END, end: START })).toThrow();
  });
});

describe("visible_at rules", () => {
  it("news, markets, prices, resolutions", () => {
    expect(
      bad(
        w.news,
        (n) =>
          n.visible_at === n.published_at && /^n[0-9a-f]{12}$/.test(n.id) && n.url.startsWith(`https://${n.domain}/`),
      ),
    ).toEqual([]);
    expect(new Set(w.news.map((n) => n.id)).size).toBe(w.news.length);
    expect(bad(w.market, (m) => m.visible_at === m.open)).toEqual([]);
    expect(bad(w.market_price, (p) => p.visible_at === p.t + 10 * 60_000 && p.p > 0 && p.p < 1)).toEqual([]);
    expect(bad(w.market_resolution, (r) => r.visible_at === r.closed_at)).toEqual([]);
    expect(w.market.filter((m) => m.id.startsWith(BREAKOUT_MARKET_PREFIX))).toHaveLength(8);
    expect(w.market).toHaveLength(28);
  });

  it("reddit posts, comments and reveals", () => {
    const created = new Map(w.reddit_post.map((p) => [p.id, p.created_utc]));
    expect(bad(w.reddit_post, (p) => p.visible_at === p.created_utc)).toEqual([]);
    const within = new Map<string, number>();
    const commentTime = new Map<string, { root: string; t: number }>();
    const treeOk = (c: SynthWorld["reddit_comment"][number]): boolean => {
      const pc = created.get(c.root);
      if (pc === undefined || c.visible_at !== c.created_utc || c.created_utc <= pc) return false;
      if (c.parent !== c.root) {
        const parent = commentTime.get(c.parent);
        if (!parent || parent.root !== c.root || parent.t >= c.created_utc) return false;
      }
      commentTime.set(c.id, { root: c.root, t: c.created_utc });
      if (c.created_utc <= pc + 24 * H) within.set(c.root, (within.get(c.root) ?? 0) + 1);
      return true;
    };
    expect(bad(w.reddit_comment, treeOk)).toEqual([]);
    expect(w.reddit_reveal).toHaveLength(w.reddit_post.length);
    expect(
      bad(
        w.reddit_reveal,
        (r) =>
          r.visible_at === (created.get(r.post) as number) + 24 * H && r.descendants_24h === (within.get(r.post) ?? 0),
      ),
    ).toEqual([]);
    expect(Math.min(...w.reddit_post.map((p) => p.created_utc))).toBeLessThan(START - HISTORY_MS + H);
  });

  it("filings, facts, companies, questions, broker events", () => {
    const acc = new Map(w.filing.map((f) => [f.accession, f]));
    for (const f of w.filing) expect(f.visible_at).toBe(f.accepted_at);
    for (const x of w.xbrl_fact) {
      const f = acc.get(x.accn);
      expect(f).toBeDefined();
      expect(x.visible_at).toBe(f?.accepted_at);
      expect(x.filed).toBe(f?.filed);
    }
    for (const c of w.company) expect(c.cik).toMatch(/^\d{10}$/);
    const answers = new Map(w.truth.question_answer.map((a) => [a.question, a]));
    expect(w.question.length).toBeGreaterThan(0);
    for (const q of w.question) {
      expect(q.visible_at).toBe(q.open);
      expect(q.open % D).toBe(0);
      expect(q.open).toBeGreaterThanOrEqual(START);
      expect(q.open).toBeLessThan(answers.get(q.id)?.resolved_at as number);
    }
    for (const e of w.broker_event) expect(e.visible_at).toBe(e.t);
  });
});

describe("candles", () => {
  it("are complete 5-minute series on 3 venues x 3 symbols, visible once completed", () => {
    const iv = 300_000;
    const from = START - HISTORY_MS;
    for (const venue of CANDLE_VENUES) {
      for (const sym of CANDLE_SYMBOLS) {
        const rows = w.candle.filter((c) => c.venue === venue && c.symbol === sym);
        expect(rows).toHaveLength((END - from) / iv);
        let i = 0;
        const ok = (c: (typeof rows)[number]) =>
          c.open_time === from + iv * i++ &&
          c.interval_ms === iv &&
          c.visible_at === c.open_time + iv &&
          c.h >= Math.max(c.o, c.c) &&
          c.l <= Math.min(c.o, c.c) &&
          c.v > 0;
        expect(bad(rows, ok)).toEqual([]);
      }
    }
    const btc = w.candle.filter((c) => c.symbol === "BTC-USD").map((c) => c.c);
    expect(Math.min(...btc)).toBeGreaterThan(50_000);
    expect(Math.max(...btc)).toBeLessThan(80_000);
  });

  it("venues agree within a few bps at the same close", () => {
    const at = START + 2 * D;
    const closes = CANDLE_VENUES.map(
      (v) => w.candle.find((c) => c.venue === v && c.symbol === "ETH-USD" && c.open_time === at)?.c as number,
    );
    const spread = (Math.max(...closes) / Math.min(...closes) - 1) * 1e4;
    expect(spread).toBeLessThan(30);
  });
});

describe("markets: breakpoints, catalysts, resolutions", () => {
  it("catalysts (confidence ≥ 0.6, published before t_start) precede their breakpoint by 0.5–12 h", () => {
    const bps = new Map(w.truth.breakpoint.map((b) => [b.id, b]));
    const pub = new Map(w.news.map((n) => [n.id, n.published_at]));
    let winnable = 0;
    const seen = new Set<string>();
    for (const a of w.truth.attribution) {
      const b = bps.get(a.breakpoint);
      expect(b).toBeDefined();
      const t = pub.get(a.news_id) as number;
      expect(t).toBeDefined();
      if (a.confidence >= 0.6 && t < (b?.t_start as number)) {
        const lead = (b?.t_start as number) - t;
        expect(lead).toBeGreaterThanOrEqual(0.5 * H - 1000);
        expect(lead).toBeLessThanOrEqual(12 * H);
        if (!seen.has(a.breakpoint)) winnable++;
        seen.add(a.breakpoint);
      }
    }
    expect(w.truth.breakpoint.length).toBeGreaterThanOrEqual(6);
    expect(winnable).toBeGreaterThanOrEqual(Math.ceil(w.truth.breakpoint.length / 2));
  });

  it("breakpoints are real jumps of the Yes price inside the window", () => {
    for (const b of w.truth.breakpoint) {
      expect(b.t_start).toBeGreaterThanOrEqual(START);
      expect(b.t_start).toBeLessThan(END);
      expect(b.t_end).toBeGreaterThanOrEqual(b.t_start);
      expect(Math.abs(b.size)).toBeGreaterThanOrEqual(0.05);
      const yes = w.market_price.filter((p) => p.market === b.market && p.outcome === "Yes");
      const before = [...yes].reverse().find((p) => p.t < b.t_start)?.p as number;
      const after = yes.find((p) => p.t === b.t_end)?.p as number;
      expect(after - before).toBeCloseTo(b.size, 3);
    }
  });

  it("t_det labels: the winner enters the 0.99 band at t_det and never leaves the 0.95 band", () => {
    const labels = w.truth.label.filter((l) => l.kind === "t_det");
    expect(labels.length).toBeGreaterThanOrEqual(3);
    const res = new Map(w.market_resolution.map((r) => [r.market, r]));
    for (const l of labels) {
      const outcome = (l.value as { outcome: string }).outcome;
      expect(res.get(l.key)?.result).toBe(outcome);
      const series = w.market_price.filter((p) => p.market === l.key && p.outcome === outcome);
      const at = series.find((p) => p.t === l.t);
      expect(at?.p).toBeGreaterThanOrEqual(0.99);
      for (const p of series) {
        if (p.t > (l.t as number)) expect(p.p).toBeGreaterThanOrEqual(0.95);
        if (p.t < (l.t as number))
          expect(p.p < 0.99 || series.some((q) => q.t > p.t && q.t < (l.t as number) && q.p < 0.95)).toBe(true);
      }
    }
  });
});

describe("filings", () => {
  it("gold values match the XBRL fact with the accession, the report date and a ~3/12-month duration", () => {
    const gold = w.truth.label.filter((l) => l.kind === "filing_gold" && (l.value as { form: string }).form !== "8-K");
    expect(gold.length).toBe(12);
    for (const g of gold) {
      const v = g.value as {
        accession: string;
        form: string;
        report_date: string;
        revenue: number;
        eps_diluted: number;
        revenue_concept: string;
      };
      const months = v.form === "10-K" ? 12 : 3;
      const facts = w.xbrl_fact.filter((x) => x.accn === v.accession && x.end === v.report_date);
      const dur = (x: { start: string | null; end: string }) =>
        (Date.parse(x.end) - Date.parse(x.start as string)) / (30.44 * D);
      const rev = facts.find((x) => x.concept === v.revenue_concept && Math.abs(dur(x) - months) < 0.6);
      const eps = facts.find((x) => x.concept === "EarningsPerShareDiluted" && Math.abs(dur(x) - months) < 0.6);
      expect(rev?.val).toBe(v.revenue);
      expect(eps?.val).toBe(v.eps_diluted);
      expect(eps?.unit).toBe("USD/shares");
    }
    expect(w.filing.filter((f) => f.form === "8-K").every((f) => f.items === "2.02")).toBe(true);
  });

  it("EDGAR filing date: after 17:30 ET moves to the next business day", () => {
    // accepted 2022-02-04 20:11:27 ET (a Friday) = 2022-02-05T01:11:27Z -> filed Monday 02-07
    expect(edgarFilingDate(Date.parse("2022-02-05T01:11:27Z"))).toBe("2022-02-07");
    expect(edgarFilingDate(Date.parse("2022-02-04T21:00:00Z"))).toBe("2022-02-04"); // 16:00 ET
  });
});

describe("broker events", () => {
  it("PM orders at 01/09/17 UTC alternate sides, 1% off the mark; fills follow their order", () => {
    const orders = w.broker_event.filter((e) => e.kind === "order");
    expect(orders.length).toBe(5 * 3 * 2);
    const bySym: Record<string, string[]> = {};
    for (const o of orders) {
      expect([1, 9, 17]).toContain((o.t % D) / H);
      const p = o.payload as { symbol: string; side: string; limit_price: number; mark: number; qty: number };
      bySym[p.symbol] = [...(bySym[p.symbol] ?? []), p.side];
      const off = p.side === "buy" ? 1 - p.limit_price / p.mark : p.limit_price / p.mark - 1;
      expect(off).toBeCloseTo(0.01, 3);
      expect(p.qty).toBe(BROKER_PARAMS.quantities[p.symbol]);
    }
    for (const sides of Object.values(bySym)) {
      expect(sides).toEqual(sides.map((_, i) => (i % 2 === 0 ? "buy" : "sell")));
    }
    const placed = new Map(orders.map((o) => [(o.payload as { order_id: string }).order_id, o.t]));
    for (const f of w.broker_event.filter((e) => e.kind === "fill")) {
      expect(f.t).toBeGreaterThan(placed.get((f.payload as { order_id: string }).order_id) as number);
    }
    for (const m of w.broker_event.filter((e) => e.kind === "margin_call")) {
      const p = m.payload as { ratio: number; maintenance: number; required_amount: number; deadline: number };
      expect(p.ratio).toBeLessThan(p.maintenance);
      expect(p.required_amount).toBeGreaterThan(0);
      expect(p.deadline).toBe(m.t + 4 * H);
    }
  });
});

describe("digest check", () => {
  it("every window day of the 5-day world has ≥ 10 candidates", () => {
    const counts = digestCandidateCounts(w, START, END);
    expect(counts).toHaveLength(5);
    for (const c of counts) expect(c.count).toBeGreaterThanOrEqual(10);
    expect(() => assertDigestCandidates(counts)).not.toThrow();
  });

  it("throws a clear error naming the short days", () => {
    const thin = { ...w, reddit_comment: w.reddit_comment.filter((c) => c.created_utc < START + 2 * D) };
    expect(() => assertDigestCandidates(digestCandidateCounts(thin, START, END))).toThrow(
      /daily-digest requirement.*2026-03-04 has 0/,
    );
  });
});

describe("holdings blotter", () => {
  it("holds all but the last company from history start, adds the last and drops the first inside the window", () => {
    const start = Date.parse("2026-03-01T00:00:00Z");
    const end = Date.parse("2026-03-29T00:00:00Z");
    const w = generateRows({ seed: 3, start, end });
    const blotter = w.broker_event.filter((e) => e.kind === "holding");
    expect(blotter.map((e) => (e.payload as { action: string }).action)).toEqual([
      "hold",
      "hold",
      "hold",
      "hold",
      "hold",
      "add",
      "drop",
    ]);
    const add = blotter[5]!;
    const drop = blotter[6]!;
    expect(new Date(add.t).toISOString()).toBe("2026-03-08T14:00:00.000Z");
    expect(new Date(drop.t).toISOString()).toBe("2026-03-22T14:00:00.000Z");
    expect((drop.payload as { ticker: string }).ticker).toBe((blotter[0]!.payload as { ticker: string }).ticker);
    for (const e of blotter) expect(e.visible_at).toBe(e.t);
    // the stream stays in time order
    for (let i = 1; i < w.broker_event.length; i++)
      expect(w.broker_event[i]!.t).toBeGreaterThanOrEqual(w.broker_event[i - 1]!.t);
  });
});
