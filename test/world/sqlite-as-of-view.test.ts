import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NotVisibleError } from "../../src/world/as-of-view.js";
import { SearchQueryError } from "../../src/world/search-query.js";
import type { NewsRow } from "../../src/world/types.js";
import { WorldStore } from "../../src/world/world-store.js";
import { buildWorld, emptyRows, workDir } from "./world-fixtures.js";

const work = workDir();
let store: WorldStore;
let lagged: WorldStore;
let now = 0;

function news(id: string, t: number, title: string, text: string, vis = t): NewsRow {
  return { id, url: `https://x.test/${id}`, domain: "x.test", title, text, published_at: t, visible_at: vis };
}

beforeAll(() => {
  const rows = emptyRows();
  rows.news = [
    news("n1", 100, "Bank of England raises rates", "The Bank of England raised interest rates by a quarter point."),
    news("n2", 200, "England cricket bank holiday", "Crowds enjoyed the bank holiday as England played."),
    news("n3", 300, "Oil prices jump", "Oil prices jumped after the storm hit the gulf."),
    news("n4", 900, "Bank of England cuts rates", "Future article about rates."),
  ];
  // 30 matching "storm" articles, 25 of them in the future at now = 500
  for (let i = 0; i < 30; i++)
    rows.news.push(news(`s${i}`, i < 5 ? 400 + i : 600 + i, `Storm report ${i}`, "storm storm"));
  rows.reddit_post = [
    { id: "p1", subreddit: "wsb", author: "a", title: "t1", body: "b", created_utc: 100, visible_at: 100 },
    { id: "p2", subreddit: "wsb", author: "a", title: "t2", body: "b", created_utc: 200, visible_at: 200 },
    { id: "p3", subreddit: "stocks", author: "a", title: "t3", body: "b", created_utc: 300, visible_at: 300 },
    { id: "p4", subreddit: "wsb", author: "a", title: "t4", body: "b", created_utc: 700, visible_at: 700 },
  ];
  const comment = (id: string, root: string, t: number) => ({
    id,
    root,
    parent: root,
    created_utc: t,
    author: "c",
    body: "x",
    visible_at: t,
  });
  rows.reddit_comment = [
    comment("c1", "p1", 150),
    comment("c2", "p1", 160),
    comment("c3", "p2", 250),
    comment("c4", "p2", 600),
    comment("c5", "p2", 650),
    comment("c6", "p2", 660),
  ];
  rows.reddit_reveal = [
    { post: "p1", descendants_24h: 2, visible_at: 340 },
    { post: "p2", descendants_24h: 4, visible_at: 440 },
    { post: "p3", descendants_24h: 0, visible_at: 540 },
  ];
  const candle = (open: number, venue = "kraken", symbol = "BTC") => ({
    venue,
    symbol,
    interval_ms: 100,
    open_time: open,
    o: 1,
    h: 2,
    l: 0.5,
    c: 1.5,
    v: 3,
    visible_at: open + 100,
  });
  rows.candle = [candle(200), candle(300), candle(400), candle(500), candle(900, "kraken", "ETH"), candle(100, "okx")];
  rows.market = [
    { id: "m1", question: "Q?", description: "", outcomes: ["Yes", "No"], open: 0, scheduled_end: 1000, visible_at: 0 },
  ];
  rows.market_price = [
    { market: "m1", outcome: "Yes", t: 100, p: 0.4, visible_at: 100 },
    { market: "m1", outcome: "Yes", t: 400, p: 0.6, visible_at: 450 },
    { market: "m1", outcome: "No", t: 100, p: 0.6, visible_at: 100 },
    { market: "m1", outcome: "Yes", t: 480, p: 0.9, visible_at: 520 },
  ];
  buildWorld(join(work, "w"), rows);
  store = WorldStore.open(join(work, "w"));
  const lag = emptyRows();
  lag.news = [
    news("l1", 100, "rates", "rates", 150),
    news("l2", 200, "rates", "rates", 190),
    news("l3", 300, "rates", "rates", 600),
  ];
  buildWorld(join(work, "lag"), lag);
  lagged = WorldStore.open(join(work, "lag"));
});

afterAll(() => {
  store.close();
  lagged.close();
  rmSync(work, { recursive: true, force: true });
});

