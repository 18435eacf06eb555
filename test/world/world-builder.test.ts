import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TruthStore } from "../../src/world/truth-store.js";
import type { NewsRow } from "../../src/world/types.js";
import { WorldBuilder, WorldDirAppearedError } from "../../src/world/world-builder.js";
import { WorldRowError } from "../../src/world/world-row-error.js";
import { WorldStore } from "../../src/world/world-store.js";
import { buildWorld, emptyRows, newsIndexDump, randomWorld, workDir } from "./world-fixtures.js";

const work = workDir();
afterAll(() => rmSync(work, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(work, `w${n++}`);
const META = { name: "t", window: { start: 0, end: 1000 }, builder: "test", builder_version: "1" };

function news(id: string, t: number, extra: Partial<NewsRow> = {}): NewsRow {
  return {
    id,
    url: `https://x.test/${id}`,
    domain: "x.test",
    title: `title ${id}`,
    text: `text ${id}`,
    published_at: t,
    visible_at: t,
    ...extra,
  };
}

describe("WorldBuilder", () => {
  it("round-trips every stream kind and truth kind", () => {
    const dir = fresh();
    const rows = randomWorld(7, false);
    const b = WorldBuilder.create(dir, META);
    for (const [kind, list] of Object.entries(rows)) b.insert(kind as never, list as never);
    b.insertTruth("breakpoint", [{ id: "bp1", market: "m0", t_start: 10, t_end: 20, size: 0.3 }]);
    b.insertTruth("attribution", [{ breakpoint: "bp1", news_id: "n0", group_id: "g", confidence: 0.9 }]);
    b.insertTruth("incident", [{ venue: "v1", start: 5, end: 9, kind: "outage", params: { http: 503 } }]);
    b.insertTruth("question_answer", [{ question: "q1", answer: "yes", resolved_at: 500 }]);
    b.insertTruth("label", [{ kind: "t_det", key: "m0", t: 42, value: { note: "x" } }]);
    b.addSource({ path: "in.jsonl", sha256: "ab", rows: 3, rejected: 1 });
    const m = b.finish();
    expect(existsSync(`${dir}.tmp-${process.pid}`)).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, "world.json"), "utf8"))).toEqual(m);
    for (const [kind, list] of Object.entries(rows)) expect(m.streams[kind], kind).toBe(list.length);
    expect(m.sources).toEqual([{ path: "in.jsonl", sha256: "ab", rows: 3, rejected: 1 }]);
    expect(m.hash).toMatch(/^[0-9a-f]{64}$/);

    const w = WorldStore.open(dir);
    const v = w.at(() => 10_000);
    expect(w.manifest).toEqual(m);
    for (const r of rows.news) expect(v.news.get(r.id)).toEqual(r);
    expect(v.markets.list()).toEqual([...rows.market].sort((a, b) => a.open - b.open || (a.id < b.id ? -1 : 1)));
    for (const q of rows.question) expect(v.questions.get(q.id)).toEqual(q);
    expect(v.broker.events().map((e) => e.payload)).toEqual(
      [...rows.broker_event].sort((a, b) => a.t - b.t || (a.id < b.id ? -1 : 1)).map((e) => e.payload),
    );
    expect(v.filings.companies()).toEqual([...rows.company].sort((a, b) => (a.cik < b.cik ? -1 : 1)));
    w.close();

    const truth = TruthStore.open(dir);
    expect(truth.breakpoints("m0")).toEqual([{ id: "bp1", market: "m0", t_start: 10, t_end: 20, size: 0.3 }]);
    expect(truth.attributions("bp1")).toEqual([{ breakpoint: "bp1", news_id: "n0", group_id: "g", confidence: 0.9 }]);
    expect(truth.incidents("v1")).toEqual([{ venue: "v1", start: 5, end: 9, kind: "outage", params: { http: 503 } }]);
    expect(truth.answers()).toEqual([{ question: "q1", answer: "yes", resolved_at: 500 }]);
    expect(truth.labels("t_det")).toEqual([{ kind: "t_det", key: "m0", t: 42, value: { note: "x" } }]);
    expect(truth.labels("other")).toEqual([]);
    truth.close();
  });

  it("a bad row throws WorldRowError naming kind, index and field; abort leaves no directory", () => {
    const dir = fresh();
    const b = WorldBuilder.create(dir, META);
    b.insert("news", [news("a", 1)]);
    const bad = [news("b", 2), { ...news("c", 3), published_at: "yesterday" } as unknown as NewsRow];
    let err: unknown;
    try {
      b.insert("news", bad);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(WorldRowError);
    expect((err as WorldRowError).kind).toBe("news");
    expect((err as WorldRowError).index).toBe(1);
    expect((err as WorldRowError).field).toBe("published_at");
    expect((err as Error).message).toMatch(/^invalid news row at index 1: field "published_at": /);
    expect(() => b.finish()).toThrow(/is failed/);
    b.abort();
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(`${dir}.tmp-${process.pid}`)).toBe(false);
  });

  it("duplicate ids and missing fields name the field", () => {
    const b = WorldBuilder.create(fresh(), META);
    expect(() => b.insert("news", [news("a", 1), news("a", 2)])).toThrow(
      'invalid news row at index 1: field "id": duplicate value (unique key)',
    );
    b.abort();
    const b2 = WorldBuilder.create(fresh(), META);
    const { venue: _venue, ...noVenue } = {
      venue: "v",
      symbol: "S",
      interval_ms: 60,
      open_time: 0,
      o: 1,
      h: 1,
      l: 1,
      c: 1,
      v: 1,
      visible_at: 60,
    };
    expect(() => b2.insert("candle", [noVenue as never])).toThrow(/invalid candle row at index 0: field "venue"/);
    b2.abort();
    const b3 = WorldBuilder.create(fresh(), META);
    expect(() => b3.insertTruth("label", [{ kind: "k", key: "x", t: null, value: 3 as never }])).toThrow(
      /invalid label row at index 0: field "value"/,
    );
    b3.abort();
  });

  it("refuses an existing target directory and an invalid window", () => {
    const dir = fresh();
    mkdirSync(dir);
    expect(() => WorldBuilder.create(dir, META)).toThrow(/already exists/);
    expect(() => WorldBuilder.create(fresh(), { ...META, window: { start: 5, end: 1 } })).toThrow(
      /invalid world window/,
    );
  });

  it("a target directory that appears during the build is never overwritten: finish throws WorldDirAppearedError, abort leaves no temp dir", () => {
    const dir = fresh();
    const b = WorldBuilder.create(dir, META);
    b.insert("news", [news("a", 10)]);
    mkdirSync(dir);
    writeFileSync(join(dir, "theirs"), "x");
    expect(() => b.finish()).toThrow(WorldDirAppearedError);
    expect(() => b.finish()).toThrow(/is failed/);
    b.abort();
    expect(existsSync(`${dir}.tmp-${process.pid}`)).toBe(false);
    expect(readFileSync(join(dir, "theirs"), "utf8")).toBe("x");
  });

  it("makes news seq (the FTS rowid) monotone in visible_at whatever the insertion order; hash is order-independent", () => {
    const rows = [news("c", 30), news("a", 10), news("b", 20), news("d", 20)];
    const d1 = fresh();
    const d2 = fresh();
    const w1rows = emptyRows();
    w1rows.news = rows;
    const w2rows = emptyRows();
    w2rows.news = [...rows].sort((x, y) => x.visible_at - y.visible_at || (x.id < y.id ? -1 : 1));
    buildWorld(d1, w1rows);
    buildWorld(d2, w2rows);
    for (const d of [d1, d2]) {
      const w = WorldStore.open(d);
      const seq = w.db
        .prepare("SELECT o.seq, n.id, o.visible_at FROM news_order o JOIN news n ON n.rid = o.rid ORDER BY o.seq")
        .all();
      expect(seq).toEqual([
        { seq: 1, id: "a", visible_at: 10 },
        { seq: 2, id: "b", visible_at: 20 },
        { seq: 3, id: "d", visible_at: 20 },
        { seq: 4, id: "c", visible_at: 30 },
      ]);
      w.close();
    }
    const h1 = WorldStore.open(d1);
    const h2 = WorldStore.open(d2);
    expect(h1.manifest.hash).toBe(h2.manifest.hash);
    h1.close();
    h2.close();
    const d3 = fresh();
    const w3rows = emptyRows();
    w3rows.news = [news("a", 10), news("b", 21)];
    buildWorld(d3, w3rows);
    const h3 = WorldStore.open(d3);
    const d4 = fresh();
    const w4rows = emptyRows();
    w4rows.news = [news("a", 10), news("b", 20)];
    buildWorld(d4, w4rows);
    const h4 = WorldStore.open(d4);
    expect(h3.manifest.hash).not.toBe(h4.manifest.hash);
    h3.close();
    h4.close();
  });

  it("WorldStore.open gives clear errors for a missing or invalid world.json", () => {
    const dir = fresh();
    expect(() => WorldStore.open(dir)).toThrow(`world directory ${dir} does not exist`);
    mkdirSync(dir);
    expect(() => WorldStore.open(dir)).toThrow(`world directory ${dir} has no world.json: rebuild the world`);
    writeFileSync(join(dir, "world.json"), "{");
    expect(() => WorldStore.open(dir)).toThrow(/world\.json is not valid JSON/);
    writeFileSync(join(dir, "world.json"), JSON.stringify({ name: "x" }));
    expect(() => WorldStore.open(dir)).toThrow(/world\.json is invalid at "window"/);
    expect(() => TruthStore.open(dir)).toThrow(`world directory ${dir} has no truth.db`);
  });

  it("the world database is opened read-only", () => {
    const dir = fresh();
    buildWorld(dir, randomWorld(3, false));
    const w = WorldStore.open(dir);
    expect(() => w.db.exec("DELETE FROM news")).toThrow(/readonly/);
    w.close();
  });
});

