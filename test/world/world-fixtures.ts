import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StreamKind, StreamRows } from "../../src/world/world-builder.js";
import { WorldBuilder } from "../../src/world/world-builder.js";

export type WorldRows = { [K in StreamKind]: StreamRows[K][] };

export function emptyRows(): WorldRows {
  return {
    news: [],
    market: [],
    market_price: [],
    market_resolution: [],
    reddit_post: [],
    reddit_comment: [],
    reddit_reveal: [],
    candle: [],
    filing: [],
    xbrl_fact: [],
    company: [],
    question: [],
    question_resolution: [],
    broker_event: [],
    event: [],
  };
}

export function workDir(prefix = "relive-world-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function buildWorld(dir: string, rows: WorldRows, window = { start: 0, end: 1000 }): void {
  const b = WorldBuilder.create(dir, { name: "test", window, builder: "test", builder_version: "1" });
  try {
    for (const kind of Object.keys(rows) as StreamKind[]) {
      const list = rows[kind];
      if (list.length > 0) b.insert(kind, list as never);
    }
    b.finish();
  } catch (e) {
    b.abort();
    throw e;
  }
}

/** The rows of `rows` visible at `now`: the "truncated world" oracle of the leakage tests. */
export function truncate(rows: WorldRows, now: number): WorldRows {
  const out = emptyRows();
  for (const kind of Object.keys(rows) as StreamKind[]) {
    (out[kind] as { visible_at: number }[]) = (rows[kind] as { visible_at: number }[]).filter(
      (r) => r.visible_at <= now,
    );
  }
  return out;
}

/** A small seeded PRNG for fixtures. */
export function prng(seed: number): {
  next(): number;
  int(lo: number, hi: number): number;
  pick<T>(a: readonly T[]): T;
} {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  return { next, int, pick: <T>(arr: readonly T[]) => arr[Math.floor(next() * arr.length)] as T };
}

export const WORDS = ["alpha", "beta", "gamma", "delta", "rates", "bank", "oil", "storm", "the", "of", "and"] as const;

/**
 * A random world over the window [0, 1000] exercising every stream kind. `lagged` worlds have
 * news with visible_at != published_at (both directions), which takes the join path of search.
 */
