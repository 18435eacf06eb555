import { rmSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { AsOfView } from "../../src/world/as-of-view.js";
import type { CandleRow } from "../../src/world/types.js";
import { WorldStore } from "../../src/world/world-store.js";
import { buildWorld, prng, randomWorld, truncate, WORDS, type WorldRows, workDir } from "./world-fixtures.js";

/**
 * R1 leakage: every AsOfView call on the full world at `now` must equal the same call on a world
 * built from only the rows visible at `now` (items, counts, totals, pages, snippets, error text).
 * Search ranking may differ only through BM25 corpus statistics (DESIGN invariant 2): search hits
 * are compared as id sets when all matches fit in the page, and always by count, visibility,
 * date bounds and per-hit fields.
 */

type Outcome = { ok: true; value: unknown } | { ok: false; error: string };

function attempt(f: () => unknown): Outcome {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    return { ok: false, error: `${(e as Error).name}: ${(e as Error).message}` };
  }
}

type Call = {
  name: string;
  run(v: AsOfView): unknown;
  search?: { q: string; from?: number; to?: number; offset: number; limit: number };
};

const QUERY_PARTS = [...WORDS, "AND", "OR", "NOT", '"', "(", ")", "bank of", "zzz", "-", "*", ":"];

function randomCalls(rows: WorldRows, seed: number, n: number): Call[] {
  const r = prng(seed);
  const t = () => r.int(-50, 1100);
  const pickId = (ids: string[]) => (r.next() < 0.15 || ids.length === 0 ? `unknown${r.int(0, 3)}` : r.pick(ids));
  const newsIds = rows.news.map((x) => x.id);
  const marketIds = [...rows.market.map((x) => x.id), "mX"];
  const postIds = rows.reddit_post.map((x) => x.id);
  const qIds = rows.question.map((x) => x.id);
  const calls: Call[] = [];
  for (let i = 0; i < n; i++) {
    const which = r.int(0, 22);
    switch (which) {
      case 0:
      case 1:
      case 2:
      case 3: {
        const q = Array.from({ length: r.int(1, 4) }, () => r.pick(QUERY_PARTS)).join(r.next() < 0.8 ? " " : "");
        const s: NonNullable<Call["search"]> = { q, offset: r.next() < 0.7 ? 0 : r.int(0, 5), limit: r.int(1, 12) };
        if (r.next() < 0.4) s.from = t();
        if (r.next() < 0.4) s.to = t();
        calls.push({ name: `news.search(${JSON.stringify(s)})`, run: (v) => v.news.search(q, s), search: s });
        break;
      }
      case 4: {
        const id = pickId(newsIds);
        calls.push({ name: `news.get(${id})`, run: (v) => v.news.get(id) });
        break;
      }
      case 5: {
        const o: { from?: number; to?: number } = {};
        if (r.next() < 0.5) o.from = t();
        if (r.next() < 0.5) o.to = t();
        calls.push({ name: `news.count(${JSON.stringify(o)})`, run: (v) => v.news.count(o) });
        break;
      }
      case 6:
        calls.push({ name: "markets.list", run: (v) => v.markets.list() });
        break;
      case 7: {
        const id = pickId(marketIds);
        calls.push({ name: `markets.get(${id})`, run: (v) => v.markets.get(id) });
        break;
      }
      case 8: {
        const id = pickId(marketIds);
        const a = t();
        const b = t();
        calls.push({
          name: `markets.prices(${id},${a},${b})`,
          run: (v) => v.markets.prices(id, Math.min(a, b), Math.max(a, b)),
        });
        break;
      }
      case 9: {
        const id = pickId(marketIds);
        const at = t();
        calls.push({ name: `markets.lastPrice(${id},${at})`, run: (v) => v.markets.lastPrice(id, at) });
        break;
      }
      case 10:
        calls.push({ name: "markets.resolutions", run: (v) => v.markets.resolutions() });
        break;
      case 11: {
        const o: Parameters<AsOfView["reddit"]["listPosts"]>[0] = {
          sort: r.pick(["new", "comments"] as const),
          order: r.pick(["asc", "desc"] as const),
          offset: r.int(0, 4),
          limit: r.int(1, 6),
        };
        if (r.next() < 0.3) o.since = t();
        if (r.next() < 0.3) o.until = t();
        if (r.next() < 0.3) o.subreddit = r.pick(["wsb", "stocks", "nope"]);
        calls.push({ name: `reddit.listPosts(${JSON.stringify(o)})`, run: (v) => v.reddit.listPosts(o) });
        break;
      }
      case 12: {
        const id = pickId(postIds);
        calls.push({ name: `reddit.getPost(${id})`, run: (v) => v.reddit.getPost(id) });
        break;
      }
      case 13: {
        const id = pickId(postIds);
        const o = { offset: r.int(0, 3), limit: r.int(1, 5) };
        calls.push({ name: `reddit.cascade(${id},${JSON.stringify(o)})`, run: (v) => v.reddit.cascade(id, o) });
        break;
      }
      case 14: {
        const id = pickId(postIds);
        calls.push({ name: `reddit.revealed(${id})`, run: (v) => v.reddit.revealed(id) });
        const after = t();
        const until = t();
        calls.push({
          name: `reddit.arrivals(${after},${until})`,
          run: (v) => v.reddit.arrivals(after, until),
        });
        break;
      }
      case 15: {
        const venue = r.pick(["v1", "v2", "v3"]);
        const symbol = r.pick(["BTC", "ETH"]);
        const a = t();
        const b = t();
        calls.push({
          name: `exchanges.candles(${venue},${symbol},${a},${b})`,
          run: (v) => v.exchanges.candles(venue, symbol, Math.min(a, b), Math.max(a, b)),
        });
        calls.push({
          name: `exchanges.latest(${venue},${symbol},${a},${b})`,
          run: (v) => v.exchanges.latest(venue, symbol, Math.min(a, b), Math.max(a, b)),
        });
        break;
      }
      case 16: {
        const venue = r.pick(["v1", "v2", "v3"]);
        calls.push({ name: `exchanges.symbols(${venue})`, run: (v) => v.exchanges.symbols(venue) });
        break;
      }
      case 17:
        calls.push({ name: "exchanges.venues", run: (v) => v.exchanges.venues() });
        break;
      case 18:
        calls.push({ name: "filings.companies", run: (v) => v.filings.companies() });
        break;
      case 19: {
        const cik = r.pick(["c1", "c2", "c3", "c9"]);
        calls.push({
          name: `filings.submissions+facts(${cik})`,
          run: (v) => [v.filings.submissions(cik), v.filings.facts(cik)],
        });
        break;
      }
      case 20: {
        const after = r.next() < 0.5 ? undefined : t();
        calls.push({
          name: `questions.list(${after})`,
          run: (v) => v.questions.list(after === undefined ? {} : { added_after: after }),
        });
        break;
      }
      case 21: {
        const id = pickId(qIds);
        calls.push({ name: `questions.get(${id})`, run: (v) => v.questions.get(id) });
        break;
      }
      default: {
        const o: { since?: number; kind?: string } = {};
        if (r.next() < 0.5) o.since = t();
        if (r.next() < 0.5) o.kind = r.pick(["order", "fill", "margin_call"]);
        calls.push({ name: `broker.events(${JSON.stringify(o)})`, run: (v) => v.broker.events(o) });
      }
    }
  }
  return calls;
}