const v = () => store.at(() => now);
const ids = (r: { hits: { id: string }[] }) => r.hits.map((h) => h.id);

describe("news", () => {
  it("search: bm25 over the visible past, to clamped to now", () => {
    now = 500;
    const r = v().news.search("rates");
    expect(ids(r)).toEqual(["n1"]);
    expect(r.capped_to).toBe(500);
    expect(v().news.search("rates", { to: 5000 }).capped_to).toBe(500);
    expect(v().news.search("bank", { to: 150 }).capped_to).toBe(150);
    expect(ids(v().news.search("bank", { to: 150 }))).toEqual(["n1"]);
    expect(new Set(ids(v().news.search("bank")))).toEqual(new Set(["n1", "n2"]));
    expect(ids(v().news.search("bank", { from: 150 }))).toEqual(["n2"]);
    now = 1000;
    expect(new Set(ids(v().news.search("rates")))).toEqual(new Set(["n1", "n4"]));
  });

  it("search: phrases (stopwords removed on both sides), AND, OR, NOT", () => {
    now = 500;
    expect(ids(v().news.search('"bank of england"'))).toEqual(["n1"]);
    expect(ids(v().news.search("bank AND holiday"))).toEqual(["n2"]);
    expect(ids(v().news.search("bank holiday"))).toEqual(["n2"]);
    expect(new Set(ids(v().news.search("holiday OR oil")))).toEqual(new Set(["n2", "n3"]));
    expect(ids(v().news.search("bank NOT holiday"))).toEqual(["n1"]);
    expect(ids(v().news.search("(oil OR cricket) AND prices"))).toEqual(["n3"]);
    // porter stemming: "jumping" matches "jumped"/"jump"
    expect(ids(v().news.search("jumping"))).toEqual(["n3"]);
  });

  it("search: malformed queries are retried as an OR of their terms, then rejected clearly", () => {
    now = 500;
    expect(new Set(ids(v().news.search('holiday AND ("oil')))).toEqual(new Set(["n2", "n3"]));
    expect(new Set(ids(v().news.search("oil AND")))).toEqual(new Set(["n3"]));
    expect(new Set(ids(v().news.search("oil* ^")))).toEqual(new Set(["n3"]));
    expect(() => v().news.search("the of AND")).toThrow(SearchQueryError);
    expect(() => v().news.search('"(" OR')).toThrow(
      'search query "\\"(\\" OR" has no searchable terms (English stopwords and search syntax are ignored)',
    );
    expect(() => v().news.search("  ")).toThrow("empty search query: give one or more words");
  });

  it("search: k results whenever k visible matches exist, though most matches are in the future", () => {
    now = 500;
    const r = v().news.search("storm", { limit: 5 });
    expect(r.hits).toHaveLength(5);
    expect(new Set(ids(r))).toEqual(new Set(["s0", "s1", "s2", "s3", "s4"]));
    expect(v().news.search("storm", { limit: 10 }).hits).toHaveLength(6); // + n3
    expect(v().news.search("storm", { limit: 4, offset: 4 }).hits).toHaveLength(2);
    now = 700;
    expect(v().news.search("storm", { limit: 10 }).hits).toHaveLength(10);
  });

  it("search: snippets come from the article text around the first hit", () => {
    now = 500;
    const [hit] = v().news.search("gulf").hits;
    expect(hit?.snippet).toBe("Oil prices jumped after the storm hit the gulf.");
  });

  it("search: remembered snippets and the one-statement hit read answer as a fresh world does", () => {
    const dir = join(work, "snippets");
    const rows = emptyRows();
    const filler = (w: string, n: number) => Array.from({ length: n }, (_, i) => `${w}${i}`).join(" ");
    rows.news = [
      news("a1", 100, "First report", `alpha ${filler("x", 40)} omega ${filler("y", 40)}`),
      news("a2", 200, "Second report", `${filler("z", 40)} alpha omega`),
      news("a3", 600, "Later report", "alpha omega late"),
    ];
    buildWorld(dir, rows);
    const memo = WorldStore.open(dir);
    try {
      const fresh = (t: number, q: string) => {
        const s = WorldStore.open(dir);
        try {
          return s.at(() => t).news.search(q);
        } finally {
          s.close();
        }
      };
      // the same articles under other terms, again, and at other times: a3 is remembered at 700 first
      const asked: [number, string][] = [
        [700, "alpha"],
        [700, "omega"],
        [300, "alpha"],
        [300, "omega"],
        [300, "alpha OR omega"],
        [700, "alpha"],
        [150, "omega"],
      ];
      for (const [t, q] of asked) expect(memo.at(() => t).news.search(q)).toEqual(fresh(t, q));
      const [first] = memo
        .at(() => 300)
        .news.search("omega")
        .hits.filter((h) => h.id === "a1");
      expect(first?.snippet.startsWith("… ")).toBe(true); // placed around "omega", not at the start
      expect(ids(memo.at(() => 300).news.search("late"))).toEqual([]); // a3 is remembered, not visible
    } finally {
      memo.close();
    }
  });

  it("search: a full snippet memo never drops a remembered hit (remembered ones are refreshed before new ones evict)", () => {
    const dir = join(work, "snippets-full");
    const rows = emptyRows();
    rows.news = Array.from({ length: 200 }, (_, i) =>
      news(`w${i}`, 10 + i, `Report ${i}`, `w ${"pad ".repeat(i % 7)}`),
    );
    buildWorld(dir, rows);
    const memo = WorldStore.open(dir);
    try {
      const v = memo.at(() => 1000);
      // ranks 6-10 of one query remembered first, then the memo (20,000 snippets) filled exactly,
      // so that those five are the oldest when the same query asks for ranks 1-10
      expect(v.news.search("w OR q0", { offset: 5, limit: 5 }).hits).toHaveLength(5);
      for (let i = 1; i <= 199; i++) expect(v.news.search(`w OR q${i}`, { limit: 100 }).hits).toHaveLength(100);
      expect(v.news.search("w OR q200", { limit: 95 }).hits).toHaveLength(95);
      const fresh = WorldStore.open(dir);
      try {
        const want = fresh.at(() => 1000).news.search("w OR q0", { limit: 10 });
        expect(want.hits).toHaveLength(10);
        expect(v.news.search("w OR q0", { limit: 10 })).toEqual(want);
      } finally {
        fresh.close();
      }
    } finally {
      memo.close();
    }
  });

  it("search: the lagged (join) path bounds by published_at and visible_at", () => {
    const lv = (t: number) => lagged.at(() => t);
    expect(ids(lv(160).news.search("rates"))).toEqual(["l1"]);
    expect(new Set(ids(lv(200).news.search("rates")))).toEqual(new Set(["l1", "l2"]));
    expect(ids(lv(400).news.search("rates", { from: 150 }))).toEqual(["l2"]);
    expect(ids(lv(400).news.search("rates", { to: 150 }))).toEqual(["l1"]);
    expect(ids(lv(700).news.search("rates", { from: 250 }))).toEqual(["l3"]);
  });

  it("get/count: unknown and future ids give byte-identical errors", () => {
    now = 500;
    expect(v().news.get("n1").title).toBe("Bank of England raises rates");
    const msg = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(NotVisibleError);
        return (e as Error).message;
      }
      throw new Error("no error");
    };
    // a future id gets exactly the message of an id that does not exist at all
    expect(msg(() => v().news.get("n4"))).toBe(new NotVisibleError("news", "n4").message);
    expect(msg(() => v().news.get("nope"))).toBe(new NotVisibleError("news", "nope").message);
    expect(msg(() => v().news.get("n4"))).toBe('unknown news id: "n4"');
    expect(v().news.count()).toBe(8);
    expect(v().news.count({ from: 150, to: 350 })).toBe(2);
  });

  it("reads now() on every call", () => {
    const view = v();
    now = 150;
    expect(view.news.count()).toBe(1);
    now = 250;
    expect(view.news.count()).toBe(2);
  });
});