export function randomWorld(seed: number, lagged: boolean): WorldRows {
  const r = prng(seed);
  const rows = emptyRows();
  const sentence = (n: number) => Array.from({ length: n }, () => r.pick(WORDS)).join(" ");
  const nNews = r.int(0, 25);
  for (let i = 0; i < nNews; i++) {
    const pub = r.int(0, 1000);
    const vis = lagged ? Math.max(0, pub + r.int(-20, 50)) : pub;
    rows.news.push({
      id: `n${i}`,
      url: `https://site${i % 3}.test/${i}`,
      domain: `site${i % 3}.test`,
      title: sentence(r.int(1, 4)),
      text: `${sentence(r.int(0, 12))}.`,
      published_at: pub,
      visible_at: vis,
    });
  }
  const nMarkets = r.int(0, 4);
  for (let i = 0; i < nMarkets; i++) {
    const open = r.int(0, 900);
    rows.market.push({
      id: `m${i}`,
      question: `Will ${sentence(2)} happen?`,
      description: sentence(5),
      outcomes: ["Yes", "No"],
      open,
      scheduled_end: open + r.int(50, 500),
      visible_at: open,
    });
  }
  const marketIds = ["m0", "m1", "m2", "m3", "mX"];
  for (let i = r.int(0, 30); i > 0; i--) {
    const t = r.int(0, 1000);
    rows.market_price.push({
      market: r.pick(marketIds),
      outcome: r.pick(["Yes", "No"]),
      t,
      p: Math.round(r.next() * 100) / 100,
      visible_at: t + r.int(0, 20),
    });
  }
  for (let i = r.int(0, 3); i > 0; i--) {
    const closed = r.int(0, 1000);
    rows.market_resolution.push({
      market: r.pick(marketIds),
      closed_at: closed,
      result: r.pick(["Yes", "No"]),
      visible_at: closed + r.int(0, 30),
    });
  }
  const nPosts = r.int(0, 10);
  for (let i = 0; i < nPosts; i++) {
    const created = r.int(0, 1000);
    rows.reddit_post.push({
      id: `p${i}`,
      subreddit: r.pick(["wsb", "stocks"]),
      author: `u${r.int(0, 5)}`,
      title: sentence(3),
      body: sentence(6),
      created_utc: created,
      visible_at: created,
    });
    if (r.next() < 0.6)
      rows.reddit_reveal.push({ post: `p${i}`, descendants_24h: r.int(0, 80), visible_at: created + 240 });
  }
  for (let i = r.int(0, 40); i > 0 && nPosts > 0; i--) {
    const post = rows.reddit_post[r.int(0, nPosts - 1)] as StreamRows["reddit_post"];
    const created = post.created_utc + r.int(0, 300);
    rows.reddit_comment.push({
      id: `c${i}`,
      root: post.id,
      parent: post.id,
      created_utc: created,
      author: `u${r.int(0, 5)}`,
      body: sentence(4),
      visible_at: created + r.int(0, 5),
    });
  }
  const seen = new Set<string>();
  for (let i = r.int(0, 40); i > 0; i--) {
    const venue = r.pick(["v1", "v2"]);
    const symbol = r.pick(["BTC", "ETH"]);
    const interval = r.pick([10, 60]);
    const open = interval * r.int(0, Math.floor(1000 / interval));
    const key = `${venue}/${symbol}/${interval}/${open}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const o = r.int(90, 110);
    rows.candle.push({
      venue,
      symbol,
      interval_ms: interval,
      open_time: open,
      o,
      h: o + 2,
      l: o - 2,
      c: o + 1,
      v: r.int(1, 9),
      visible_at: open + interval,
    });
  }
  for (let i = r.int(0, 3); i > 0; i--)
    rows.company.push({ cik: `c${i}`, ticker: `T${i}`, name: `Co ${i}`, visible_at: r.int(0, 1000) });
  for (let i = r.int(0, 6); i > 0; i--) {
    const acc = r.int(0, 1000);
    rows.filing.push({
      cik: `c${r.int(1, 3)}`,
      accession: `a${i}`,
      form: r.pick(["8-K", "10-Q"]),
      items: "",
      filed: "2025-01-01",
      accepted_at: acc,
      report_date: "2024-12-31",
      visible_at: acc,
    });
  }
  for (let i = r.int(0, 10); i > 0; i--) {
    rows.xbrl_fact.push({
      cik: `c${r.int(1, 3)}`,
      taxonomy: "us-gaap",
      concept: r.pick(["Revenues", "NetIncomeLoss"]),
      unit: "USD",
      start: null,
      end: "2024-12-31",
      val: r.int(1, 1000),
      accn: `a${r.int(1, 6)}`,
      fy: 2024,
      fp: "FY",
      form: "10-K",
      filed: "2025-01-01",
      visible_at: r.int(0, 1000),
    });
  }
  for (let i = r.int(0, 5); i > 0; i--) {
    const open = r.int(0, 1000);
    rows.question.push({
      id: `q${i}`,
      title: sentence(3),
      background: "",
      criteria: "",
      open,
      resolve: open + 100,
      answer_type: "binary",
      visible_at: open,
    });
  }
  for (let i = r.int(0, 8); i > 0; i--) {
    const t = r.int(0, 1000);
    rows.broker_event.push({
      id: `b${i}`,
      kind: r.pick(["order", "fill"]),
      t,
      payload: { qty: r.int(1, 9) },
      visible_at: t + r.int(0, 10),
    });
  }
  return rows;
}

/** Every table of the relive news index (news-index-build.ts) as comparable rows. */
export function newsIndexDump(db: import("better-sqlite3").Database): {
  postings: unknown[];
  doclen: unknown[];
  positions: unknown[];
  meta: unknown[];
} {
  return {
    postings: db
      .prepare("SELECT term, df, hex(seqs), hex(freqs), hex(blocks) FROM news_postings ORDER BY term")
      .raw()
      .all(),
    doclen: db.prepare("SELECT chunk, hex(lens) FROM news_doclen ORDER BY chunk").raw().all(),
    positions: db.prepare("SELECT term, hex(counts), hex(pos) FROM news_positions ORDER BY term").raw().all(),
    meta: db.prepare("SELECT key, value FROM world_meta WHERE key LIKE 'news_index%' ORDER BY key").raw().all(),
  };
}