describe("FTS build", () => {
  it("the two-thread FTS build indexes exactly what the single-thread build does", () => {
    const rows = emptyRows();
    const words = ["alpha", "beta", "gamma", "delta", "the", "of", "rates", "storm", "oil", "bank"];
    for (let i = 0; i < 3000; i++) {
      const t = (i * 7919) % 1000;
      rows.news.push(
        news(`a${i}`, t, {
          title: `${words[i % 10]} ${words[(i * 3) % 10]}`,
          text: `${words[(i * 7) % 10]} ${words[(i * 11) % 10]} ${i}`,
        }),
      );
    }
    const serial = fresh();
    const parallel = fresh();
    for (const [dir, min] of [
      [serial, 1_000_000],
      [parallel, 1],
    ] as const) {
      const b = WorldBuilder.create(dir, META, { parallelFtsMinRows: min });
      b.insert("news", rows.news);
      b.finish();
    }
    const vocab = (dir: string) => {
      const w = WorldStore.open(dir);
      w.db.exec("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, news_fts, 'instance')");
      const out = w.db.prepare("SELECT term, doc, col, offset FROM temp.v ORDER BY term, doc, col, offset").all();
      const index = newsIndexDump(w.db);
      const hits = w
        .at(() => 600)
        .news.search("storm OR rates", { limit: 50 })
        .hits.map((h) => h.id);
      w.close();
      return { out, index, hits };
    };
    const a = vocab(serial);
    const b = vocab(parallel);
    expect(a.out.length).toBeGreaterThan(6000);
    expect(b.out).toEqual(a.out);
    // the relive news index fed by the two-thread FTS build equals the one read back after it
    expect(b.index.postings.length).toBeGreaterThan(5);
    expect(b.index).toEqual(a.index);
    expect(b.hits).toEqual(a.hits);
    expect(a.hits).toHaveLength(50);
  });
});