type SearchOut = ReturnType<AsOfView["news"]["search"]>;

function checkSearch(call: Call, full: AsOfView, trunc: AsOfView, rows: WorldRows, now: number): void {
  const s = call.search!;
  const a = attempt(() => call.run(full));
  const b = attempt(() => call.run(trunc));
  expect(a.ok, call.name).toBe(b.ok);
  if (!a.ok || !b.ok) {
    expect(a, call.name).toEqual(b);
    return;
  }
  const ra = a.value as SearchOut;
  const rb = b.value as SearchOut;
  expect(ra.capped_to, call.name).toBe(rb.capped_to);
  expect(ra.hits.length, `${call.name}: hit count`).toBe(rb.hits.length);
  const byId = new Map(rows.news.map((n) => [n.id, n]));
  for (const h of ra.hits) {
    const row = byId.get(h.id)!;
    expect(row.visible_at, `${call.name}: ${h.id} visible`).toBeLessThanOrEqual(now);
    expect(row.published_at).toBeLessThanOrEqual(ra.capped_to);
    if (s.from !== undefined) expect(row.published_at).toBeGreaterThanOrEqual(s.from);
    expect(h.published_at).toBe(row.published_at);
    expect(h.title).toBe(row.title);
  }
  const snippetsB = new Map(rb.hits.map((h) => [h.id, h]));
  for (const h of ra.hits) {
    const hb = snippetsB.get(h.id);
    if (hb) expect(h, call.name).toEqual(hb);
  }
  // all visible matches in the truncated world (tiny worlds: they fit in one page of 100)
  const all = trunc.news.search(s.q, { ...s, offset: 0, limit: 100 }).hits;
  expect(ra.hits.length, `${call.name}: k filled`).toBe(Math.max(0, Math.min(s.limit, all.length - s.offset)));
  if (s.offset === 0 && all.length <= s.limit) {
    expect(new Set(ra.hits.map((h) => h.id)), call.name).toEqual(new Set(rb.hits.map((h) => h.id)));
  }
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("as-of view leakage (R1): full world vs truncated world", () => {
  it("no call's output or error depends on rows with visible_at > now (≥ 10,000 probes)", () => {
    const work = workDir();
    dirs.push(work);
    let probes = 0;
    let worldNo = 0;
    // every statement the full world's views prepare, to check that each carries the as-of bound
    const statements = new Set<string>();
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.boolean(),
        fc.array(fc.integer({ min: -10, max: 1100 }), { minLength: 5, maxLength: 5 }),
        (seed, lagged, nows) => {
          const rows = randomWorld(seed, lagged);
          const fullDir = join(work, `w${worldNo++}`);
          buildWorld(fullDir, rows);
          const full = WorldStore.open(fullDir);
          const prepare = full.stmt.bind(full);
          full.stmt = (sql) => {
            statements.add(sql);
            return prepare(sql);
          };
          try {
            for (const now of nows) {
              const truncDir = join(work, `w${worldNo++}`);
              buildWorld(truncDir, truncate(rows, now));
              const trunc = WorldStore.open(truncDir);
              try {
                const vf = full.at(() => now);
                const vt = trunc.at(() => now);
                for (const call of randomCalls(rows, seed ^ (now * 7919), 60)) {
                  probes++;
                  if (call.search) {
                    checkSearch(call, vf, vt, rows, now);
                    continue;
                  }
                  expect(
                    attempt(() => call.run(vf)),
                    `${call.name} at now=${now} seed=${seed}`,
                  ).toEqual(attempt(() => call.run(vt)));
                }
              } finally {
                trunc.close();
                rmSync(truncDir, { recursive: true, force: true });
              }
            }
          } finally {
            full.close();
            rmSync(fullDir, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 34, seed: 20260101 },
    );
    expect(probes).toBeGreaterThanOrEqual(10_000);
    // DESIGN invariant 2: the bound is inside every query, even where another bound already limits
    // the rows (a statement reading rows another statement ranked as of now)
    expect([...statements].filter((sql) => !/visible_at <= (min\()?@now\b/.test(sql))).toEqual([]);
    expect(statements.size).toBeGreaterThanOrEqual(40);
  });

  it("exchanges.latest is the candle of exchanges.candles visible last (shortest interval, earliest open among equals)", () => {
    const work = workDir();
    dirs.push(work);
    let worldNo = 0;
    let found = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.boolean(), (seed, lagged) => {
        const dir = join(work, `l${worldNo++}`);
        buildWorld(dir, randomWorld(seed, lagged));
        const w = WorldStore.open(dir);
        try {
          const r = prng(seed);
          for (let i = 0; i < 200; i++) {
            const now = r.int(-10, 1100);
            const v = w.at(() => now);
            const venue = r.pick(["v1", "v2", "v3"]);
            const symbol = r.pick(["BTC", "ETH"]);
            const a = r.int(-50, 1100);
            const b = r.int(-50, 1100);
            const [from, to] = [Math.min(a, b), Math.max(a, b)];
            let best: CandleRow | null = null;
            for (const c of v.exchanges.candles(venue, symbol, from, to))
              if (
                !best ||
                c.visible_at > best.visible_at ||
                (c.visible_at === best.visible_at && c.interval_ms < best.interval_ms)
              )
                best = c;
            if (best) found++;
            expect(
              v.exchanges.latest(venue, symbol, from, to),
              `${venue} ${symbol} [${from}, ${to}] seed ${seed}`,
            ).toEqual(best);
          }
        } finally {
          w.close();
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: 10, seed: 20261203 },
    );
    expect(found).toBeGreaterThan(100);
  });
});