describe("reddit", () => {
  it("listPosts recomputes num_comments from the visible prefix and sorts by it", () => {
    now = 620;
    const r = v().reddit.listPosts({ sort: "comments" });
    expect(r.total).toBe(3);
    // p1 and p2 tie with 2 visible comments (p2 has 2 more in the future): created_utc desc breaks the tie
    expect(r.posts.map((p) => [p.id, p.num_comments])).toEqual([
      ["p2", 2],
      ["p1", 2],
      ["p3", 0],
    ]);
    now = 700;
    const r2 = v().reddit.listPosts({ sort: "comments" });
    expect(r2.posts.map((p) => [p.id, p.num_comments])).toEqual([
      ["p2", 4],
      ["p1", 2],
      ["p4", 0],
      ["p3", 0],
    ]);
    expect(v().reddit.listPosts({ sort: "new", order: "asc", limit: 2, offset: 1 })).toMatchObject({
      total: 4,
      posts: [{ id: "p2" }, { id: "p3" }],
    });
    expect(
      v()
        .reddit.listPosts({ subreddit: "wsb", since: 150 })
        .posts.map((p) => p.id),
    ).toEqual(["p4", "p2"]);
  });

  it("getPost, cascade, revealed respect visibility", () => {
    now = 620;
    expect(v().reddit.getPost("p2").num_comments).toBe(2);
    expect(v().reddit.cascade("p2")).toMatchObject({ total: 2, comments: [{ id: "c3" }, { id: "c4" }] });
    expect(
      v()
        .reddit.cascade("p2", { offset: 1, limit: 1 })
        .comments.map((c) => c.id),
    ).toEqual(["c4"]);
    expect(v().reddit.revealed("p1")).toBe(2);
    expect(v().reddit.revealed("p3")).toBe(0);
    now = 500;
    expect(v().reddit.revealed("p3")).toBeNull();
    expect(() => v().reddit.getPost("p4")).toThrow('unknown reddit_post id: "p4"');
    expect(() => v().reddit.cascade("p4")).toThrow('unknown reddit_post id: "p4"');
    expect(() => v().reddit.revealed("zz")).toThrow('unknown reddit_post id: "zz"');
  });
});

describe("exchanges and markets", () => {
  it("candles are returned only once completed", () => {
    now = 500;
    expect(
      v()
        .exchanges.candles("kraken", "BTC", 0, 1000)
        .map((c) => c.open_time),
    ).toEqual([200, 300, 400]);
    now = 599;
    expect(
      v()
        .exchanges.candles("kraken", "BTC", 0, 1000)
        .map((c) => c.open_time),
    ).toEqual([200, 300, 400]);
    now = 600;
    expect(
      v()
        .exchanges.candles("kraken", "BTC", 250, 1000)
        .map((c) => c.open_time),
    ).toEqual([300, 400, 500]);
    expect(v().exchanges.venues()).toEqual(["kraken", "okx"]);
    expect(v().exchanges.symbols("kraken")).toEqual(["BTC"]);
    now = 1000;
    expect(v().exchanges.symbols("kraken")).toEqual(["BTC", "ETH"]);
  });

  it("prices and lastPrice use only visible points", () => {
    now = 500;
    expect(
      v()
        .markets.prices("m1", 0, 1000)
        .map((p) => [p.outcome, p.t]),
    ).toEqual([
      ["No", 100],
      ["Yes", 100],
      ["Yes", 400],
    ]);
    expect(
      v()
        .markets.lastPrice("m1", 1000)
        .map((p) => [p.outcome, p.p]),
    ).toEqual([
      ["No", 0.6],
      ["Yes", 0.6],
    ]);
    now = 520;
    expect(
      v()
        .markets.lastPrice("m1", 1000)
        .map((p) => [p.outcome, p.p]),
    ).toEqual([
      ["No", 0.6],
      ["Yes", 0.9],
    ]);
    expect(
      v()
        .markets.lastPrice("m1", 200)
        .map((p) => [p.outcome, p.p]),
    ).toEqual([
      ["No", 0.6],
      ["Yes", 0.4],
    ]);
    expect(v().markets.get("m1").outcomes).toEqual(["Yes", "No"]);
    expect(() => v().markets.get("m2")).toThrow(NotVisibleError);
  });

  it("rejects bad paging arguments with a message that depends only on the argument", () => {
    now = 500;
    expect(() => v().news.search("oil", { limit: 0 })).toThrow("limit must be an integer in [1, 100], got 0");
    expect(() => v().reddit.listPosts({ offset: -1 })).toThrow(RangeError);
  });
});
